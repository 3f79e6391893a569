import type * as v from 'valibot'
import type { ErrorDetailSchema } from '../response/response-bodies.ts'
import type { ErrorCode } from './error-code.ts'

/** One invalid input field: `field` names it as the caller sent it, `message` says why (`ErrorDetailSchema`). */
export type ErrorDetail = v.InferOutput<typeof ErrorDetailSchema>

/** Who made a refused request, once its key was recognised: for logs, never the key itself. */
export interface RecognisedCaller {
  /** The tenant's code. */
  tenant: string
  /** The key's id (`key_…`). */
  keyId: string
}

/**
 * The base of every error frontdesk reports on purpose. It is data: a `code` of README "Errors",
 * a safe `message`, optional `details`, and the `caller` when the request's key was recognised
 * before it was refused (a disabled, throttled or under-privileged key). The edges (HTTP, CLI)
 * map it; nothing else does.
 */
export class FrontdeskError extends Error {
  /**
   * Whether errors of this class record a stack trace. The refusals of a client's request
   * (401, 403, 404, 400, 429…) do not: they are expected answers, not faults, and capturing a
   * stack costs more than the rest of the refusal.
   */
  static readonly tracesStack: boolean = true

  readonly code: ErrorCode
  readonly details: ErrorDetail[] | undefined
  readonly caller: RecognisedCaller | undefined

  constructor(code: ErrorCode, message: string, options?: { details?: ErrorDetail[]; cause?: unknown; caller?: RecognisedCaller }) {
    const stackTraceLimit = Error.stackTraceLimit
    if (!new.target.tracesStack) Error.stackTraceLimit = 0
    super(message, options?.cause === undefined ? undefined : { cause: options.cause })
    Error.stackTraceLimit = stackTraceLimit
    this.name = new.target.name
    this.code = code
    this.details = options?.details
    this.caller = options?.caller
  }
}

/** Invalid input: every invalid field is listed in `details` (400 `VALIDATION_ERROR`). */
export class ValidationError extends FrontdeskError {
  static override readonly tracesStack = false

  constructor(details: ErrorDetail[], options?: { cause?: unknown }) {
    super('VALIDATION_ERROR', 'Validation failed', { details, cause: options?.cause })
  }
}

/** A credential problem: missing, unknown, disabled, wrong kind, or a bad preview token. */
export class AuthError extends FrontdeskError {
  static override readonly tracesStack = false
}

/**
 * The key is valid but lacks the endpoint's permission (403 `FORBIDDEN`). Given `required`
 * (and the key's `granted` permissions), the message names what the endpoint needs and what
 * the key has, so its holder knows which key to use or create.
 */
export class ForbiddenError extends FrontdeskError {
  static override readonly tracesStack = false

  constructor(options?: { caller?: RecognisedCaller; required?: string; granted?: readonly string[] }) {
    const required = options?.required
    const needs = required === undefined ? '' : `: this endpoint needs ${required}${required.startsWith('cms:') ? ' (or cms:*)' : ''}`
    const has = options?.granted === undefined ? '' : `; this key has ${options.granted.length === 0 ? 'no permission' : options.granted.join(', ')}`
    super('FORBIDDEN', `Insufficient permissions${needs}${has}`, options?.caller === undefined ? undefined : { caller: options.caller })
  }
}

/** The record does not exist, or is not visible to this request (404). */
export class NotFoundError extends FrontdeskError {
  static override readonly tracesStack = false

  /** `hint`, when given, follows the message: what the caller probably meant. */
  constructor(what = 'Resource', hint?: string) {
    super('NOT_FOUND', `${what} not found${hint === undefined ? '' : `: ${hint}`}`)
  }
}

/** A conflict over an `Idempotency-Key` (409 in progress, 422 reused). */
export class IdempotencyError extends FrontdeskError {
  static override readonly tracesStack = false

  /** For 409: whole seconds until the holding request's lease runs out (`Retry-After`), when known. */
  readonly retryAfter: number | undefined

  constructor(code: ErrorCode, message: string, options?: { retryAfter?: number }) {
    super(code, message)
    this.retryAfter = options?.retryAfter
  }
}

/** Too many requests for this key or address; `retryAfter` is in whole seconds. */
export class RateLimitedError extends FrontdeskError {
  static override readonly tracesStack = false

  readonly retryAfter: number
  /** The key's bucket, for the `RateLimit-*` headers (`window`: `RateLimit-Policy`); absent for per-address limits. */
  readonly limit: { limit: number; remaining: number; reset: number; window?: number } | undefined

  constructor(retryAfter: number, limit?: { limit: number; remaining: number; reset: number; window?: number }, options?: { caller?: RecognisedCaller }) {
    super('RATE_LIMITED', 'Rate limit exceeded', options)
    this.retryAfter = retryAfter
    this.limit = limit
  }
}

/**
 * The request cannot be served as sent: no such route, a wrong method, plain HTTP, a body of
 * the wrong type or size. An expected answer to the client, like the other refusals (no stack).
 */
export class RequestRefusedError extends FrontdeskError {
  static override readonly tracesStack = false
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
