import type * as http from 'node:http'
import type { Socket } from 'node:net'
import { isIPv6 } from 'node:net'

/** Connections a server holds at most, from all clients together (`--max-connections`). */
export const DEFAULT_MAX_CONNECTIONS = 4_096
/** Connections one client address holds at most (`--max-connections-per-address`). */
export const DEFAULT_MAX_CONNECTIONS_PER_ADDRESS = 64
/**
 * The accept queue to listen with (`server.listen({ backlog })`; the kernel caps it at
 * `net.core.somaxconn`, 4,096 on current Linux). Node's default, 511, is shorter than the
 * connections a server holds: a client that opens a thousand connections at once, and opens
 * each again as soon as the per-address limit resets it, keeps so short a queue full, and the
 * kernel then drops every other client's SYN, which that client retries only after 1, 3, 7 s.
 * A queue as long as the connections held at most lets the kernel take them all while the
 * server resets the flood's.
 */
export const LISTEN_BACKLOG = DEFAULT_MAX_CONNECTIONS

/** Options of `guardConnections`. */
export interface ConnectionGuardOptions {
  /** Whether the server speaks TLS: connections then count as open for HTTP once their handshake is done. */
  tls: boolean
  /** Time a connection may stay open without sending the start of a request, in ms. */
  firstRequestTimeoutMs: number
  /** Connections held at most, all clients together; further ones are refused at once. 0 = no limit. */
  maxConnections: number
  /** Connections held at most per client address (IPv6: per /64); further ones are refused at once. 0 = no limit. */
  maxConnectionsPerAddress: number
  /** Addresses exempt from the per-address limit (a trusted proxy carries many clients on its connections). */
  exempt: (address: string | undefined) => boolean
}

/** What the request listener tells the guard. */
export interface ConnectionGuard {
  /** A request arrived on `socket` (from then on Node's header, request and keep-alive timeouts govern it). */
  requestArrived(socket: Socket): void
}

/**
 * Watches a server's connections, cheaply, before any TLS work is done for them:
 * - at most `maxConnections` at once, and `maxConnectionsPerAddress` from one client address:
 *   one more is reset at once, so that one client's flood of connections cannot take every
 *   file descriptor, or every turn of the event loop, from the others;
 * - a connection that is open for HTTP (its TLS handshake done) but sends not a byte of a
 *   request within `firstRequestTimeoutMs` is destroyed: Node's header timeout only starts with
 *   the first byte of a request, and its keep-alive timeout only after a response, so a client
 *   could otherwise hold a socket for ever by connecting and saying nothing.
 */
export function guardConnections(server: http.Server, options: ConnectionGuardOptions): ConnectionGuard {
  const waiting = new WeakMap<Socket, NodeJS.Timeout>()
  const perAddress = new Map<string, number>()
  if (options.maxConnections > 0) server.maxConnections = options.maxConnections

  if (options.maxConnectionsPerAddress > 0) {
    const admit = (socket: Socket): boolean => {
      if (options.exempt(socket.remoteAddress)) return true
      const key = addressKey(socket.remoteAddress)
      const held = perAddress.get(key) ?? 0
      if (held >= options.maxConnectionsPerAddress) {
        socket.resetAndDestroy()
        return false
      }
      perAddress.set(key, held + 1)
      socket.once('close', () => {
        const left = (perAddress.get(key) ?? 1) - 1
        if (left <= 0) perAddress.delete(key)
        else perAddress.set(key, left)
      })
      return true
    }
    // Hint: a refused connection must reach no 'connection' listener at all, whenever it was
    // added: a listener that only resets the socket first still lets TLS's own listener wrap
    // the closed socket, start a handshake and report it failed (a ConnResetException with its
    // stack), which cost a flood's refused connection three times its refusal.
    const emit = server.emit.bind(server) as (event: string | symbol, ...args: unknown[]) => boolean
    server.emit = ((event: string | symbol, ...args: unknown[]) =>
      event === 'connection' && !admit(args[0] as Socket) ? false : emit(event, ...args)) as typeof server.emit
  }

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

/** The unit the per-address limit counts: an IPv4 address, or the /64 prefix of an IPv6 one. */
export function addressKey(address: string | undefined): string {
  if (address === undefined) return ''
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1]
  if (mapped !== undefined) return mapped
  if (!isIPv6(address)) return address
  const [head = '', tail = ''] = address.toLowerCase().split('::')
  const left = head === '' ? [] : head.split(':')
  const right = tail === '' ? [] : tail.split(':')
  const groups = address.includes('::') ? [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right] : left
  return `${groups.slice(0, 4).map((group) => group.replace(/^0+(?=.)/, '')).join(':')}::/64`
}
