import fc from 'fast-check'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { KeyedTop } from './keyed-top.ts'

test('keeps exactly the first k documents of a full sort by key then tie-break, in order, with their scores', () => {
  const key = fc.constantFrom(0, 1, 2, -1.5, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY)
  fc.assert(
    fc.property(fc.uniqueArray(fc.nat(50), { maxLength: 40 }), fc.array(key, { minLength: 40, maxLength: 40 }), fc.integer({ min: 0, max: 12 }), fc.constantFrom(1, -1), (docs, keys, k, sign) => {
      const keyOf = (doc: number) => keys[docs.indexOf(doc)] ?? 0
      const tie = (a: number, b: number) => sign * (a - b)
      const top = new KeyedTop(k, tie)
      for (const doc of docs) top.offer(doc, keyOf(doc), doc / 4)
      const expected = [...docs].sort((a, b) => (keyOf(a) === keyOf(b) ? tie(a, b) : keyOf(a) < keyOf(b) ? -1 : 1)).slice(0, k)
      assert.equal(top.sorted(), expected.map((doc) => ({ doc, score: doc / 4 })))
    }),
  )
})

test.run()
