import type { ErrorCode, ErrorDetail } from '@frontdesk/core'
import { FrontdeskError, IdempotencyError, RateLimitedError } from '@frontdesk/core'
import { ERROR_STATUS } from './error-status.ts'

/** An error about to be sent: status, extra headers and the JSON body bytes. */
export interface ErrorResponse {
  status: number
  headers: Record<string, string>
  body: Buffer
  /** Whether the error was unexpected (a 500): the edge logs it, the client learns nothing. */
  unexpected: boolean
}

/** Seconds a client is asked to wait after a 503 before retrying. */
const UNAVAILABLE_RETRY_AFTER_S = 1

/**
 * Maps anything thrown while serving a request to its response (README "Errors"). A
 * `FrontdeskError` keeps its code, message and details; anything else becomes a bare 500
 * `INTERNAL_ERROR` that reveals no message, stack, SQL or path.
 */
export function errorResponse(error: unknown): ErrorResponse {
  if (!(error instanceof FrontdeskError) || error.code === 'INTERNAL_ERROR') {
    return { ...errorBody('INTERNAL_ERROR', 'Internal server error'), unexpected: true }
  }
  const response = { ...errorBody(error.code, error.message, error.details), unexpected: false }
  if (error instanceof RateLimitedError) response.headers['retry-after'] = String(Math.max(1, Math.ceil(error.retryAfter)))
  if (error.code === 'SERVICE_UNAVAILABLE') response.headers['retry-after'] = String(UNAVAILABLE_RETRY_AFTER_S)
  if (error instanceof IdempotencyError && error.retryAfter !== undefined) response.headers['retry-after'] = String(error.retryAfter)
  return response
}

/** The status and body of an error with this code, message and details. */
export function errorBody(code: ErrorCode, message: string, details?: ErrorDetail[]): Omit<ErrorResponse, 'unexpected'> {
  const error = details === undefined ? { code, message } : { code, message, details }
  return { status: ERROR_STATUS[code], headers: {}, body: Buffer.from(JSON.stringify({ error })) }
}
