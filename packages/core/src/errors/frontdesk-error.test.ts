import { test } from 'uvu'
import * as assert from 'uvu/assert'
import {
  AuthError, ForbiddenError, FrontdeskError, IdempotencyError, NotFoundError, RateLimitedError, RequestRefusedError,
  StorageUnavailableError, UsageError, ValidationError,
} from './frontdesk-error.ts'

const FRAME = /\n\s+at /

test('refusals of a client’s request carry no stack trace (they are answers, and a stack costs more than the rest)', () => {
  const refusals = [
    new AuthError('UNAUTHORIZED', 'API key required'),
    new ForbiddenError(),
    new NotFoundError(),
    new ValidationError([{ field: 'x', message: 'bad' }]),
    new RateLimitedError(2),
    new IdempotencyError('IDEMPOTENCY_IN_PROGRESS', 'In progress'),
    new RequestRefusedError('METHOD_NOT_ALLOWED', 'Method not allowed'),
  ]
  for (const error of refusals) {
    assert.not.match(String(error.stack), FRAME, error.name)
    assert.match(String(error.stack), new RegExp(`^${error.name}: `))
  }
})

test('faults keep their stack trace, and the global limit is left as it was', () => {
  const limit = Error.stackTraceLimit
  for (const error of [new FrontdeskError('INTERNAL_ERROR', 'boom'), new StorageUnavailableError(), new UsageError('no such tenant')]) {
    assert.match(String(error.stack), FRAME, error.name)
  }
  new AuthError('UNAUTHORIZED', 'x')
  assert.is(Error.stackTraceLimit, limit)
  assert.match(String(new Error('plain').stack), FRAME)
})

test('the caller of a refused request is kept as data', () => {
  const caller = { tenant: 'acme', keyId: 'key_1' }
  assert.equal(new RateLimitedError(2, undefined, { caller }).caller, caller)
  assert.equal(new ForbiddenError({ caller }).caller, caller)
  assert.is(new ForbiddenError().caller, undefined)
})

test.run()
