import fc from 'fast-check'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import type { FieldValue } from '../model/category.ts'
import type { FieldOperators, SearchDocument, SearchQuery } from '../port/search.ts'
import { parseQuery, parseQueryTerms } from './query-terms.ts'
import { matchesSearch } from './search-match.ts'
import { searchComparator } from './search-order.ts'
import { searchQueryKey } from './search-query-key.ts'

const NOW = '2030-01-01T00:00:00.000Z'
const value: fc.Arbitrary<FieldValue> = fc.oneof(fc.integer({ min: 0, max: 5 }), fc.constantFrom('0', '1', 'a', 'b'), fc.boolean())
// One operator, a range, or any mix (a mix of many seldom matches anything, which tells nothing apart).
const operators: fc.Arbitrary<FieldOperators> = fc.oneof(
  value.map((eq) => ({ eq })),
  fc.array(value, { minLength: 1, maxLength: 3 }).map((values) => ({ in: values })),
  fc.record({ gte: value, lt: value }, { requiredKeys: [] }),
  fc.record({ gt: value, lte: value }, { requiredKeys: [] }),
  fc.record({ eq: value, gt: value, gte: value, lt: value, lte: value, in: fc.array(value, { minLength: 1, maxLength: 3 }) }, { requiredKeys: [] }),
)
const query: fc.Arbitrary<SearchQuery> = fc.record({
  terms: fc.constantFrom('office', 'event', 'office event', '東京').map(parseQueryTerms),
  now: fc.constant(NOW),
  categoryId: fc.constantFrom(null, 'c1', 'c2'),
  tags: fc.option(fc.uniqueArray(fc.constantFrom('a', 'b', 'c'), { minLength: 1 }), { nil: null }),
  filters: fc.uniqueArray(
    fc.record({ key: fc.constantFrom('custom_x', 'custom_y'), fields: fc.uniqueArray(fc.tuple(fc.constantFrom('f1', 'f2'), operators), { selector: ([id]) => id, maxLength: 2 }) }),
    { selector: (c) => c.key, maxLength: 2 },
  ).map((list) => list.map(({ key, fields }) => ({ key, byFieldId: new Map(fields) }))),
  sort: fc.oneof(
    fc.constant({ kind: 'relevance' as const }),
    fc.record({ kind: fc.constant('published_at' as const), direction: fc.constantFrom('asc' as const, 'desc' as const) }),
    fc.record({ kind: fc.constant('field' as const), fieldIds: fc.constantFrom(['f1'], ['f2'], ['f1', 'f2']), direction: fc.constantFrom('asc' as const, 'desc' as const) }),
  ),
  from: fc.integer({ min: 0, max: 3 }),
  size: fc.integer({ min: 1, max: 4 }),
})
const doc: fc.Arbitrary<SearchDocument> = fc.record({
  id: fc.constantFrom('d1', 'd2', 'd3', 'd4', 'd5', 'd6'),
  category_id: fc.constantFrom('c1', 'c2'),
  status: fc.constantFrom('published' as const, 'draft' as const),
  published_at: fc.constantFrom('2020-01-01T00:00:00.000Z', '2040-01-01T00:00:00.000Z'),
  tags: fc.subarray(['a', 'b', 'c']),
  fields: fc.record({ f1: value, f2: value }, { requiredKeys: [] }),
})

/** The page a brute-force engine gives (every doc matches the terms, score by id): what a memo must reproduce. */
function answer(docs: SearchDocument[], q: SearchQuery): string[] {
  const unique = [...new Map(docs.map((d) => [d.id, d])).values()]
  const scored = unique.filter((d) => matchesSearch(d, true, q)).map((d) => ({ doc: d, score: d.id.charCodeAt(1) % 3 }))
  return scored.sort(searchComparator(q.sort)).slice(q.from, q.from + q.size).map((s) => s.doc.id)
}

test('a phrase is in the key: quoted words are another question than the same words', () => {
  const base: SearchQuery = { terms: [], now: NOW, categoryId: null, tags: null, filters: [], sort: { kind: 'relevance' }, from: 0, size: 10 }
  const keyOf = (text: string): string => searchQueryKey({ ...base, ...parseQuery(text) })
  assert.is.not(keyOf('"office event"'), keyOf('office event'))
  assert.is.not(keyOf('"office event"'), keyOf('"event office"'))
  assert.is.not(keyOf('"東京タワー"'), keyOf('"東京 タワー"'))
  assert.is(keyOf('"office event"'), keyOf('"Office  EVENT"'))
})

