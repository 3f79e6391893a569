import fc from 'fast-check'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { fuzzOptions } from '../testing/fuzz-options.ts'
import { FrequencySketch, MAX_FREQUENCY } from './frequency-sketch.ts'

const { runs, seed } = fuzzOptions(300)

test(`an estimate is never below the true count, capped, and exact when keys share no counters (${runs} runs, seed ${seed})`, () => {
  fc.assert(
    fc.property(fc.array(fc.integer({ min: 0, max: 40 }), { maxLength: 400 }), fc.constantFrom(4, 64, 1 << 12), (keys, width) => {
      // Hint: a narrow sketch makes keys share counters, so that overestimates occur and the lower bound is what is tested.
      const sketch = new FrequencySketch(width, 1_000_000)
      const counts = new Map<number, number>()
      for (const key of keys) {
        const hash = Math.imul(key + 1, 0x9e3779b1)
        const exact = (counts.get(hash) ?? 0) + 1
        counts.set(hash, exact)
        const after = sketch.add(hash)
        assert.is(after, sketch.frequency(hash), 'add returns the estimate after it')
        assert.ok(after >= Math.min(exact, MAX_FREQUENCY), `key ${key}: ${after} < ${exact}`)
        assert.ok(after <= MAX_FREQUENCY)
      }
      for (const [hash, exact] of counts) assert.ok(sketch.frequency(hash) >= Math.min(exact, MAX_FREQUENCY))
      if (width === 1 << 12) {
        // 41 keys over four rows of 4,096 counters: a key overestimated needs all four of its counters shared.
        const over = [...counts].filter(([hash, exact]) => sketch.frequency(hash) !== Math.min(exact, MAX_FREQUENCY)).length
        assert.ok(over <= 1, `${over} keys overestimated`)
      }
    }),
    { numRuns: runs, seed },
  )
})

test('a key never seen is estimated at 0 by an empty sketch; counts stop at the cap', () => {
  const sketch = new FrequencySketch(1 << 10)
  assert.is(sketch.frequency(12345), 0)
  for (let i = 0; i < 40; i++) sketch.add(12345)
  assert.is(sketch.frequency(12345), MAX_FREQUENCY)
  assert.is(sketch.frequency(54321), 0)
})

test('every sample size of additions halves the counts: what was popular long ago fades', () => {
  const sketch = new FrequencySketch(1 << 10, 20)
  for (let i = 0; i < 12; i++) sketch.add(7)
  assert.is(sketch.frequency(7), 12)
  for (let i = 0; i < 8; i++) sketch.add(1_000 + i)
  // The 20th addition halved every counter.
  assert.is(sketch.frequency(7), 6)
  assert.is(sketch.frequency(1_000), 0, '1 halved is 0')
  // Half the sample counts as seen: ten more additions halve again.
  for (let i = 0; i < 9; i++) sketch.add(2_000 + i)
  assert.is(sketch.frequency(7), 6)
  sketch.add(3_000)
  assert.is(sketch.frequency(7), 3)
})

test('the width must be a power of two', () => {
  assert.throws(() => new FrequencySketch(1000), /power of two/)
})

test.run()
