import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { RateLimiter } from './rate-limiter.ts'

function clockAt(start = 1_000_000) {
  const clock = { t: start, now: () => clock.t }
  return clock
}

test('a new bucket allows a burst of twice the rate, then refuses with Retry-After', () => {
  const clock = clockAt()
  const limiter = new RateLimiter(clock)
  for (let i = 0; i < 20; i++) assert.ok(limiter.take('k', 10).allowed, `request ${i}`)
  const refused = limiter.take('k', 10)
  assert.not.ok(refused.allowed)
  assert.is(refused.remaining, 0)
  assert.is(refused.retryAfter, 1)
  assert.is(refused.limit, 10)
})

test('tokens come back at the rate', () => {
  const clock = clockAt()
  const limiter = new RateLimiter(clock)
  for (let i = 0; i < 20; i++) limiter.take('k', 10)
  assert.not.ok(limiter.take('k', 10).allowed)
  clock.t += 100 // one token at 10/s
  assert.ok(limiter.take('k', 10).allowed)
  assert.not.ok(limiter.take('k', 10).allowed)
  clock.t += 60_000
  const full = limiter.take('k', 10)
  assert.is(full.remaining, 19)
  assert.is(full.reset, 1)
})

test('buckets are separate per name', () => {
  const limiter = new RateLimiter(clockAt())
  for (let i = 0; i < 2; i++) limiter.take('a', 1)
  assert.not.ok(limiter.take('a', 1).allowed)
  assert.ok(limiter.take('b', 1).allowed)
})

test('a rate of 0 is unlimited', () => {
  const limiter = new RateLimiter(clockAt())
  for (let i = 0; i < 1000; i++) assert.ok(limiter.take('k', 0).allowed)
  assert.ok(limiter.peek('k', 0))
})

test('peek does not take a token', () => {
  const limiter = new RateLimiter(clockAt())
  limiter.take('k', 1)
  assert.ok(limiter.peek('k', 1))
  assert.ok(limiter.peek('k', 1))
  limiter.take('k', 1)
  assert.not.ok(limiter.peek('k', 1))
})

test('the number of buckets stays bounded', () => {
  const clock = clockAt()
  const limiter = new RateLimiter(clock, { maxBuckets: 50 })
  for (let i = 0; i < 500; i++) {
    limiter.take(`k${i}`, 5)
    clock.t += 1
  }
  // The most recent bucket is still remembered (its token was taken).
  assert.is(limiter.take('k499', 5).remaining, 8)
})

test.run()
