import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http'
import type { Duplex } from 'node:stream'
import type { TLSSocket } from 'node:tls'
import type { Frontdesk } from '@frontdesk/core'
import { ValidationError } from '@frontdesk/core'
import type { AccessLogger } from './access-log.ts'
import { isoNow, redactTarget } from './access-log.ts'
import { answerHeaders, errorAnswer } from './answer.ts'
import type { HandleOptions } from './handle.ts'
import { handle } from './handle.ts'
import type { HttpRequest, HttpResponse } from './http-types.ts'
import { createRefusalMemory } from './ignored-refusals.ts'
import type { FrontdeskMetrics } from './metrics.ts'
import { bodyReader } from './read-body.ts'
import { requestIdOf } from './request-id.ts'
import { framingProblem } from './request-framing.ts'
import { writeRawAnswer } from './raw-answer.ts'
import { createProxyMatcher } from './trusted-proxies.ts'

/** Options of `createHandler`. */
export interface HandlerOptions extends HandleOptions {
  /**
   * Peers whose `X-Forwarded-Proto: https` is believed (addresses or CIDR ranges). A request
   * on a plain socket is served only when it comes from one of them with that header;
   * anything else gets 403 `HTTPS_REQUIRED`. Default: loopback (`127.0.0.1`, `::1`).
   */
  trustedProxies?: readonly string[]
  /**
   * Receives one entry per request served (`/v1` and `/healthz`), once its response ended:
   * request id, tenant code, key id, method, redacted path, status, duration. Never the key
   * or a preview token. Default: no access log (`frontdesk serve` writes JSON lines to stdout).
   */
  onAccess?: AccessLogger
}

/**
 * A `node:http(s)` request listener. Mounted in another server it serves `/v1` and `/v1/…`
 * paths and passes every other path to `next` (connect/Express style); without `next` every
 * path is its own, so unknown ones get a JSON 404. Registered for the server's `checkContinue`
 * event too (as `createServer` does), it answers `Expect: 100-continue` with `100 Continue`
 * only once the request passed its credential, permission and media-type checks.
 * Standalone (no `next`), it also answers `GET /healthz` without a key (see `handle`).
 */
export type NodeHandler = (request: IncomingMessage, response: ServerResponse, next?: () => void) => void

/** Creates the request listener serving frontdesk's `/v1` API. */
export function createHandler(frontdesk: Frontdesk, options: HandlerOptions = {}): NodeHandler {
  const isTrustedProxy = createProxyMatcher(options.trustedProxies)
  const refusals = createRefusalMemory()
  return (request, response, next) => {
    const url = request.url ?? '/'
    if (next !== undefined && !isApiPath(url)) {
      next()
      return
    }
    const started = performance.now()
    const socket = request.socket
    const fromProxy = isTrustedProxy(socket.remoteAddress)
    const remoteAddress = (fromProxy ? forwardedFor(request) : undefined) ?? socket.remoteAddress
    const sent: Sent = { caller: undefined, requestId: '', bytes: 0, route: undefined, code: undefined }
    if (options.onAccess !== undefined || options.metrics !== undefined) {
      const { onAccess, metrics } = options
      response.once('close', () => {
        if (onAccess !== undefined) logAccess(onAccess, request, response, started, sent, remoteAddress)
        if (metrics !== undefined) observe(metrics, request, response, started, sent)
      })
    }
    // Hint: a body no route reads is never drained (that would let anyone upload for free): the connection is closed after the answer.
    const hasBody = request.headers['transfer-encoding'] !== undefined || (request.headers['content-length'] ?? '0') !== '0'
    const secure = (socket as Partial<TLSSocket>).encrypted === true || (fromProxy && forwardedProto(request) === 'https')
    const problem = framingProblem(request)
    if (problem !== null) {
      const { unexpected: _, ...refusal } = errorAnswer(new ValidationError([problem]), answerHeaders(requestIdOf(request.headers['x-request-id']), secure))
      write(response, refusal, true, sent)
      return
    }
    // Hint: without a `checkContinue` listener Node has already sent 100 Continue; sending it twice is harmless.
    const expectsContinue = /^100-continue$/i.test(request.headers.expect ?? '')
    const body = bodyReader(request, expectsContinue ? () => response.writeContinue() : undefined)
    handle(frontdesk, { method: request.method ?? 'GET', url, headers: request.headers, body: (limit) => body.read(limit), secure, fromTrustedProxy: fromProxy, remoteAddress }, options)
      .then((result) => {
        sent.caller = result.caller
        // Hint: a client that ignored an earlier 429's Retry-After on this connection loses the connection.
        const ignoredLimit = result.status === 429 && refusals.refused(socket, Number(result.headers['retry-after'] ?? 1))
        write(response, result, (hasBody && !body.complete) || ignoredLimit, sent)
      })
      .catch(() => response.destroy())
  }
}

