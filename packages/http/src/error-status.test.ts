import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { AuthError, ForbiddenError, FrontdeskError, NotFoundError, RateLimitedError, StorageUnavailableError, ValidationError } from '@frontdesk/core'
import { errorResponse } from './error-response.ts'
import { ERROR_STATUS } from './error-status.ts'

const json = (body: Buffer) => JSON.parse(body.toString('utf8'))

test('every error code has the status CONTRACT §2 gives it', () => {
  assert.equal(ERROR_STATUS, {
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
  })
})

test('a validation error keeps every detail', () => {
  const response = errorResponse(new ValidationError([{ field: 'limit', message: 'too big' }, { field: 'sort', message: 'unknown' }]))
  assert.is(response.status, 400)
  assert.equal(json(response.body), {
    error: { code: 'VALIDATION_ERROR', message: 'Validation failed', details: [{ field: 'limit', message: 'too big' }, { field: 'sort', message: 'unknown' }] },
  })
})

test('errors without details have no details key', () => {
  assert.equal(json(errorResponse(new ForbiddenError()).body), { error: { code: 'FORBIDDEN', message: 'Insufficient permissions' } })
  assert.is(errorResponse(new AuthError('API_KEY_DISABLED', 'API key is disabled')).status, 401)
  assert.is(errorResponse(new NotFoundError('Content')).status, 404)
})

test('a rate-limited reply says when to retry, in whole seconds', () => {
  const response = errorResponse(new RateLimitedError(0.2))
  assert.is(response.status, 429)
  assert.is(response.headers['retry-after'], '1')
  assert.is(errorResponse(new RateLimitedError(3)).headers['retry-after'], '3')
})

test('storage trouble is a 503 with Retry-After', () => {
  const response = errorResponse(new StorageUnavailableError())
  assert.is(response.status, 503)
  assert.is(response.headers['retry-after'], '1')
  assert.is(response.unexpected, false)
})

test('anything unexpected is a bare 500 that reveals nothing', () => {
  const leaky = new Error('SQLITE_ERROR: no such table: contents at /srv/data/frontdesk.db')
  for (const error of [leaky, 'a string', null, new FrontdeskError('INTERNAL_ERROR', 'secret detail')]) {
    const response = errorResponse(error)
    assert.is(response.status, 500)
    assert.is(response.unexpected, true)
    assert.equal(json(response.body), { error: { code: 'INTERNAL_ERROR', message: 'Internal server error' } })
  }
})

test.run()
