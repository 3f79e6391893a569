import type * as http from 'node:http'
import type { Socket } from 'node:net'

/** Options of `guardConnections`. */
export interface ConnectionGuardOptions {
  /** Whether the server speaks TLS: connections then count as open for HTTP once their handshake is done. */
  tls: boolean
  /** Time a connection may stay open without sending the start of a request, in ms. */
  firstRequestTimeoutMs: number
}

/** What the request listener tells the guard. */
export interface ConnectionGuard {
  /** A request arrived on `socket` (from then on Node's header, request and keep-alive timeouts govern it). */
  requestArrived(socket: Socket): void
}

/**
 * Watches a server's connections: one that is open for HTTP (its TLS handshake done) but sends
 * not a byte of a request within `firstRequestTimeoutMs` is destroyed. Node's header timeout only starts
 * with the first byte of a request, and its keep-alive timeout only after a response, so
 * without this a client could hold a socket for ever by connecting and saying nothing.
 */
export function guardConnections(server: http.Server, options: ConnectionGuardOptions): ConnectionGuard {
  const waiting = new WeakMap<Socket, NodeJS.Timeout>()
  const opened = (socket: Socket) => {
    // Hint: once a request has begun, Node's header timeout answers it with 408 (see `answerClientError`).
    const timer = setTimeout(() => socket.bytesRead === 0 && socket.destroy(), options.firstRequestTimeoutMs)
    timer.unref()
    waiting.set(socket, timer)
    socket.once('close', () => clearTimeout(timer))
  }
  if (options.tls) server.prependListener('secureConnection', opened)
  else server.prependListener('connection', opened)
  return {
    requestArrived(socket) {
      const timer = waiting.get(socket)
      if (timer === undefined) return
      clearTimeout(timer)
      waiting.delete(socket)
    },
  }
}
