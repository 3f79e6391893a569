import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { testRateLimitStore } from '../testing/rate-limits/test-rate-limit-store.ts'
import { ProcessRateLimits, refilled } from './process-rate-limits.ts'

testRateLimitStore('process memory', async () => ({ store: new ProcessRateLimits() }))

test('refilled: a bucket never seen is full; time going backwards refills nothing and keeps the later time', () => {
  const policy = { rate: 4, capacity: 8 }
  assert.equal(refilled(null, policy, 1_000), { tokens: 8, at: 1_000 })
  assert.equal(refilled({ tokens: 1, at: 1_000 }, policy, 1_500), { tokens: 3, at: 1_500 })
  assert.equal(refilled({ tokens: 1, at: 1_000 }, policy, 500), { tokens: 1, at: 1_000 })
  assert.equal(refilled({ tokens: 7, at: 1_000 }, policy, 9_000), { tokens: 8, at: 9_000 })
})

test('the number of buckets stays bounded: full ones go first, then the oldest', () => {
  const store = new ProcessRateLimits({ maxBuckets: 3 })
  const policy = { rate: 1, capacity: 2 }
  store.step('a', policy, 2, 0)
  store.step('b', policy, 1, 0)
  store.step('c', policy, 2, 0)
  // At 1.5 s `b` is full again (forgettable); `a` and `c` are not: a fourth name drops only `b`.
  store.step('d', policy, 1, 1_500)
  assert.is(store.step('a', policy, 0, 1_500).tokens, 1.5)
  assert.is(store.step('c', policy, 0, 1_500).tokens, 1.5)
  // All busy: the oldest goes (forgotten means full again).
  store.step('e', policy, 2, 1_500)
  assert.is(store.step('a', policy, 0, 1_500).tokens, 2)
})

test.run()
