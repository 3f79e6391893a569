import * as http from 'node:http'
import * as https from 'node:https'
import type { Duplex } from 'node:stream'
import type { TLSSocket } from 'node:tls'
import type { Frontdesk } from '@frontdesk/core'
import { answerClientError } from './client-error.ts'
import { DEFAULT_MAX_CONNECTIONS, DEFAULT_MAX_CONNECTIONS_PER_ADDRESS, guardConnections } from './connection-guard.ts'
import { createConnectListener, createHandler } from './create-handler.ts'
import type { HandlerOptions } from './create-handler.ts'
import type { HandleOptions } from './handle.ts'
import { pipelineRequests } from './request-pipeline.ts'
import { SEND_TIMEOUT_MS, watchSends } from './send-timeout.ts'
import { checkTlsMaterial } from './tls-material.ts'
import { TLS_SETTINGS } from './tls-settings.ts'
import { createProxyMatcher, DEFAULT_TRUSTED_PROXIES } from './trusted-proxies.ts'

/** How the server meets HTTPS (README "Transport"). */
export type ServerTransport =
  /** Terminate TLS here (1.2 at least) with this PEM certificate chain and key. */
  | { tls: { cert: string | Buffer; key: string | Buffer } }
  /**
   * Serve plain HTTP behind a TLS-terminating proxy: a request is accepted only with
   * `X-Forwarded-Proto: https` from a trusted proxy (addresses or CIDR ranges, default loopback).
   */
  | { behindProxy: true; trustedProxies?: readonly string[] }

/** Options of `createServer`. */
export interface ServerOptions extends HandleOptions, Pick<HandlerOptions, 'onAccess'> {
  /** Largest request head in bytes; a bigger one gets 431. Default: Node's (16 KiB). */
  maxHeaderSize?: number
  /** Time allowed to send the request headers, in ms. Default `HEADERS_TIMEOUT_MS` (10 s). */
  headersTimeoutMs?: number
  /** Time allowed to send the whole request, in ms. Default `REQUEST_TIMEOUT_MS` (30 s). */
  requestTimeoutMs?: number
  /** Time allowed for the TLS handshake, in ms. Default `HANDSHAKE_TIMEOUT_MS` (10 s). */
  handshakeTimeoutMs?: number
  /** Connections held at once, all clients together; more are refused at once. Default 4 096; 0 = no limit. */
  maxConnections?: number
  /**
   * Connections held at once from one client address (IPv6: one /64); more are refused at once,
   * before any TLS work. Trusted proxies are exempt. Default 64; 0 = no limit.
   */
  maxConnectionsPerAddress?: number
  /**
   * Time a connection's answers may wait without the client taking a byte of them, in ms; the
   * connection is then destroyed (see `watchSends`). Default `SEND_TIMEOUT_MS` (30 s); 0 = never.
   */
  sendTimeoutMs?: number
  /**
   * Requests one connection may carry: the last is answered with `Connection: close` and the
   * connection closed after it; requests pipelined behind it are not answered (the client
   * sends them again on a new connection, RFC 9112 §9.3.2). Default
   * `MAX_REQUESTS_PER_CONNECTION` (1 000); 0 = no limit.
   */
  maxRequestsPerConnection?: number
}

/** Time allowed to send the request headers (ms). */
export const HEADERS_TIMEOUT_MS = 10_000
/** Time allowed to send the whole request (ms). */
export const REQUEST_TIMEOUT_MS = 30_000
/** Idle time before a kept-alive connection is closed (ms). */
export const KEEP_ALIVE_TIMEOUT_MS = 5_000
/** Behind a proxy, longer than common proxies' upstream keep-alive (60 s), so the proxy closes first. */
export const PROXY_KEEP_ALIVE_TIMEOUT_MS = 65_000
/** Time allowed for a TLS handshake (ms). */
export const HANDSHAKE_TIMEOUT_MS = 10_000
/** Requests one connection may carry (as nginx's `keepalive_requests`). */
export const MAX_REQUESTS_PER_CONNECTION = 1_000


/**
 * A server for frontdesk's `/v1` API, not yet listening. It never redirects HTTP to HTTPS (a key
 * sent over plain HTTP has already leaked): with `tls`, a plain-HTTP client fails the TLS
 * handshake; behind a proxy, anything not vouched for as HTTPS gets 403 `HTTPS_REQUIRED`.
 * Slow or silent clients are cut off by the timeouts above, and connections are limited per
 * client address and overall before any TLS work (see `guardConnections`). What one connection
 * can make the server hold is bounded: its pipelined requests are served a few at a time and
 * no longer read while many wait (`pipelineRequests`), and a connection whose answers the client
 * does not take is closed after `sendTimeoutMs` (`watchSends`).
 */
