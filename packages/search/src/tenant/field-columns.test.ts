import type { FieldCondition, FieldOperators, FieldValue, SearchDocument } from '@frontdesk/core'
import { matchesNarrowing } from '@frontdesk/core'
import fc from 'fast-check'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { FieldColumns, MAX_COLUMNS } from './field-columns.ts'

// Values of mixed types, as fields of one name in several categories may hold.
const value = fc.constantFrom<FieldValue>(0, 1, 5, 10, 29, 30, 'osaka', 'tokyo', '10', '2025-01-01', '2025-06-30', true, false)
const fields = fc.dictionary(fc.constantFrom('f1', 'f2', 'f3', '__proto__'), value, { maxKeys: 3 })
const operators = fc.record<FieldOperators>(
  { eq: value, gt: value, gte: value, lt: value, lte: value, in: fc.array(value, { minLength: 1, maxLength: 3 }) },
  { requiredKeys: [] },
)
const condition = fc.record({
  key: fc.constant('custom_x'),
  byFieldId: fc.dictionary(fc.constantFrom('f1', 'f2', 'f3', '__proto__'), operators, { minKeys: 1, maxKeys: 2 }).map((byId) => new Map(Object.entries(byId))),
})

function doc(id: number, values: Record<string, FieldValue>): SearchDocument {
  return { id: `c${id}`, category_id: 'cat', status: 'published', published_at: null, tags: [], fields: values }
}

test('a compiled filter accepts exactly the items core accepts, items added before and after the columns were made', () => {
  fc.assert(
    fc.property(fc.array(fields, { maxLength: 30 }), fc.array(fields, { maxLength: 10 }), fc.array(condition, { minLength: 1, maxLength: 2 }), (before, after, filters: FieldCondition[]) => {
      const columns = new FieldColumns()
      const docs: (SearchDocument | undefined)[] = before.map((values, i) => doc(i, values))
      docs[1] = undefined
      const test1 = columns.compile(filters, docs)
      if (test1 === undefined) throw new Error('no columns')
      for (const values of after) {
        const number = docs.length
        const added = doc(number, values)
        docs.push(added)
        columns.add(number, added, number + 1)
      }
      const test2 = columns.compile(filters, docs)
      if (test2 === undefined) throw new Error('no columns')
      const expected: number[] = []
      docs.forEach((item, number) => {
        if (item === undefined) return
        const wanted = matchesNarrowing(item, { categoryId: null, tags: null, filters })
        assert.is(test2.accepts(number), wanted, `item ${number}`)
        if (wanted) expected.push(number)
      })
      // keep: the passing ones, in order, with their scores.
      const numbers = Int32Array.from(docs.flatMap((item, number) => (item === undefined ? [] : [number])))
      const scores = Float64Array.from(numbers, (number) => number / 2)
      const kept = test2.keep(numbers, scores, numbers.length)
      assert.equal(Array.from(numbers.subarray(0, kept)), expected)
      assert.equal(Array.from(scores.subarray(0, kept)), expected.map((number) => number / 2))
    }),
  )
})

test(`at most ${MAX_COLUMNS} columns: a filter over more fields is left to the caller; clear drops them`, () => {
  const columns = new FieldColumns()
  const docs = [doc(0, { a: 1 })]
  const filter = (fieldId: string): FieldCondition => ({ key: `custom_${fieldId}`, byFieldId: new Map([[fieldId, { eq: 1 }]]) })
  for (let i = 0; i < MAX_COLUMNS; i++) assert.ok(columns.compile([filter(`f${i}`)], docs))
  assert.is(columns.compile([filter('a')], docs), undefined)
  columns.clear()
  assert.is(columns.compile([filter('a')], docs)?.accepts(0), true)
})

test.run()
