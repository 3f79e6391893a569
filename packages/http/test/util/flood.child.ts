/*
 * A keep-alive flood as `wrk -c<N>` makes it, in its own process:
 * `node --conditions=source --import tsx flood.child.ts '<json>'` with the JSON
 * `{ port, ca, key, connections, localAddress, durationMs, path }`. Every connection (TLS,
 * from `localAddress`) sends a request as soon as the previous answer is in, and is opened
 * again at once when the server closes it. Prints `READY` once the first connections are up
 * and, at the end, `DONE <json>` with the counts of answers by status and of connections made.
 */
import * as net from 'node:net'
import * as tls from 'node:tls'

interface FloodConfig {
  port: number
  ca: string
  /** The `X-API-Key` to send; `null` sends none. */
  key: string | null
  connections: number
  localAddress: string
  durationMs: number
  path: string
  /** Requests kept in flight on each connection (HTTP/1.1 pipelining). Default 1, as wrk. */
  depth?: number
}

const config = JSON.parse(process.argv[2] ?? '{}') as FloodConfig
const request = Buffer.from(`GET ${config.path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${config.key === null ? '' : `X-API-Key: ${config.key}\r\n`}\r\n`)
const statuses: Record<string, number> = {}
let connects = 0
let open = 0
let stopping = false
let ready = false

function connect(): void {
  if (stopping) return
  connects++
  const tcp = net.connect({ host: '127.0.0.1', port: config.port, localAddress: config.localAddress })
  tcp.on('error', () => {})
  const socket = tls.connect({ socket: tcp, ca: config.ca, servername: 'localhost' })
  let buffer: Buffer = Buffer.alloc(0)
  let counted = false
  socket.on('secureConnect', () => {
    open++
    counted = true
    if (!ready && open >= Math.min(50, config.connections)) {
      ready = true
      process.stdout.write('READY\n')
    }
    for (let i = 0; i < (config.depth ?? 1); i++) socket.write(request)
  })
  socket.on('data', (chunk: Buffer) => {
    buffer = buffer.length === 0 ? chunk : Buffer.concat([buffer, chunk])
    for (;;) {
      const end = buffer.indexOf('\r\n\r\n')
      if (end < 0) return
      const head = buffer.subarray(0, end).toString('latin1')
      const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0)
      if (buffer.length < end + 4 + length) return
      const status = head.slice(9, 12)
      statuses[status] = (statuses[status] ?? 0) + 1
      buffer = buffer.subarray(end + 4 + length)
      if (!stopping && !socket.destroyed) socket.write(request)
    }
  })
  socket.on('error', () => {})
  socket.on('close', () => {
    if (counted) open--
    // Hint: like wrk, a closed connection is opened again at once.
    setImmediate(connect)
  })
}

for (let i = 0; i < config.connections; i++) connect()
setTimeout(() => {
  stopping = true
  process.stdout.write(`DONE ${JSON.stringify({ statuses, connects, open })}\n`)
  process.exit(0)
}, config.durationMs)
process.stdin.on('end', () => process.exit(0))
process.stdin.resume()
