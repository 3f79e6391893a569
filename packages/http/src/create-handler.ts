import type { IncomingMessage, ServerResponse } from 'node:http'
import type { TLSSocket } from 'node:tls'
import type { Frontdesk } from '@frontdesk/core'
import type { HandleOptions } from './handle.ts'
import { handle } from './handle.ts'
import type { HttpResponse } from './http-types.ts'
import { bodyReader } from './read-body.ts'
import { createProxyMatcher } from './trusted-proxies.ts'

/** Options of `createHandler`. */
export interface HandlerOptions extends HandleOptions {
  /**
   * Peers whose `X-Forwarded-Proto: https` is believed (addresses or CIDR ranges). A request
   * on a plain socket is served only when it comes from one of them with that header;
   * anything else gets 403 `HTTPS_REQUIRED`. Default: loopback (`127.0.0.1`, `::1`).
   */
  trustedProxies?: readonly string[]
}

/**
 * A `node:http(s)` request listener. Mounted in another server it serves `/v1` and `/v1/…`
 * paths and passes every other path to `next` (connect/Express style); without `next` every
 * path is its own, so unknown ones get a JSON 404. Registered for the server's `checkContinue`
 * event too (as `createServer` does), it answers `Expect: 100-continue` with `100 Continue`
 * only once the request passed its credential, permission and media-type checks.
 */
export type NodeHandler = (request: IncomingMessage, response: ServerResponse, next?: () => void) => void

/** Creates the request listener serving frontdesk's `/v1` API. */
export function createHandler(frontdesk: Frontdesk, options: HandlerOptions = {}): NodeHandler {
  const isTrustedProxy = createProxyMatcher(options.trustedProxies)
  return (request, response, next) => {
    const url = request.url ?? '/'
    if (next !== undefined && !isApiPath(url)) {
      next()
      return
    }
    const socket = request.socket
    const fromProxy = isTrustedProxy(socket.remoteAddress)
    const secure = (socket as Partial<TLSSocket>).encrypted === true || (fromProxy && forwardedProto(request) === 'https')
    // Hint: without a `checkContinue` listener Node has already sent 100 Continue; sending it twice is harmless.
    const expectsContinue = /^100-continue$/i.test(request.headers.expect ?? '')
    const body = bodyReader(request, expectsContinue ? () => response.writeContinue() : undefined)
    const hasBody = request.headers['transfer-encoding'] !== undefined || (request.headers['content-length'] ?? '0') !== '0'
    const remoteAddress = (fromProxy ? forwardedFor(request) : undefined) ?? socket.remoteAddress
    handle(frontdesk, { method: request.method ?? 'GET', url, headers: request.headers, body: (limit) => body.read(limit), secure, remoteAddress }, options)
      .then((result) => write(response, result, hasBody && !body.complete))
      .catch(() => response.destroy())
  }
}

function isApiPath(url: string): boolean {
  return url === '/v1' || url.startsWith('/v1/') || url.startsWith('/v1?')
}

/** The scheme the nearest proxy saw: the last entry of `X-Forwarded-Proto`, which that proxy wrote. */
function forwardedProto(request: IncomingMessage): string | undefined {
  const header = request.headers['x-forwarded-proto']
  const value = Array.isArray(header) ? header.join(',') : header
  return value?.split(',').pop()?.trim().toLowerCase()
}

/** The client a trusted proxy saw: the last entry of `X-Forwarded-For`, which that proxy wrote. */
function forwardedFor(request: IncomingMessage): string | undefined {
  const header = request.headers['x-forwarded-for']
  const value = Array.isArray(header) ? header.join(',') : header
  const last = value?.split(',').pop()?.trim()
  return last === '' ? undefined : last
}

function write(response: ServerResponse, result: HttpResponse, unreadBody: boolean): void {
  if (response.headersSent || response.destroyed) return
  response.statusCode = result.status
  for (const [name, value] of Object.entries(result.headers)) response.setHeader(name, value)
  // A body left unread cannot be skipped safely on a kept-alive connection: close it instead.
  if (unreadBody) response.setHeader('connection', 'close')
  if (result.status !== 304) response.setHeader('content-length', result.body.length)
  response.end(result.body)
}
