import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { retryDelayMs, retryPolicyOf, sleep } from './retry-policy.ts'

const policy = retryPolicyOf({ retries: 3, baseDelayMs: 100, maxDelayMs: 1_000 })

test('Retry-After decides the wait when the server gives one', () => {
  assert.is(retryDelayMs(policy, 0, 1), 1_000)
  assert.is(retryDelayMs(policy, 2, 0), 0)
})

test('a Retry-After longer than maxDelayMs is not waited for', () => {
  assert.is(retryDelayMs(policy, 0, 2), null)
})

test('backoff doubles per retry with jitter between half and all of it, capped', () => {
  assert.is(retryDelayMs(policy, 0, null, () => 0), 50)
  assert.is(retryDelayMs(policy, 0, null, () => 1), 100)
  assert.is(retryDelayMs(policy, 2, null, () => 1), 400)
  assert.is(retryDelayMs(policy, 10, null, () => 1), 1_000)
})

test('defaults are 2 retries, 250 ms, 10 s; negative settings are refused', () => {
  assert.equal(retryPolicyOf(), { retries: 2, baseDelayMs: 250, maxDelayMs: 10_000 })
  assert.throws(() => retryPolicyOf({ retries: -1 }), /retry.retries/)
  assert.throws(() => retryPolicyOf({ maxDelayMs: Number.NaN }), /retry.maxDelayMs/)
})

test('sleep rejects with the abort reason as soon as the signal aborts', async () => {
  const controller = new AbortController()
  const started = Date.now()
  const waiting = sleep(10_000, controller.signal)
  controller.abort(new Error('stop'))
  await waiting.then(() => assert.unreachable('should reject'), (error: Error) => assert.is(error.message, 'stop'))
  assert.ok(Date.now() - started < 1_000)
  await sleep(1, AbortSignal.abort(new Error('already'))).then(() => assert.unreachable('should reject'), (error: Error) => assert.is(error.message, 'already'))
})

test.run()
