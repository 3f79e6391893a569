import fc from 'fast-check'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { TopHits } from './top-hits.ts'

const byValueThenName = (a: { v: number; n: string }, b: { v: number; n: string }) => b.v - a.v || (a.n < b.n ? -1 : a.n > b.n ? 1 : 0)

test('keeps exactly the first k items of a full sort, in order, whatever the input order', () => {
  fc.assert(
    fc.property(fc.array(fc.record({ v: fc.integer({ min: 0, max: 5 }), n: fc.string({ maxLength: 3 }) }).map((r) => ({ v: r.v, n: r.n }))), fc.integer({ min: 0, max: 12 }), (items, k) => {
      const top = new TopHits(k, byValueThenName)
      for (const item of items) top.push(item)
      assert.equal(top.sorted(), [...items].sort(byValueThenName).slice(0, k))
    }),
  )
})

test('the threshold is the worst kept item once k are kept, and undefined before', () => {
  const top = new TopHits(2, (a: number, b: number) => b - a)
  top.push(5)
  assert.is(top.threshold, undefined)
  top.push(9)
  assert.is(top.threshold, 5)
  top.push(7)
  assert.is(top.threshold, 7)
  assert.equal(top.sorted(), [9, 7])
})

test.run()
