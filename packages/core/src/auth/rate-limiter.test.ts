import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { RateLimiter } from './rate-limiter.ts'

function clockAt(start = 1_000_000) {
  const clock = { t: start, now: () => clock.t }
  return clock
}

test('a new bucket allows a burst of twice the rate, then refuses until it is full again', async () => {
  const clock = clockAt()
  const limiter = new RateLimiter(clock)
  const first = await limiter.take('k', 10)
  assert.equal(first, { allowed: true, limit: 20, remaining: 19, reset: 1, window: 2, retryAfter: 0 })
  for (let i = 1; i < 20; i++) assert.ok((await limiter.take('k', 10)).allowed, `request ${i}`)
  const refused = await limiter.take('k', 10)
  assert.not.ok(refused.allowed)
  assert.is(refused.remaining, 0)
  assert.is(refused.limit, 20)
  assert.is(refused.reset, 2)
  assert.is(refused.retryAfter, refused.reset, 'Retry-After and RateLimit-Reset name the same moment')
})

test('the three header values always agree: remaining within the limit, reset 0 only when full', async () => {
  const clock = clockAt()
  const limiter = new RateLimiter(clock)
  for (let i = 0; i < 500; i++) {
    clock.t += (i * 7919) % 97
    const state = await limiter.take('k', 3)
    assert.ok(state.remaining >= 0 && state.remaining <= state.limit, JSON.stringify(state))
    assert.ok(state.reset >= 0 && state.reset <= state.window, JSON.stringify(state))
    assert.ok(state.remaining < state.limit || state.reset <= 1, JSON.stringify(state))
    if (!state.allowed) assert.is(state.retryAfter, state.reset)
  }
})

test('tokens come back at the rate', async () => {
  const clock = clockAt()
  const limiter = new RateLimiter(clock)
  for (let i = 0; i < 20; i++) await limiter.take('k', 10)
  assert.not.ok((await limiter.take('k', 10)).allowed)
  clock.t += 100 // one token at 10/s
  assert.ok((await limiter.take('k', 10)).allowed)
  assert.not.ok((await limiter.take('k', 10)).allowed)
  clock.t += 60_000
  const full = await limiter.take('k', 10)
  assert.is(full.remaining, 19)
  assert.is(full.reset, 1)
})

test('a refused request takes nothing: knocking while refused does not delay the way back in', async () => {
  const clock = clockAt()
  const limiter = new RateLimiter(clock)
  for (let i = 0; i < 2; i++) await limiter.take('k', 1)
  for (let i = 0; i < 100; i++) {
    clock.t += 5
    assert.not.ok((await limiter.take('k', 1)).allowed)
  }
  clock.t += 500 // 1 s since the bucket emptied: one token is back
  assert.ok((await limiter.take('k', 1)).allowed)
})

test('buckets are separate per name', async () => {
  const limiter = new RateLimiter(clockAt())
  for (let i = 0; i < 2; i++) await limiter.take('a', 1)
  assert.not.ok((await limiter.take('a', 1)).allowed)
  assert.ok((await limiter.take('b', 1)).allowed)
})

test('a rate of 0 is unlimited', async () => {
  const limiter = new RateLimiter(clockAt())
  for (let i = 0; i < 1000; i++) assert.ok((await limiter.take('k', 0)).allowed)
  assert.is((await limiter.take('k', 0)).limit, 0)
})

test('the number of buckets stays bounded', async () => {
  const clock = clockAt()
  const limiter = new RateLimiter(clock, { maxBuckets: 50 })
  for (let i = 0; i < 500; i++) {
    await limiter.take(`k${i}`, 5)
    clock.t += 1
  }
  // The most recent bucket is still remembered (its token was taken).
  assert.is((await limiter.take('k499', 5)).remaining, 8)
})

test.run()
