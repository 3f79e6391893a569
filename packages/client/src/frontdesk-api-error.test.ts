import fc from 'fast-check'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { apiErrorOf, FrontdeskApiError, parseRetryAfter } from './frontdesk-api-error.ts'

test('an API error body gives code, message, details, request id and Retry-After', () => {
  const headers = new Headers({ 'x-request-id': 'req-1', 'retry-after': '3' })
  const body = JSON.stringify({ error: { code: 'VALIDATION_ERROR', message: 'Validation failed', details: [{ field: 'limit', message: 'too big' }, { nope: 1 }] } })
  const error = apiErrorOf(400, headers, body)
  assert.instance(error, FrontdeskApiError)
  assert.instance(error, Error)
  assert.is(error.status, 400)
  assert.is(error.code, 'VALIDATION_ERROR')
  assert.is(error.message, 'Validation failed')
  assert.equal(error.details, [{ field: 'limit', message: 'too big' }])
  assert.is(error.requestId, 'req-1')
  assert.is(error.retryAfter, 3)
})

test('a body that is not a frontdesk error (a proxy page) is INVALID_RESPONSE with the status kept', () => {
  const error = apiErrorOf(502, new Headers(), '<html>Bad gateway</html>')
  assert.is(error.code, 'INVALID_RESPONSE')
  assert.is(error.status, 502)
  assert.not.match(error.message, /html/)
})

test('Retry-After reads delta-seconds and HTTP dates; garbage is null', () => {
  const now = Date.parse('2025-06-20T12:00:00Z')
  assert.is(parseRetryAfter('7', now), 7)
  assert.is(parseRetryAfter('Fri, 20 Jun 2025 12:00:05 GMT', now), 5)
  assert.is(parseRetryAfter('Fri, 20 Jun 2025 11:00:00 GMT', now), 0)
  assert.is(parseRetryAfter('soon', now), null)
  assert.is(parseRetryAfter(null, now), null)
})

test('any status and body text give an error, never a throw (property)', () => {
  fc.assert(
    fc.property(fc.integer({ min: 100, max: 599 }), fc.oneof(fc.string(), fc.json()), fc.option(fc.string(), { nil: null }), (status, text, retryAfter) => {
      const headers = new Headers()
      if (retryAfter !== null && /^[\x20-\x7e]*$/.test(retryAfter)) headers.set('retry-after', retryAfter)
      const error = apiErrorOf(status, headers, text)
      assert.is(error.status, status)
      assert.type(error.code, 'string')
      assert.ok(Array.isArray(error.details))
      assert.ok(error.retryAfter === null || error.retryAfter >= 0)
    }),
  )
})

test.run()
