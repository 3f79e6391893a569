import type { Reply } from '@frontdesk/core'
import { errorResponse } from './error-response.ts'
import type { HttpResponse } from './http-types.ts'
import { ifNoneMatchMatches } from './if-none-match.ts'

/*
 * Every answer of the server is built here, whatever path it took: a reply of core (200, 201,
 * 304), an error (4xx, 5xx), the health check, a CONNECT, and a request node:http refused
 * before routing. Each starts from `answerHeaders`, so none can miss a header README "Transport"
 * asks of every response.
 */

/** `Strict-Transport-Security` of every answer over HTTPS (README "Transport"). */
export const HSTS = 'max-age=31536000'

/**
 * The headers of every answer (README "Transport"): JSON `Content-Type`, `X-Request-Id`,
 * `X-Content-Type-Options: nosniff`, `Vary: X-API-Key, X-Preview-Token` and, when the request
 * came over HTTPS, `Strict-Transport-Security`. A fresh object: the caller adds to it.
 */
export function answerHeaders(requestId: string, secure: boolean): Record<string, string> {
  const headers: Record<string, string> = {
    'content-type': 'application/json; charset=utf-8',
    'x-request-id': requestId,
    'x-content-type-options': 'nosniff',
    vary: 'X-API-Key, X-Preview-Token',
  }
  if (secure) headers['strict-transport-security'] = HSTS
  return headers
}

const NO_BODY = Buffer.alloc(0)

/**
 * The answer to a reply of core: `no-store`, or `private, max-age` with the reply's ETag (304
 * without a body when `ifNoneMatch` matches it), `Idempotent-Replayed` for a replayed
 * inquiry; the body is the reply's own bytes when core made them. Only for a request that
 * passed the key and permission checks (README "Content list").
 */
export function replyAnswer(reply: Reply<unknown>, headers: Record<string, string>, ifNoneMatch: string | undefined): HttpResponse {
  if (reply.replayed === true) headers['idempotent-replayed'] = 'true'
  if (reply.cache.kind === 'no-store') {
    headers['cache-control'] = 'no-store'
    return { status: reply.status, headers, body: replyBytes(reply) }
  }
  headers['cache-control'] = privateCacheControl(reply.cache.maxAge)
  headers.etag = reply.cache.etag
  if (ifNoneMatchMatches(ifNoneMatch, reply.cache.etag)) return { status: 304, headers, body: NO_BODY }
  return { status: reply.status, headers, body: replyBytes(reply) }
}

// Hint: one max-age (60 s) in practice: its header value is made once, not per answer.
let lastMaxAge = -1
let lastCacheControl = ''

/** `private, max-age=N`. */
function privateCacheControl(maxAge: number): string {
  if (maxAge !== lastMaxAge) {
    lastCacheControl = `private, max-age=${maxAge}`
    lastMaxAge = maxAge
  }
  return lastCacheControl
}

/** An answer no cache may store: `body` as JSON with `status` (the health check's). */
export function uncachedAnswer(status: number, body: unknown, headers: Record<string, string>): HttpResponse {
  headers['cache-control'] = 'no-store'
  return { status, headers, body: Buffer.from(JSON.stringify(body) ?? 'null') }
}

/**
 * The answer to anything thrown while serving a request, by the one error map
 * (`errorResponse`, README "Errors"): never stored; `unexpected` for a 500, which the edge logs.
 */
export function errorAnswer(error: unknown, headers: Record<string, string>): HttpResponse & { unexpected: boolean } {
  const response = errorResponse(error)
  return {
    status: response.status,
    headers: { ...headers, ...response.headers, 'cache-control': 'no-store' },
    body: response.body,
    unexpected: response.unexpected,
  }
}

/** The reply's JSON: the bytes core made with it (a cached or a search reply), else its body serialised. */
function replyBytes(reply: Reply<unknown>): Buffer {
  const bytes = reply.bytes
  if (bytes === undefined) return Buffer.from(JSON.stringify(reply.body) ?? 'null')
  // Hint: core makes Buffers; a view of other bytes is made only for replies from elsewhere.
  if (bytes instanceof Buffer) return bytes
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
}
