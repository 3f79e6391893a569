import { test } from 'uvu'
import * as assert from 'uvu/assert'
import type { SearchDocument, SearchQuery } from '../port/search.ts'
import { compareValues, matchesCondition, matchesSearch, satisfiesOperators } from './search-match.ts'
import { searchComparator } from './search-order.ts'

const doc = (over: Partial<SearchDocument> = {}): SearchDocument => ({
  id: 'c1', category_id: 'news', status: 'published', published_at: '2025-01-01T00:00:00.000Z', tags: ['a', 'b'], fields: {}, ...over,
})
const query = (over: Partial<Pick<SearchQuery, 'now' | 'categoryId' | 'tags' | 'filters'>> = {}) => ({
  now: '2025-06-01T00:00:00.000Z', categoryId: null, tags: null, filters: [], ...over,
})

test('only published items of an active category, published by now, match', () => {
  assert.ok(matchesSearch(doc(), true, query()))
  assert.not.ok(matchesSearch(doc(), false, query()))
  assert.not.ok(matchesSearch(doc({ status: 'draft' }), true, query()))
  assert.not.ok(matchesSearch(doc({ published_at: null }), true, query()))
  assert.not.ok(matchesSearch(doc({ published_at: '2025-06-01T00:00:00.001Z' }), true, query()))
  assert.ok(matchesSearch(doc({ published_at: '2025-06-01T00:00:00.000Z' }), true, query()))
})

test('category and tags (any of them) filter', () => {
  assert.ok(matchesSearch(doc(), true, query({ categoryId: 'news' })))
  assert.not.ok(matchesSearch(doc(), true, query({ categoryId: 'blog' })))
  assert.ok(matchesSearch(doc(), true, query({ tags: ['z', 'b'] })))
  assert.not.ok(matchesSearch(doc(), true, query({ tags: ['z'] })))
})

test('a filter entry matches through any of its fields and all its operators', () => {
  const condition = { key: 'custom_price', byFieldId: new Map([['f1', { gte: 10, lt: 20 }], ['f2', { eq: 'cheap' }]]) }
  assert.ok(matchesCondition({ f1: 10 }, condition))
  assert.not.ok(matchesCondition({ f1: 20 }, condition))
  assert.ok(matchesCondition({ f2: 'cheap' }, condition))
  assert.not.ok(matchesCondition({ f3: 15 }, condition))
  assert.not.ok(matchesSearch(doc({ fields: { f1: 25 } }), true, query({ filters: [condition] })))
})

test('operators compare only values of one type', () => {
  assert.ok(satisfiesOperators('2025-06-20', { gt: '2025-06-19', lte: '2025-06-20' }))
  assert.ok(satisfiesOperators(5, { in: [1, 5] }))
  assert.not.ok(satisfiesOperators(5, { in: ['5'] }))
  assert.not.ok(satisfiesOperators('5', { gt: 1 }))
  assert.is(compareValues(false, true), -1)
  assert.ok(Number.isNaN(compareValues(1, '1')))
})

test('relevance sorts by score, then id; published_at and fields by value, missing last', () => {
  const items = [
    { doc: doc({ id: 'b', published_at: '2025-01-02T00:00:00.000Z', fields: { p: 2 } }), score: 1 },
    { doc: doc({ id: 'a', published_at: '2025-01-03T00:00:00.000Z', fields: {} }), score: 1 },
    { doc: doc({ id: 'c', published_at: '2025-01-01T00:00:00.000Z', fields: { p: 1 } }), score: 3 },
    { doc: doc({ id: 'd', published_at: '2025-01-01T00:00:00.000Z', fields: { q: 'x' } }), score: 0.5 },
  ]
  const ids = (sort: Parameters<typeof searchComparator>[0]) => [...items].sort(searchComparator(sort)).map((i) => i.doc.id)
  assert.equal(ids({ kind: 'relevance' }), ['c', 'a', 'b', 'd'])
  assert.equal(ids({ kind: 'published_at', direction: 'desc' }), ['a', 'b', 'd', 'c'])
  assert.equal(ids({ kind: 'published_at', direction: 'asc' }), ['c', 'd', 'b', 'a'])
  assert.equal(ids({ kind: 'field', fieldIds: ['p', 'q'], direction: 'asc' }), ['c', 'b', 'd', 'a'])
  assert.equal(ids({ kind: 'field', fieldIds: ['p', 'q'], direction: 'desc' }), ['d', 'b', 'c', 'a'])
})

test.run()
