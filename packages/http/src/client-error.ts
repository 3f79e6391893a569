import type { Duplex } from 'node:stream'
import { RequestRefusedError, ValidationError } from '@frontdesk/core'
import { answerHeaders, errorAnswer } from './answer.ts'
import { writeRawAnswer } from './raw-answer.ts'
import { requestIdOf } from './request-id.ts'

/** How long a connection answered after a client error may stay open for the client to read the answer (ms). */
export const CLIENT_ERROR_LINGER_MS = 2_000

/** What `answerClientError` needs to know of the connection. */
export interface ClientErrorConnection {
  /** Whether the connection is TLS (the answer then carries `Strict-Transport-Security`). */
  secure: boolean
  /** Whether the TLS handshake finished (always true for plain HTTP): only then can anything be answered. */
  established: boolean
}

/**
 * Answers a request `node:http` refused before it reached the handler (a `clientError`):
 * oversized headers get 431 `HEADERS_TOO_LARGE`, a timed-out request 408 `REQUEST_TIMEOUT`,
 * and malformed HTTP 400 `VALIDATION_ERROR`, each as JSON with the usual headers, and the
 * connection is closed (cut after `CLIENT_ERROR_LINGER_MS` if the client does not close it).
 * A connection whose TLS handshake never finished (a handshake timeout, a client gone in the
 * middle of it, a TLS alert) is destroyed at once: nothing can be said on it, and ending it
 * gracefully would wait on a handshake that never comes, leaving the socket open for ever.
 * Nothing is written when a response is already under way.
 */
export function answerClientError(error: Error & { code?: string }, socket: Duplex, connection: ClientErrorConnection): void {
  const inFlight = (socket as { _httpMessage?: { headersSent?: boolean } })._httpMessage
  if (!connection.established || error.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent === true) {
    socket.destroy()
    return
  }
  writeRawAnswer(socket, errorAnswer(refusalOf(error.code), answerHeaders(requestIdOf(undefined), connection.secure)))
  // Hint: the server allows half-open connections, so a client that never closes its side would keep this one.
  const timer = setTimeout(() => socket.destroy(), CLIENT_ERROR_LINGER_MS)
  timer.unref()
  socket.once('close', () => clearTimeout(timer))
}

/** What node:http's client error `code` means for the client (README "Errors"). */
function refusalOf(code: string | undefined): RequestRefusedError | ValidationError {
  if (code === 'HPE_HEADER_OVERFLOW') return new RequestRefusedError('HEADERS_TOO_LARGE', 'Request headers too large')
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return new RequestRefusedError('REQUEST_TIMEOUT', 'Request timed out')
  return new ValidationError([{ field: 'request', message: 'malformed HTTP request' }])
}