/** How long a CONNECT's connection may stay open, answered or not, before it is cut. */
const CONNECT_LINGER_MS = 5_000

/** Listens to a server's `connect` event: what `createConnectListener` returns. */
export type ConnectListener = (request: IncomingMessage, socket: Duplex) => void

/**
 * Answers `CONNECT` requests, which `node:http` never passes to the request listener (without
 * a `connect` listener it resets the connection, leaving the client with no answer). frontdesk
 * is no proxy: the request goes through `handle` like any other, so it gets what README "Errors"
 * gives a method no route has: 403 `HTTPS_REQUIRED` on an unvouched plain connection, else 405
 * (with `Allow`) on a known path, else 404. The connection is closed after the answer.
 */
export function createConnectListener(frontdesk: Frontdesk, options: HandlerOptions = {}): ConnectListener {
  const isTrustedProxy = createProxyMatcher(options.trustedProxies)
  return (request, socket) => {
    // Hint: node:http took its own listeners off the socket before the event, its error
    // listener too: without this one a client resetting the connection would crash the process.
    socket.on('error', () => socket.destroy())
    // Hint: and it left the socket not reading, so the client's close would never be seen and
    // `server.close()` would wait for it forever; anything more the client sends is dropped.
    socket.resume()
    const timer = setTimeout(() => socket.destroy(), CONNECT_LINGER_MS)
    timer.unref()
    socket.once('close', () => clearTimeout(timer))
    const fromProxy = isTrustedProxy(request.socket.remoteAddress)
    const secure = (request.socket as Partial<TLSSocket>).encrypted === true || (fromProxy && forwardedProto(request) === 'https')
    const url = request.url ?? '/'
    const target: HttpRequest = { method: 'CONNECT', url, headers: request.headers, body: Buffer.alloc(0), secure, fromTrustedProxy: fromProxy }
    void handle(frontdesk, target, options).then(
      (result) => (socket.writable ? writeRawAnswer(socket, result) : socket.destroy()),
      () => socket.destroy(),
    )
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

/** What the access log needs to know of a response once it ended. */
interface Sent {
  caller: HttpResponse['caller']
  requestId: string
  bytes: number
  route: HttpResponse['route']
  code: HttpResponse['code']
}

/** Writes `result`; with `close`, the connection is closed after it (a body left unread, an ignored limit). */
function write(response: ServerResponse, result: HttpResponse, close: boolean, sent: Sent): void {
  if (response.headersSent || response.destroyed) return
  // Hint: one writeHead with the whole header object (built per request by `handle`) costs less than a setHeader per header.
  const headers: OutgoingHttpHeaders = result.headers
  // A body left unread cannot be skipped safely on a kept-alive connection: close it instead.
  if (close) headers.connection = 'close'
  if (result.status !== 304) headers['content-length'] = result.body.length
  sent.requestId = result.headers['x-request-id'] ?? ''
  sent.bytes = result.status === 304 ? 0 : result.body.length
  sent.route = result.route
  sent.code = result.code
  response.writeHead(result.status, headers)
  response.end(result.body)
}

function observe(metrics: FrontdeskMetrics, request: IncomingMessage, response: ServerResponse, started: number, sent: Sent): void {
  try {
    const answered = { status: response.headersSent ? response.statusCode : 0, route: sent.route, code: sent.code, caller: sent.caller }
    metrics.observeRequest(request.method ?? '', answered, (performance.now() - started) / 1000)
  } catch {
    // Hint: metrics must not turn into a failure of the server either.
  }
}

function logAccess(
  onAccess: AccessLogger,
  request: IncomingMessage,
  response: ServerResponse,
  started: number,
  sent: Sent,
  remoteAddress: string | undefined,
): void {
  const { caller } = sent
  try {
    onAccess({
      time: isoNow(),
      request_id: sent.requestId,
      tenant: caller?.tenant ?? null,
      key_id: caller?.keyId ?? null,
      method: request.method ?? '',
      path: redactTarget(request.url ?? '/'),
      status: response.headersSent ? response.statusCode : 0,
      duration_ms: Math.round((performance.now() - started) * 1000) / 1000,
      bytes: sent.bytes,
      remote_address: remoteAddress ?? null,
      ...(response.writableFinished ? {} : { aborted: true as const }),
    })
  } catch {
    // A failing logger must not turn into a failure of the server.
  }
}
