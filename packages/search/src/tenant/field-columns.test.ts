import type { FieldCondition, FieldOperators, FieldValue, SearchDocument } from '@frontdesk/core'
import { matchesNarrowing, searchComparator } from '@frontdesk/core'
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
        assert.is(test2.passes(number), wanted, `item ${number}`)
        if (wanted) expected.push(number)
      })
      // The filter compiled before the items were added judges them too (values new to it included).
      docs.forEach((item, number) => {
        if (item !== undefined) assert.is(test1.passes(number), matchesNarrowing(item, { categoryId: null, tags: null, filters }), `item ${number}, earlier filter`)
      })
    }),
  )
})

test('a column ranks values as core sorts them: by its first field the item holds, types apart, equal values equal, absent last', () => {
  fc.assert(
    fc.property(fc.array(fields, { maxLength: 30 }), fc.uniqueArray(fc.constantFrom('f1', 'f2', 'f3', '__proto__'), { minLength: 1, maxLength: 3 }), fc.constantFrom<'asc' | 'desc'>('asc', 'desc'), (values, fieldIds, direction) => {
      const docs = values.map((item, i) => doc(i, item))
      const column = new FieldColumns().column(fieldIds, docs)
      if (column === undefined) throw new Error('no column')
      const ranks = column.ranks()
      const sign = direction === 'asc' ? 1 : -1
      const key = (number: number) => {
        const code = column.codes[number] ?? -1
        return code < 0 ? Number.POSITIVE_INFINITY : sign * (ranks[code] ?? 0)
      }
      const byKey = docs.map((_, number) => number).sort((a, b) => key(a) - key(b) || sign * (a - b) || 0)
      const compare = searchComparator({ kind: 'field', fieldIds, direction })
      // Hint: ids `c0`…`c29` do not sort as numbers; give them a fixed width so that id order is number order.
      const padded = docs.map((item, number) => ({ doc: { ...item, id: `c${String(number).padStart(2, '0')}` }, score: 0 }))
      const byCore = padded.map((_, number) => number).sort((a, b) => compare(padded[a] ?? padded[0]!, padded[b] ?? padded[0]!))
      assert.equal(byKey.map((number) => (Number.isFinite(key(number)) ? key(number) : 'none')), byCore.map((number) => (Number.isFinite(key(number)) ? key(number) : 'none')))
      assert.equal(byKey, byCore)
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
  assert.is(columns.compile([filter('a')], docs)?.passes(0), true)
})

test.run()
