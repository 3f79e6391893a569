import type { ErrorCode } from '@frontdesk/core'

/**
 * The HTTP status of every error code (README "Errors"). The one place where codes become
 * statuses; `satisfies` makes a new code in core a type error here until it is mapped.
 */
export const ERROR_STATUS = {
  VALIDATION_ERROR: 400,
  UNAUTHORIZED: 401,
  API_KEY_DISABLED: 401,
  PREVIEW_TOKEN_INVALID: 401,
  PREVIEW_TOKEN_EXPIRED: 401,
  CREDENTIAL_NOT_ALLOWED: 403,
  FORBIDDEN: 403,
  HTTPS_REQUIRED: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  REQUEST_TIMEOUT: 408,
  IDEMPOTENCY_IN_PROGRESS: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  IDEMPOTENCY_KEY_REUSED: 422,
  RATE_LIMITED: 429,
  HEADERS_TOO_LARGE: 431,
  INTERNAL_ERROR: 500,
  SERVICE_UNAVAILABLE: 503,
} as const satisfies Record<ErrorCode, number>
