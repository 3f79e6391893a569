import { test } from 'uvu'
import * as assert from 'uvu/assert'
import type { BucketPolicy, BucketStep, RateLimitStore } from '../port/rate-limit-store.ts'
import { ProcessRateLimits } from './process-rate-limits.ts'
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


/**
 * One bucket store as several processes share it (a database): the process store's buckets,
 * declared shared, counting its steps; `failing` makes every step reject, `delayMs` answer late.
 */
function sharedStore() {
  const buckets = new ProcessRateLimits()
  const store = {
    scope: 'machine' as const,
    steps: 0,
    failing: false,
    delayMs: 0,
    async take(name: string, policy: BucketPolicy, count: number, now: number): Promise<BucketStep> {
      store.steps++
      if (store.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, store.delayMs))
      if (store.failing) throw new Error('store down')
      return buckets.step(name, policy, count, now)
    },
    async giveBack(name: string, policy: BucketPolicy, count: number, now: number): Promise<BucketStep> {
      store.steps++
      if (store.failing) throw new Error('store down')
      return buckets.step(name, policy, -count, now)
    },
    close: () => Promise.resolve(),
  }
  return store satisfies RateLimitStore
}

test('two processes on one shared bucket get, together, what the bucket gives: its burst and its rate, within a lease each', async () => {
  const clock = clockAt()
  const store = sharedStore()
  const a = new RateLimiter(clock, { store })
  const b = new RateLimiter(clock, { store })
  let allowed = 0
  // Both hammer the key (100/s, burst 200) for 5 s of clock, 10 requests each per ms.
  for (let ms = 0; ms < 5_000; ms++) {
    clock.t += 1
    for (let i = 0; i < 10; i++) {
      if ((await (i % 2 === 0 ? a : b).take('key:k', 100)).allowed) allowed++
    }
  }
  const bound = 200 + 100 * 5
  const lease = 200 / 16
  assert.ok(allowed <= bound + 2 * lease && allowed >= bound - 2 * lease, `${allowed} allowed, bound ${bound}`)
  // Refused requests are decided here until the next token is due, not by a step each.
  assert.ok(store.steps < 1_500, `${store.steps} steps for 100,000 requests`)
  await a.close()
  await b.close()
})

test('requests arriving while a step is under way wait for it instead of each taking a step', async () => {
  const clock = clockAt()
  const store = sharedStore()
  store.delayMs = 5
  const limiter = new RateLimiter(clock, { store })
  const states = await Promise.all(Array.from({ length: 50 }, () => limiter.take('key:k', 1_000)))
  assert.ok(states.every((state) => state.allowed))
  assert.ok(store.steps <= 6, `${store.steps} steps for 50 requests at once`)
  for (const state of states) assert.ok(state.remaining <= state.limit && state.remaining >= 2_000 - 50 - 125, JSON.stringify(state))
  await limiter.close()
  // More requests waiting than one lease may hold (1/16 of a bucket of 200): steps follow one another until all are served.
  const small = new RateLimiter(clock, { store })
  const served = await Promise.all(Array.from({ length: 50 }, () => small.take('key:small', 100)))
  assert.is(served.filter((state) => state.allowed).length, 50)
  await small.close()
})

test('leased tokens left unused go back to the shared bucket; close gives back the rest', async () => {
  const clock = clockAt()
  const store = sharedStore()
  const a = new RateLimiter(clock, { store, leaseMs: 100 })
  // A burst makes the lease grow (200 requests within a ms), then `a` goes quiet holding some.
  for (let i = 0; i < 200; i++) await a.take('key:k', 1_000)
  const held = 2_000 - 200 - (await store.take('key:k', { rate: 1_000, capacity: 2_000 }, 0, clock.t)).tokens
  assert.ok(held >= 1, `${held} tokens held by the lease`)
  const policy = { rate: 1_000, capacity: 2_000 }
  const tokens = async () => (await store.take('key:k', policy, 0, clock.t)).tokens
  clock.t += 50
  let before = await tokens()
  await a.giveBackIdle()
  assert.is(await tokens(), before, 'not before leaseMs')
  clock.t += 60
  before = await tokens()
  await a.giveBackIdle()
  assert.is((await tokens()) - before, held, 'the lease given back')
  clock.t += 10_000
  await a.take('key:k', 1_000)
  await a.take('key:k', 1_000)
  await a.close()
  assert.is(await tokens(), 1_998, 'close gave it back')
})