test('two searches with one key get the same answer from any set of items', () => {
  fc.assert(
    // b takes each field from a or from another query, so that pairs differing in one field are common.
    // Mostly b keeps a's filters with other values: the shape of a filter alone must not make its key.
    fc.property(query, query, fc.array(fc.integer({ min: 0, max: 7 }).map((n) => n === 0), { minLength: 8, maxLength: 8 }), fc.array(value, { minLength: 40, maxLength: 40 }), fc.array(doc, { maxLength: 8 }), (a, other, mix, values, docs) => {
      const fields = ['terms', 'categoryId', 'tags', 'filters', 'sort', 'from', 'size'] as const
      const b: SearchQuery = { ...a }
      fields.forEach((field, i) => {
        if (mix[i]) Object.assign(b, { [field]: other[field] })
      })
      if (!mix[7]) {
        let next = 0
        const draw = (): FieldValue => values[next++ % values.length] as FieldValue
        b.filters = a.filters.map((c) => ({
          key: c.key,
          byFieldId: new Map([...c.byFieldId].map(([id, ops]) => [id, Object.fromEntries(Object.entries(ops).map(([op, v]) => [op, Array.isArray(v) ? v.map(draw) : draw()]))])),
        }))
      }
      if (searchQueryKey(a) === searchQueryKey(b)) assert.equal(answer(docs, a), answer(docs, b))
    }),
    { seed: 16, numRuns: 3000 },
  )
})

test('a search whose answer differs on some set of items gets another key', () => {
  // For every pair of random queries, some small corpus tells them apart, or they must share a key.
  const corpora = fc.sample(fc.array(doc, { maxLength: 8 }), { seed: 7, numRuns: 400 })
  fc.assert(
    fc.property(query, (a) => {
      const b = { ...a, filters: a.filters.map((c) => ({ key: c.key, byFieldId: new Map([...c.byFieldId].map(([id, ops]) => [id, { ...ops, lt: 99 }])) })) }
      const differs = corpora.some((docs) => JSON.stringify(answer(docs, a)) !== JSON.stringify(answer(docs, b)))
      if (differs) assert.is.not(searchQueryKey(a), searchQueryKey(b))
    }),
    { seed: 17, numRuns: 500 },
  )
})

test('the key tells apart every value of a filter, its type and its operator', () => {
  const keyOf = (operators: FieldOperators) => searchQueryKey({
    terms: parseQueryTerms('event'), now: NOW, categoryId: null, tags: null, sort: { kind: 'relevance' }, from: 0, size: 20,
    filters: [{ key: 'custom_capacity', byFieldId: new Map([['f_capacity', operators]]) }],
  })
  const keys = [{ in: [50, 300] }, { gte: 100, lte: 300 }, { lt: 150 }, { lte: 150 }, { eq: 1 }, { eq: '1' }, { eq: true }, { in: [50] }].map(keyOf)
  assert.is(new Set(keys).size, keys.length)
  // The same question spelled in another order shares its key.
  assert.is(keyOf({ in: [300, 50, 300] }), keyOf({ in: [50, 300] }))
  assert.is(keyOf({ lte: 300, gte: 100 }), keyOf({ gte: 100, lte: 300 }))
})

test('the key ignores the moment of the search and the order of tags and filter entries', () => {
  const base: SearchQuery = {
    terms: parseQueryTerms('office'), now: NOW, categoryId: 'c1', tags: ['a', 'b'], sort: { kind: 'relevance' }, from: 0, size: 20,
    filters: [{ key: 'custom_x', byFieldId: new Map([['f1', { eq: 1 }]]) }, { key: 'custom_y', byFieldId: new Map([['f2', { eq: 'a' }], ['f3', { eq: 'a' }]]) }],
  }
  const reordered: SearchQuery = {
    ...base, now: '2031-05-05T00:00:00.000Z', tags: ['b', 'a'],
    filters: [{ key: 'custom_y', byFieldId: new Map([['f3', { eq: 'a' }], ['f2', { eq: 'a' }]]) }, { key: 'custom_x', byFieldId: new Map([['f1', { eq: 1 }]]) }],
  }
  assert.is(searchQueryKey(reordered), searchQueryKey(base))
})

test.run()
