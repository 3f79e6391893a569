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

test.run()