test('a process that dies holding a lease costs the key at most that lease, for lease / rate seconds', async () => {
  const clock = clockAt()
  const store = sharedStore()
  const dying = new RateLimiter(clock, { store })
  const survivor = new RateLimiter(clock, { store })
  // The dying process empties the bucket (rate 160/s, burst 320, leases of up to 20) and keeps one lease.
  for (let i = 0; i < 400; i++) {
    if (i % 10 === 0) clock.t += 1
    await dying.take('key:k', 160)
  }
  assert.not.ok((await survivor.take('key:k', 160)).allowed)
  // It is gone (no close): what it held is lost, at most one lease (20 tokens), refilled in 20 / 160 s.
  clock.t += (21 * 1000) / 160
  assert.ok((await survivor.take('key:k', 160)).allowed, 'back within lease / rate')
  await survivor.close()
})

test('a failing shared store fails no request: the process limits alone, from the bucket as it last saw it, and asks again after a second', async () => {
  const clock = clockAt()
  const store = sharedStore()
  const errors: unknown[] = []
  const limiter = new RateLimiter(clock, { store, onStoreError: (error) => errors.push(error) })
  for (let i = 0; i < 18; i++) await limiter.take('key:k', 10)
  store.failing = true
  const states = []
  for (let i = 0; i < 5; i++) states.push(await limiter.take('key:k', 10))
  assert.is(errors.length, 1)
  // 2 left of the burst of 20 (no fresh burst), then refused.
  assert.equal(states.map((state) => state.allowed), [true, true, false, false, false])
  const steps = store.steps
  clock.t += 500
  assert.ok((await limiter.take('key:k', 10)).allowed, 'refilled locally')
  assert.is(store.steps, steps, 'not asked again within the second')
  store.failing = false
  clock.t += 600
  assert.ok((await limiter.take('key:k', 10)).allowed)
  assert.ok(store.steps > steps, 'asked again after the second')
  await limiter.close()
})

test('a shared store slower than stepTimeoutMs is not waited for: the request is decided here', async () => {
  const clock = clockAt()
  const store = sharedStore()
  store.delayMs = 2_000
  const limiter = new RateLimiter(clock, { store, stepTimeoutMs: 20 })
  const started = performance.now()
  const state = await limiter.take('key:k', 10)
  // Hint: far below the store's delay, far above the step's timeout: a loaded machine's pauses must not decide it.
  assert.ok(performance.now() - started < 1_000, `${performance.now() - started} ms`)
  assert.ok(state.allowed)
  assert.ok(state.remaining <= state.limit)
  await limiter.close()
})

test('with a shared store the three header values still agree, whatever the order of requests', async () => {
  const clock = clockAt()
  const store = sharedStore()
  const limiters = [new RateLimiter(clock, { store }), new RateLimiter(clock, { store }), new RateLimiter(clock, { store })]
  for (let i = 0; i < 2_000; i++) {
    clock.t += (i * 7919) % 13
    const state = await limiters[i % 3]!.take('key:k', 40)
    assert.ok(state.remaining >= 0 && state.remaining <= state.limit, JSON.stringify(state))
    assert.ok(state.reset >= 0 && state.reset <= state.window, JSON.stringify(state))
    if (!state.allowed) assert.is(state.retryAfter, state.reset)
  }
  for (const limiter of limiters) await limiter.close()
})

test.run()