export function createServer(frontdesk: Frontdesk, transport: ServerTransport, options: ServerOptions = {}): https.Server | http.Server {
  const behindProxy = 'behindProxy' in transport
  const headersTimeout = options.headersTimeoutMs ?? HEADERS_TIMEOUT_MS
  const requestTimeout = options.requestTimeoutMs ?? REQUEST_TIMEOUT_MS
  const common: http.ServerOptions = {
    headersTimeout,
    requestTimeout,
    keepAliveTimeout: behindProxy ? PROXY_KEEP_ALIVE_TIMEOUT_MS : KEEP_ALIVE_TIMEOUT_MS,
    // Hint: timeouts are enforced on this tick; Node's default (30 s) would let them overrun.
    connectionsCheckingInterval: 1_000,
    ...(options.maxHeaderSize === undefined ? {} : { maxHeaderSize: options.maxHeaderSize }),
  }
  const handlerOptions: HandlerOptions = {
    ...options,
    trustedProxies: behindProxy ? (transport.trustedProxies ?? DEFAULT_TRUSTED_PROXIES) : [],
  }
  const handle = createHandler(frontdesk, handlerOptions)
  const connect = createConnectListener(frontdesk, handlerOptions)
  const pipeline = pipelineRequests(options.maxRequestsPerConnection ?? MAX_REQUESTS_PER_CONNECTION)
  const handler = (request: http.IncomingMessage, response: http.ServerResponse) => {
    guard.requestArrived(request.socket)
    pipeline.admit(request, response, () => handle(request, response))
  }
  const server = behindProxy
    ? http.createServer(common, handler)
    : https.createServer(
        {
          ...common,
          ...tlsMaterial(transport.tls.cert, transport.tls.key),
          ...TLS_SETTINGS,
          handshakeTimeout: options.handshakeTimeoutMs ?? HANDSHAKE_TIMEOUT_MS,
        },
        handler,
      )
  // Hint: a client may end its side once its request is sent (HTTP allows it; `nc -N`, some
  // scripts do). By default Node then drops the request in flight and closes, so an inquiry
  // could be committed and its 201 never sent. With `httpAllowHalfOpen` the answer is sent and
  // the connection closed after it (an idle one is closed at once); the property is
  // undocumented but kept for userland servers (nodejs/node#36819). A TLS socket must allow
  // half-open too: set per socket once its handshake is done, because `allowHalfOpen` on the
  // TLS server itself leaks the TCP socket of a client that closes right after a TLS 1.3 handshake.
  ;(server as { httpAllowHalfOpen?: boolean }).httpAllowHalfOpen = true
  // Sockets whose TLS handshake finished: only these can be answered after a client error.
  const established = new WeakSet<object>()
  if (!behindProxy) {
    server.prependListener('secureConnection', (socket: TLSSocket) => {
      socket.allowHalfOpen = true
      established.add(socket)
    })
    // Hint: node:http feeds its parser straight from the TLS layer, which hands over everything
    // it has decrypted even once the connection is paused; the parser, paused by then, fails
    // with HPE_PAUSED and the connection is dropped with its pipelined requests unanswered. A
    // 'data' listener (added after node:http's own) makes node:http read through the socket's
    // stream instead, which holds what arrives while paused.
    server.on('secureConnection', (socket: TLSSocket) => socket.on('data', readThroughStream))
  }
  const isProxy = createProxyMatcher(handlerOptions.trustedProxies)
  const guard = guardConnections(server, {
    tls: !behindProxy,
    firstRequestTimeoutMs: headersTimeout,
    maxConnections: options.maxConnections ?? DEFAULT_MAX_CONNECTIONS,
    maxConnectionsPerAddress: options.maxConnectionsPerAddress ?? DEFAULT_MAX_CONNECTIONS_PER_ADDRESS,
    exempt: (address) => behindProxy && isProxy(address),
  })
  watchSends(server, { tls: !behindProxy, timeoutMs: options.sendTimeoutMs ?? SEND_TIMEOUT_MS })
  server.headersTimeout = headersTimeout
  server.requestTimeout = requestTimeout
  server.keepAliveTimeout = common.keepAliveTimeout ?? KEEP_ALIVE_TIMEOUT_MS
  // Hint: with this listener Node leaves `Expect: 100-continue` to the handler, which invites the body only when authorised.
  server.on('checkContinue', handler)
  // Hint: Node answers any other expectation with a bare 417; RFC 9110 lets a server ignore it, so the request is served as usual.
  server.on('checkExpectation', handler)
  // Hint: without it Node resets a CONNECT's connection with no answer at all.
  server.on('connect', (request: http.IncomingMessage, socket: Duplex) => {
    guard.requestArrived(request.socket)
    connect(request, socket)
  })
  server.on('clientError', (error: Error & { code?: string }, socket: Duplex) => {
    answerClientError(error, socket, { secure: !behindProxy, established: behindProxy || established.has(socket) })
  })
  return server
}

/** The 'data' listener of `createServer`'s TLS connections: node:http reads them, this only makes it read through the stream. */
function readThroughStream(): void {}

/** The certificate and key, checked first so that a mistake is named rather than left to OpenSSL's `ERR_OSSL_…`. */
function tlsMaterial(cert: string | Buffer, key: string | Buffer): { cert: string | Buffer; key: string | Buffer } {
  const problem = checkTlsMaterial(cert, key)
  if (problem === null) return { cert, key }
  const what = problem.subject === 'cert' ? 'the certificate ' : problem.subject === 'key' ? 'the private key ' : ''
  throw new TypeError(`Invalid TLS material: ${what}${problem.message}`)
}
