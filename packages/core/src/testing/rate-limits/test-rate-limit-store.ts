import * as assert from 'uvu/assert'
import type { BucketPolicy, RateLimitStore } from '../../port/rate-limit-store.ts'
import { caseSuite, registerUnless } from '../skip-case.ts'

/**
 * Opens a fresh rate-limit store for one test. `another` (optional) opens a second handle on
 * the same buckets, as another process would (the suite closes it); without it the cases of
 * two handles use the first one twice.
 */
export type OpenRateLimitStore = () => Promise<{ store: RateLimitStore; another?: () => Promise<RateLimitStore>; cleanup?: () => Promise<void> }>

interface World {
  store: RateLimitStore
  another(): Promise<RateLimitStore>
}

const T0 = 1_700_000_000_000
const TEN: BucketPolicy = { rate: 10, capacity: 20 }

/**
 * The `RateLimitStore` conformance suite (see the rules in `port/rate-limit-store.ts`): every
 * adapter's store runs it, against a real database, with a second handle when it has one.
 * With `options.unavailable` (why the database cannot be had), every case is skipped, saying so.
 *
 * ```ts
 * testRateLimitStore('sqlite', async () => ({ store: openRateLimits(file), another: async () => openRateLimits(file) }))
 * ```
 */
export function testRateLimitStore(name: string, open: OpenRateLimitStore, options: { unavailable?: string | null } = {}): void {
  registerUnless(options.unavailable, () => rateLimitCases(name, open))
}

function rateLimitCases(name: string, open: OpenRateLimitStore): void {
  let current: { store: RateLimitStore; another?: () => Promise<RateLimitStore>; cleanup?: () => Promise<void>; others: RateLimitStore[] } | null = null
  const world: World = {
    get store() {
      if (current === null) throw new Error('No store is open outside a test')
      return current.store
    },
    async another() {
      if (current === null) throw new Error('No store is open outside a test')
      if (current.another === undefined) return current.store
      const other = await current.another()
      current.others.push(other)
      return other
    },
  }
  const s = caseSuite<World>(`${name}: rate-limit store`, world)
  s.before.each(async () => {
    current = { ...(await open()), others: [] }
  })
  s.after.each(async () => {
    const opened = current
    current = null
    if (opened === null) return
    for (const other of opened.others) await other.close()
    await opened.store.close()
    await opened.cleanup?.()
  })

  s('a bucket never used is full: it gives up to its capacity, then what is left', async ({ store }) => {
    assert.equal(await store.take('key:a', TEN, 5, T0), { taken: 5, tokens: 15 })
    assert.equal(await store.take('key:a', TEN, 30, T0), { taken: 15, tokens: 0 })
    assert.equal(await store.take('key:a', TEN, 1, T0), { taken: 0, tokens: 0 })
    assert.equal(await store.take('key:b', TEN, 0, T0), { taken: 0, tokens: 20 })
  })

  s('tokens come back at the rate, fractions included, never past the capacity', async ({ store }) => {
    await store.take('k', TEN, 20, T0)
    const early = await store.take('k', TEN, 1, T0 + 50)
    assert.is(early.taken, 0)
    assert.ok(Math.abs(early.tokens - 0.5) < 1e-9, String(early.tokens))
    const later = await store.take('k', TEN, 3, T0 + 250)
    assert.is(later.taken, 2)
    assert.ok(Math.abs(later.tokens - 0.5) < 1e-9, String(later.tokens))
    assert.equal(await store.take('k', TEN, 0, T0 + 3_600_000), { taken: 0, tokens: 20 })
  })

  s('a step dated before the last one refills nothing and does not move the bucket back in time', async ({ store }) => {
    await store.take('k', TEN, 20, T0 + 1_000)
    assert.equal(await store.take('k', TEN, 1, T0), { taken: 0, tokens: 0 })
    // Had the earlier date been kept, 200 ms later than it would refill 2 tokens; it refills none.
    assert.equal(await store.take('k', TEN, 1, T0 + 200), { taken: 0, tokens: 0 })
    const after = await store.take('k', TEN, 5, T0 + 1_300)
    assert.is(after.taken, 3)
  })

  s('tokens given back return to the bucket, never past its capacity', async ({ store }) => {
    await store.take('k', TEN, 12, T0)
    assert.equal(await store.giveBack('k', TEN, 4, T0), { taken: 0, tokens: 12 })
    assert.equal(await store.giveBack('k', TEN, 100, T0), { taken: 0, tokens: 20 })
    assert.equal(await store.giveBack('fresh', TEN, 3, T0), { taken: 0, tokens: 20 })
  })

  s('buckets are separate per name, names of any text', async ({ store }) => {
    const names = ['key:key_1', 'key:key_2', 'address:2001:db8::1', 'address:203.0.113.7', `key:${'é'.repeat(300)}`, "address:'; DROP TABLE x; --"]
    for (const [i, bucket] of names.entries()) assert.is((await store.take(bucket, TEN, i + 1, T0)).taken, i + 1)
    for (const [i, bucket] of names.entries()) assert.is((await store.take(bucket, TEN, 0, T0)).tokens, 20 - (i + 1))
  })

  s("the policy of each call holds: a key whose limit shrank has at most its new capacity", async ({ store }) => {
    await store.take('k', { rate: 100, capacity: 200 }, 10, T0)
    assert.equal(await store.take('k', { rate: 5, capacity: 10 }, 4, T0), { taken: 4, tokens: 6 })
    assert.is((await store.take('k', { rate: 5, capacity: 10 }, 0, T0 + 400)).tokens, 8)
  })

  s('steps racing from two handles are atomic: together they take exactly what the bucket holds', async ({ store, another }) => {
    const other = await another()
    const policy = { rate: 1, capacity: 150 }
    const takes = Array.from({ length: 60 }, (_, i) => (i % 2 === 0 ? store : other).take('raced', policy, 3, T0))
    const gives = Array.from({ length: 10 }, (_, i) => (i % 2 === 0 ? other : store).giveBack('raced', policy, 0, T0))
    const steps = await Promise.all([...takes, ...gives])
    assert.is(steps.reduce((sum, step) => sum + step.taken, 0), 150)
    for (const step of steps) assert.ok(step.tokens >= 0 && step.tokens <= 150, JSON.stringify(step))
    assert.equal(await other.take('raced', policy, 1, T0), { taken: 0, tokens: 0 })
    // And what one handle gives back, the other can take.
    await store.giveBack('raced', policy, 7, T0)
    assert.equal(await other.take('raced', policy, 10, T0), { taken: 7, tokens: 0 })
  })

  s('many names at once, from two handles, each keeps its own count', async ({ store, another }) => {
    const other = await another()
    const names = Array.from({ length: 40 }, (_, i) => `address:10.0.0.${i}`)
    await Promise.all(names.flatMap((bucket) => [store.take(bucket, TEN, 2, T0), other.take(bucket, TEN, 3, T0)]))
    for (const bucket of names) assert.is((await store.take(bucket, TEN, 0, T0)).tokens, 15, bucket)
  })

  s.run()
}
