import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Socket } from 'node:net'

/** Requests of one connection served at once; the next ones wait their turn, in order. */
export const PIPELINE_CONCURRENCY = 4
/** Requests of one connection read ahead of their answers: at this many, reading the connection stops. */
export const MAX_REQUESTS_AHEAD = 16

/** What `pipelineRequests` returns: the request listener's way in. */
export interface RequestPipeline {
  /** Serves `request` (by calling `serve`) when its connection's turn comes, or never when it came after the connection's last. */
  admit(request: IncomingMessage, response: ServerResponse, serve: () => void): void
}

/** One connection's requests: those being served and those waiting. */
interface Line {
  /** Requests admitted so far. */
  count: number
  /** Whether the connection's last request has come: nothing after it is served. */
  closing: boolean
  /** Whether the last request has been read whole: the connection is not read again. */
  sealed: boolean
  serving: number
  waiting: (() => void)[]
  /** Whether reading the connection is stopped until its answers drain. */
  held: boolean
}

/**
 * Keeps what one connection can make the server hold small, however many requests it
 * pipelines and however slowly it reads: at most `PIPELINE_CONCURRENCY` of its requests are
 * served at once, each counting until its answer has been handed to the kernel, so that no
 * more than that many answers exist for it at a time; the others wait, in order, as parsed
 * requests. Once `MAX_REQUESTS_AHEAD` are served or waiting, the connection is not read any
 * further until they drain. A client that never reads its answers thus stops its own
 * connection, which the send timeout then closes (see `watchSends`).
 *
 * The `maxRequests`-th request of a connection (0 = no limit) is answered with
 * `Connection: close`, and the connection is closed once that answer is sent: requests
 * pipelined behind it are neither served nor answered, and the connection is not read further.
 */
export function pipelineRequests(maxRequests: number): RequestPipeline {
  const lines = new WeakMap<Socket, Line>()
  return {
    admit(request, response, serve) {
      const socket = request.socket
      let line = lines.get(socket)
      if (line === undefined) {
        const created: Line = { count: 0, closing: false, sealed: false, serving: 0, waiting: [], held: false }
        lines.set(socket, created)
        // Hint: answers of a closed connection are never sent; what waits is dropped with it.
        socket.once('close', () => void (created.waiting.length = 0))
        line = created
      }
      const own = line
      if (own.closing) return
      if (++own.count === maxRequests) {
        own.closing = true
        // Hint: node:http closes the connection once an answer saying so is sent (RFC 9112 §9.6).
        response.setHeader('connection', 'close')
        // Hint: nothing after this request is read, once its own body is (else it would wait for it).
        const seal = () => {
          own.sealed = true
          hold(socket, own)
        }
        if (request.complete) seal()
        else request.once('end', seal)
      }
      const start = () => {
        own.serving++
        response.once('close', () => {
          own.serving--
          next(socket, own)
        })
        serve()
      }
      if (own.serving < PIPELINE_CONCURRENCY && own.waiting.length === 0) start()
      else own.waiting.push(start)
      if (own.serving + own.waiting.length >= MAX_REQUESTS_AHEAD) hold(socket, own)
    },
  }
}

function next(socket: Socket, line: Line): void {
  if (socket.destroyed) return
  while (line.serving < PIPELINE_CONCURRENCY && line.waiting.length > 0) line.waiting.shift()?.()
  if (line.held && !line.sealed && line.serving + line.waiting.length < MAX_REQUESTS_AHEAD) release(socket, line)
}

/** The own `resume` of each socket ever held (see `hold`). */
const realResume = new WeakMap<Socket, () => Socket>()

/**
 * Stops reading `socket`. node:http pauses a connection too, but resumes it as soon as its own,
 * narrower, measure allows (its queued answers under 16 KiB, whatever is being prepared), and
 * on every answer sent: the hold must outlast those, so the socket's `resume` waits for `release`.
 */
function hold(socket: Socket, line: Line): void {
  if (line.held) return
  line.held = true
  if (!realResume.has(socket)) {
    const resume = socket.resume.bind(socket)
    realResume.set(socket, resume)
    socket.resume = () => (line.held ? socket : resume())
  }
  socket.pause()
}

function release(socket: Socket, line: Line): void {
  line.held = false
  // Hint: node:http's own pause (`_paused`) is lifted by node:http, which then resumes the
  // socket itself; resuming under it would feed its parser while it is paused.
  if ((socket as { _paused?: boolean })._paused !== true) realResume.get(socket)?.()
}
