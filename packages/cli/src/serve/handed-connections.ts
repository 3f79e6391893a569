import type * as http from 'node:http'
import { Socket } from 'node:net'
import { isConnectionMessage } from './worker-messages.ts'

/** What a worker's server does with the connections its supervisor hands it. */
export interface HandedConnections {
  /** Stops taking connections, lets requests in flight finish (at most `drainMs`), then cuts the rest. */
  drain(drainMs: number): Promise<void>
}

/**
 * Serves on `server` (which does not listen) the connections the supervisor of
 * `serve --workers` accepts and hands over (see `superviseWorkers`). The server's
 * `maxConnections` holds for them as it would for its own: one more is reset at once.
 */
export function serveHandedConnections(server: http.Server): HandedConnections {
  const sockets = new Set<Socket>()
  let requests = 0
  let idle: (() => void) | null = null
  const onMessage = (message: unknown, socket: unknown) => {
    if (!isConnectionMessage(message) || !(socket instanceof Socket)) return
    if (server.maxConnections > 0 && sockets.size >= server.maxConnections) {
      socket.resetAndDestroy()
      return
    }
    sockets.add(socket)
    socket.once('close', () => sockets.delete(socket))
    server.emit('connection', socket)
  }
  server.on('request', (request: http.IncomingMessage, response: http.ServerResponse) => {
    requests++
    // Hint: a request pipelined behind a connection's last is never answered, so its response
    // never closes: the end of its connection ends it too.
    const socket = request.socket
    const done = () => {
      response.off('close', done)
      socket.off('close', done)
      requests--
      if (requests === 0) idle?.()
    }
    response.once('close', done)
    socket.once('close', done)
  })
  process.on('message', onMessage)
  return {
    drain(drainMs) {
      process.off('message', onMessage)
      server.closeIdleConnections()
      return new Promise((done) => {
        const finish = () => {
          clearTimeout(timer)
          idle = null
          server.closeAllConnections()
          for (const socket of sockets) socket.destroy()
          done()
        }
        const timer = setTimeout(finish, drainMs)
        timer.unref()
        if (requests === 0) finish()
        else idle = finish
      })
    },
  }
}
