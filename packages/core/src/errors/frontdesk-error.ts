import type { ErrorCode } from './error-code.ts'

/** One invalid input field: `field` names it as the caller sent it, `message` says why. */
export interface ErrorDetail {
  field: string
  message: string
}

/** Who made a refused request, once its key was recognised: for logs, never the key itself. */
export interface RecognisedCaller {
  /** The tenant's code. */
  tenant: string
  /** The key's id (`key_…`). */
  keyId: string
}

/**
 * The base of every error frontdesk reports on purpose. It is data: a `code` of CONTRACT §2,
 * a safe `message`, optional `details`, and the `caller` when the request's key was recognised
 * before it was refused (a disabled, throttled or under-privileged key). The edges (HTTP, CLI)
 * map it; nothing else does.
 */
export class FrontdeskError extends Error {
  readonly code: ErrorCode
  readonly details: ErrorDetail[] | undefined
  readonly caller: RecognisedCaller | undefined

  constructor(code: ErrorCode, message: string, options?: { details?: ErrorDetail[]; cause?: unknown; caller?: RecognisedCaller }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause })
    this.name = new.target.name
    this.code = code
    this.details = options?.details
    this.caller = options?.caller
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
  constructor(options?: { caller?: RecognisedCaller }) {
    super('FORBIDDEN', 'Insufficient permissions', options)
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
  /** The key's bucket, for the `RateLimit-*` headers (`window`: `RateLimit-Policy`); absent for per-address limits. */
  readonly limit: { limit: number; remaining: number; reset: number; window?: number } | undefined

  constructor(retryAfter: number, limit?: { limit: number; remaining: number; reset: number; window?: number }, options?: { caller?: RecognisedCaller }) {
    super('RATE_LIMITED', 'Rate limit exceeded', options)
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
