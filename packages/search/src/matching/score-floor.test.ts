import fc from 'fast-check'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { ScoreFloor } from './score-floor.ts'

test('the floor is the k-th best score offered so far, −∞ before k were offered', () => {
  fc.assert(
    fc.property(fc.array(fc.integer({ min: 0, max: 20 }), { maxLength: 200 }), fc.integer({ min: 1, max: 25 }), (values, k) => {
      const floor = new ScoreFloor(k)
      let current = Number.NEGATIVE_INFINITY
      const seen: number[] = []
      for (const value of values) {
        if (value < current) continue
        current = floor.offer(value)
        seen.push(value)
        const best = [...seen].sort((a, b) => b - a)
        assert.is(current, best.length < k ? Number.NEGATIVE_INFINITY : best[k - 1])
      }
    }),
  )
})

test.run()
