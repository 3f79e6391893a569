import { randomUUID } from 'node:crypto'
import type { Duplex } from 'node:stream'
import { errorBody } from './error-response.ts'

const REASONS: Record<number, string> = { 400: 'Bad Request', 408: 'Request Timeout', 431: 'Request Header Fields Too Large' }

/**
 * Answers a request `node:http` refused before it reached the handler (a `clientError`):
 * oversized headers get 431 `HEADERS_TOO_LARGE`, a timed-out request 408 `REQUEST_TIMEOUT`,
 * and malformed HTTP 400 `VALIDATION_ERROR`, each as JSON with the usual headers, and the
 * connection is closed. Nothing is written when a response is already under way.
 */
export function answerClientError(error: Error & { code?: string }, socket: Duplex, secure: boolean): void {
  const inFlight = (socket as { _httpMessage?: { headersSent?: boolean } })._httpMessage
  if (error.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent === true) {
    socket.destroy()
    return
  }
  const { status, body } = responseFor(error.code)
  const head = [
    `HTTP/1.1 ${status} ${REASONS[status] ?? 'Error'}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${body.length}`,
    `X-Request-Id: ${randomUUID()}`,
    'X-Content-Type-Options: nosniff',
    'Cache-Control: no-store',
    ...(secure ? ['Strict-Transport-Security: max-age=31536000'] : []),
    'Connection: close',
  ]
  socket.end(Buffer.concat([Buffer.from(`${head.join('\r\n')}\r\n\r\n`), body]))
}

function responseFor(code: string | undefined): { status: number; body: Buffer } {
  if (code === 'HPE_HEADER_OVERFLOW') return errorBody('HEADERS_TOO_LARGE', 'Request headers too large')
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    return { status: 408, body: Buffer.from(JSON.stringify({ error: { code: 'REQUEST_TIMEOUT', message: 'Request timed out' } })) }
  }
  return errorBody('VALIDATION_ERROR', 'Validation failed', [{ field: 'request', message: 'malformed HTTP request' }])
}
