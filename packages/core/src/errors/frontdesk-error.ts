import type { ErrorCode } from './error-code.ts'

/** One invalid input field: `field` names it as the caller sent it, `message` says why. */
export interface ErrorDetail {
  field: string
  message: string
}

/**
 * The base of every error frontdesk reports on purpose. It is data: a `code` of CONTRACT §2,
 * a safe `message`, optional `details`. The edges (HTTP, CLI) map it; nothing else does.
 */
export class FrontdeskError extends Error {
  readonly code: ErrorCode
  readonly details: ErrorDetail[] | undefined

  constructor(code: ErrorCode, message: string, options?: { details?: ErrorDetail[]; cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause })
    this.name = new.target.name
    this.code = code
    this.details = options?.details
  }
}

/** Invalid input: every invalid field is listed in `details` (400 `VALIDATION_ERROR`). */
export class ValidationError extends FrontdeskError {
  constructor(details: ErrorDetail[], options?: { cause?: unknown }) {
    super('VALIDATION_ERROR', 'Validation failed', { details, cause: options?.cause })
  }
}

/** A credential problem: missing, unknown, disabled, wrong kind, or a bad preview token. */
export class AuthError extends FrontdeskError {}

/** The key is valid but lacks the endpoint's permission (403 `FORBIDDEN`). */
export class ForbiddenError extends FrontdeskError {
  constructor() {
    super('FORBIDDEN', 'Insufficient permissions')
  }
}

/** The record does not exist, or is not visible to this request (404). */
export class NotFoundError extends FrontdeskError {
  constructor(what = 'Resource') {
    super('NOT_FOUND', `${what} not found`)
  }
}

/** A conflict over an `Idempotency-Key` (409 in progress, 422 reused). */
export class IdempotencyError extends FrontdeskError {}

/** Too many requests for this key or address; `retryAfter` is in whole seconds. */
export class RateLimitedError extends FrontdeskError {
  readonly retryAfter: number
  /** The key's bucket, for the `RateLimit-*` headers; absent for per-address limits. */
  readonly limit: { limit: number; remaining: number; reset: number } | undefined

  constructor(retryAfter: number, limit?: { limit: number; remaining: number; reset: number }) {
    super('RATE_LIMITED', 'Rate limit exceeded')
    this.retryAfter = retryAfter
    this.limit = limit
  }
}

/** Storage is busy or failing in a way a retry may cure (503). Adapters wrap driver errors in it. */
export class StorageUnavailableError extends FrontdeskError {
  constructor(message = 'Storage is temporarily unavailable', options?: { cause?: unknown }) {
    super('SERVICE_UNAVAILABLE', message, options)
  }
}

/** A rule of the domain refused an operation requested by an operator (CLI), e.g. an unknown tenant. */
export class UsageError extends FrontdeskError {
  constructor(message: string, options?: { details?: ErrorDetail[]; cause?: unknown }) {
    super('VALIDATION_ERROR', message, options)
  }
}
