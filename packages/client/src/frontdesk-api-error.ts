import type { ErrorDetail } from './api-types.ts'

/**
 * An error response of the frontdesk API (`{"error": {"code", "message", "details"?}}`), or a
 * response that was not the JSON the API sends (then `code` is `INVALID_RESPONSE`).
 * Network failures are not API errors: they reject with the `fetch` implementation's own
 * error (a `TypeError` for Node's fetch) once retries are exhausted.
 */
export class FrontdeskApiError extends Error {
  /** HTTP status, e.g. 400, 401, 404, 429. */
  readonly status: number
  /** The API's error code, e.g. `VALIDATION_ERROR`, `NOT_FOUND`, `RATE_LIMITED`. */
  readonly code: string
  /** Every invalid field of a `VALIDATION_ERROR` (empty otherwise). */
  readonly details: ErrorDetail[]
  /** The response's `X-Request-Id` (quote it when reporting a problem), `null` when absent. */
  readonly requestId: string | null
  /** Seconds the server asked to wait (`Retry-After`), `null` when not given. */
  readonly retryAfter: number | null

  constructor(init: { status: number; code: string; message: string; details?: ErrorDetail[]; requestId?: string | null; retryAfter?: number | null; cause?: unknown }) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause })
    this.name = 'FrontdeskApiError'
    this.status = init.status
    this.code = init.code
    this.details = init.details ?? []
    this.requestId = init.requestId ?? null
    this.retryAfter = init.retryAfter ?? null
  }
}

/** Builds the error of a non-2xx response from its status, headers and body text. */
export function apiErrorOf(status: number, headers: Headers, text: string): FrontdeskApiError {
  const requestId = headers.get('x-request-id')
  const retryAfter = parseRetryAfter(headers.get('retry-after'))
  let parsed: unknown = null
  try {
    parsed = JSON.parse(text)
  } catch {
    // Not JSON: a proxy's page, say. Reported below without the body.
  }
  const error = typeof parsed === 'object' && parsed !== null ? (parsed as { error?: unknown }).error : undefined
  if (typeof error === 'object' && error !== null && typeof (error as { code?: unknown }).code === 'string') {
    const { code, message, details } = error as { code: string; message?: unknown; details?: unknown }
    return new FrontdeskApiError({
      status,
      code,
      message: typeof message === 'string' ? message : code,
      details: Array.isArray(details) ? details.filter(isDetail) : [],
      requestId,
      retryAfter,
    })
  }
  return new FrontdeskApiError({ status, code: 'INVALID_RESPONSE', message: `Unexpected response ${status} (not a frontdesk error body)`, requestId, retryAfter })
}

/** `Retry-After` in seconds: delta-seconds or an HTTP date; `null` when absent or unreadable. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | null {
  if (value === null || value.trim() === '') return null
  if (/^\d+$/.test(value.trim())) return Number(value.trim())
  const at = Date.parse(value)
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - now) / 1000))
}

function isDetail(value: unknown): value is ErrorDetail {
  return typeof value === 'object' && value !== null && typeof (value as ErrorDetail).field === 'string' && typeof (value as ErrorDetail).message === 'string'
}
