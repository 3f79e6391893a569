import type * as http from 'node:http'
import type { Socket } from 'node:net'

/** Time a connection's answers may wait without the client taking a byte of them (ms). */
export const SEND_TIMEOUT_MS = 30_000

/** Options of `watchSends`. */
export interface SendWatchOptions {
  /** Whether the server speaks TLS: connections are watched once their handshake is done. */
  tls: boolean
  /** Time without progress after which a connection is destroyed, in ms; 0 = never. */
  timeoutMs: number
}

/** What was last seen of a watched connection. */
interface Seen {
  progress: number
  since: number
}

/**
 * Destroys every connection that holds output the client does not take for `timeoutMs`: it
 * has answers waiting to be written, and neither the kernel has taken a byte of them nor has
 * an answer been written in that time (as nginx's `send_timeout`). A client that stops
 * reading, or reads a byte now and then, so loses its connection, and with it whatever the
 * server held for it; one that reads slowly but steadily keeps it. Connections are looked at
 * every second (more often for a timeout under 4 s), only while there are any.
 */
export function watchSends(server: http.Server, options: SendWatchOptions): void {
  if (options.timeoutMs <= 0) return
  const watched = new Map<Socket, Seen>()
  const every = Math.max(50, Math.min(1_000, Math.floor(options.timeoutMs / 4)))
  let timer: NodeJS.Timeout | null = null
  const check = () => {
    const now = performance.now()
    for (const [socket, seen] of watched) {
      const progress = sent(socket)
      if (socket.writableLength === 0 || progress !== seen.progress) {
        seen.progress = progress
        seen.since = now
      } else if (now - seen.since >= options.timeoutMs) {
        socket.destroy()
      }
    }
  }
  server.on(options.tls ? 'secureConnection' : 'connection', (socket: Socket) => {
    watched.set(socket, { progress: sent(socket), since: performance.now() })
    if (timer === null) {
      timer = setInterval(check, every)
      timer.unref()
    }
    socket.once('close', () => {
      watched.delete(socket)
      if (watched.size === 0 && timer !== null) {
        clearInterval(timer)
        timer = null
      }
    })
  })
}

/**
 * A count that grows whenever output of `socket` moves on: answers written to the end (the
 * stream's bytes less those still waiting), plus, where the socket shows it, bytes the kernel
 * took (those handed to the TCP handle less those still queued on it, below TLS for a TLS
 * socket): a large answer to a slow reader is then progress byte by byte, not only once whole.
 */
function sent(socket: Socket): number {
  const written = socket.bytesWritten - socket.writableLength
  const tcp = ((socket as { _parent?: Socket })._parent ?? socket) as { _handle?: { bytesWritten?: unknown; writeQueueSize?: unknown } }
  const handle = tcp._handle
  if (typeof handle?.bytesWritten !== 'number' || typeof handle.writeQueueSize !== 'number') return written
  return written + handle.bytesWritten - handle.writeQueueSize
}
