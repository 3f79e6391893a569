import fc from 'fast-check'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import type { Clock } from '../app/clock.ts'
import { ResponseCache } from './response-cache.ts'

function clockAt(start = 0): Clock & { now: () => number; advance(ms: number): void } {
  let now = start
  return { now: () => now, advance: (ms: number) => void (now += ms) }
}

test('an entry is served until its TTL, then gone', () => {
  const clock = clockAt()
  const cache = new ResponseCache<string>(clock, { ttlMs: 1_000 })
  cache.set('a', 'A')
  assert.is(cache.get('a'), 'A')
  clock.advance(1_000)
  assert.is(cache.get('a'), null)
  assert.is(cache.size, 0)
})

test('the least recently used entry goes first past maxEntries', () => {
  const cache = new ResponseCache<string>(clockAt(), { maxEntries: 2 })
  cache.set('a', 'A')
  cache.set('b', 'B')
  cache.get('a')
  cache.set('c', 'C')
  assert.is(cache.get('b'), null)
  assert.is(cache.get('a'), 'A')
  assert.is(cache.get('c'), 'C')
})

test('the cache holds at most maxBytes of entries, dropping the least recently used', () => {
  const cache = new ResponseCache<string>(clockAt(), { maxBytes: 1_000 })
  for (let i = 0; i < 10; i++) cache.set(`k${i}`, 'x', undefined, 300)
  assert.is(cache.size, 3)
  assert.ok(cache.bytes <= 1_000)
  assert.is(cache.get('k9'), 'x')
  assert.is(cache.get('k0'), null)
  // An entry bigger than the whole budget is not kept at all (and evicts nothing).
  cache.set('huge', 'x', undefined, 5_000)
  assert.is(cache.get('huge'), null)
  assert.is(cache.size, 3)
  // Replacing an entry counts its new size only.
  cache.set('k9', 'y', undefined, 100)
  assert.is(cache.bytes, 700)
})

test('expired entries at the old end are dropped on the next set, not kept until touched', () => {
  const clock = clockAt()
  const cache = new ResponseCache<string>(clock, { ttlMs: 1_000 })
  for (let i = 0; i < 100; i++) cache.set(`old${i}`, 'x', undefined, 10)
  clock.advance(1_001)
  cache.set('new', 'y', undefined, 10)
  assert.is(cache.size, 1)
  assert.is(cache.bytes, 10)
})

test('any sequence of gets, sets and clock steps behaves as a plain LRU list with TTLs and budgets', () => {
  type Op = { kind: 'set'; key: number; size: number; ttl: number | null } | { kind: 'get'; key: number } | { kind: 'tick'; ms: number }
  const op: fc.Arbitrary<Op> = fc.oneof(
    fc.record({ kind: fc.constant('set' as const), key: fc.nat(7), size: fc.nat(400), ttl: fc.option(fc.nat(1_500)) }),
    fc.record({ kind: fc.constant('get' as const), key: fc.nat(7) }),
    fc.record({ kind: fc.constant('tick' as const), ms: fc.nat(600) }),
  )
  fc.assert(
    fc.property(fc.array(op, { maxLength: 60 }), (ops) => {
      const clock = clockAt()
      const cache = new ResponseCache<string>(clock, { ttlMs: 1_000, maxEntries: 4, maxBytes: 1_000 })
      // The model: oldest first.
      let model: { key: string; value: string; expiresAt: number; size: number }[] = []
      let serial = 0
      for (const o of ops) {
        if (o.kind === 'tick') {
          clock.advance(o.ms)
        } else if (o.kind === 'get') {
          const key = `k${o.key}`
          const at = model.findIndex((e) => e.key === key)
          const entry = model[at]
          let expected: string | null = null
          if (entry !== undefined && entry.expiresAt <= clock.now()) model.splice(at, 1)
          else if (entry !== undefined) {
            model.splice(at, 1)
            model.push(entry)
            expected = entry.value
          }
          assert.is(cache.get(key), expected)
        } else {
          const key = `k${o.key}`
          const value = `v${serial++}`
          const now = clock.now()
          const expiresAt = o.ttl === null ? undefined : now + o.ttl
          cache.set(key, value, expiresAt, o.size)
          model = model.filter((e) => e.key !== key)
          if (o.size <= 1_000) {
            model.push({ key, value, expiresAt: Math.min(now + 1_000, expiresAt ?? Infinity), size: o.size })
            for (;;) {
              const oldest = model[0]
              const bytes = model.reduce((n, e) => n + e.size, 0)
              if (oldest === undefined || (model.length <= 4 && bytes <= 1_000 && oldest.expiresAt > now)) break
              model.shift()
            }
          }
        }
        assert.is(cache.size, model.length)
        assert.is(cache.bytes, model.reduce((n, e) => n + e.size, 0))
      }
    }),
    { numRuns: 500 },
  )
})

test.run()
