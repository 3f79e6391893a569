import { STATUS_CODES } from 'node:http'
import type { Duplex } from 'node:stream'
import type { HttpResponse } from './http-types.ts'

/**
 * Writes `response` on a socket node:http no longer serves (a CONNECT, a request it refused
 * before routing): the status line, its headers, `Content-Length` and `Connection: close`,
 * then the body, and ends the socket's side.
 */
export function writeRawAnswer(socket: Duplex, response: HttpResponse): void {
  const head = [`HTTP/1.1 ${response.status} ${STATUS_CODES[response.status] ?? ''}`]
  const headers = { ...response.headers, 'content-length': String(response.body.length), connection: 'close' }
  for (const [name, value] of Object.entries(headers)) head.push(`${name}: ${value}`)
  socket.end(Buffer.concat([Buffer.from(`${head.join('\r\n')}\r\n\r\n`), response.body]))
}
