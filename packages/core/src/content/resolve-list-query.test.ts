import fc from 'fast-check'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { ValidationError } from '../errors/frontdesk-error.ts'
import type { CategoryRecord, FieldDefinition } from '../model/category.ts'
import type { ContentRecord } from '../model/content.ts'
import { encodeCursor, queryFingerprint } from './cursor.ts'
import { canonicalListQuery, parseListParams } from './list-params.ts'
import { resolveListQuery, sortPosition } from './resolve-list-query.ts'

const NOW = Date.parse('2025-06-20T12:00:00.000Z')
const price: FieldDefinition = { id: 'fld_price', name: 'price', type: 'number', required: false }
const color: FieldDefinition = { id: 'fld_color', name: 'color', type: 'select', options: ['red', 'blue'], required: false }
const otherPrice: FieldDefinition = { id: 'fld_price2', name: 'price', type: 'number', required: false }
const stamp = '2025-01-01T00:00:00.000Z'
const category = (id: string, code: string, fields: FieldDefinition[], active = true): CategoryRecord => ({
  tenant_id: 'ten_1', id, code, name: code, description: '', sort: 0, active, fields, created_at: stamp, updated_at: stamp,
})
const shop = category('cat_shop', 'shop', [price, color])
const news = category('cat_news', 'news', [])
const old = category('cat_old', 'old', [otherPrice], false)
const categories = [shop, news, old]

const binding = { secret: 'test-secret', tenantId: 'ten_1' }

function resolve(query: string, preview: Parameters<typeof resolveListQuery>[4] = null) {
  const { params, details } = parseListParams(new URLSearchParams(query))
  return resolveListQuery(params, details, categories, NOW, preview, binding)
}

function problems(query: string): string[] {
  try {
    resolve(query)
  } catch (error) {
    if (error instanceof ValidationError) return (error.details ?? []).map((d) => `${d.field}: ${d.message}`)
    throw error
  }
  return []
}

test('no parameters ask for 21 public items, newest first', () => {
  const { query, limit } = resolve('')
  assert.is(limit, 20)
  assert.equal(query, { visibility: { kind: 'public', now: '2025-06-20T12:00:00.000Z' }, sort: { key: 'published_at', direction: 'desc' }, limit: 21, view: 'summary' })
})

test('a list asks for summaries, except with a custom-field sort, whose cursor needs the field value', () => {
  assert.is(resolve('sort=title:asc').query?.view, 'summary')
  assert.is(resolve('category_code=shop&sort=custom_price:asc').query?.view, undefined)
})

test('filters resolve to the category, tags, tag ids and typed field values', () => {
  const { query } = resolve('category_code=shop&tags=b,a&tag_ids=tag_1&field_filters=fld_price:12.5,fld_color:red&sort=custom_price:asc&limit=5')
  assert.equal(query?.categoryIds, ['cat_shop'])
  assert.equal(query?.tagNames, ['a', 'b'])
  assert.equal(query?.tagIds, ['tag_1'])
  assert.equal(query?.fieldEquals, [{ field: color, value: 'red' }, { field: price, value: 12.5 }])
  assert.equal(query?.sort, { key: { field: price }, direction: 'asc' })
  assert.is(query?.limit, 6)
})

test('an unknown category, or code and id naming two categories, is an empty list', () => {
  assert.is(resolve('category_code=nope').query, null)
  assert.is(resolve('category_id=cat_nope').query, null)
  assert.is(resolve('category_code=shop&category_id=cat_news').query, null)
  assert.equal(resolve('category_code=shop&category_id=cat_shop').query?.categoryIds, ['cat_shop'])
})

test('an inactive category filter is left to visibility, so only a preview of it shows items', () => {
  assert.equal(resolve('category_code=old').query?.visibility, { kind: 'public', now: '2025-06-20T12:00:00.000Z' })
  assert.equal(resolve('category_code=old', { kind: 'category', id: 'cat_old' }).query?.visibility, {
    kind: 'public', now: '2025-06-20T12:00:00.000Z', previewCategoryId: 'cat_old',
  })
})

test('field filters must name a field of the filtered category, or of an active category', () => {
  assert.equal(problems('category_code=news&field_filters=fld_price:1'), ['field_filters: fld_price is not a custom field of category news'])
  assert.equal(problems('field_filters=fld_price2:1'), ['field_filters: fld_price2 is not a custom field of any active category'])
  assert.equal(problems('field_filters=fld_price:1'), [])
  assert.equal(problems('category_code=old&field_filters=fld_price2:1'), [])
})

test('field filter values are read with the field type', () => {
  assert.equal(problems('field_filters=fld_price:cheap'), ['field_filters: the value for fld_price must be a finite number'])
  assert.equal(problems('field_filters=fld_color:green'), ['field_filters: the value for fld_color must be one of: red, blue'])
})

test('a custom sort needs exactly one field of that name in scope', () => {
  assert.equal(problems('sort=custom_size:asc'), ['sort: custom_size is not a custom field of any active category'])
  assert.equal(problems('category_code=old&sort=custom_price:asc'), [])
  const twice = [shop, news, { ...old, active: true }]
  const { params, details } = parseListParams(new URLSearchParams('sort=custom_price:desc'))
  assert.throws(() => resolveListQuery(params, details, twice, NOW, null, binding), (e: unknown) => e instanceof ValidationError && /several categories/.test(e.details?.[0]?.message ?? ''))
})

test('shape problems and store-dependent problems are reported together', () => {
  assert.equal(problems('limit=0&field_filters=fld_nope:1&sort=custom_nope:asc&cursor=xyz').map((p) => p.split(':')[0]), ['limit', 'field_filters', 'sort', 'cursor'])
})

test('a cursor of this query positions the next page', () => {
  const cursor = encodeCursor(binding, resolve('category_code=shop&sort=title:asc').fingerprint, { value: 'M', id: 'cnt_9' })
  assert.equal(resolve(`sort=title:asc&category_code=shop&cursor=${cursor}&limit=3`).query?.after, { value: 'M', id: 'cnt_9' })
})

test('a list that resolves nothing (no category, a built-in sort) is fingerprinted by its parameters alone', () => {
  const { params } = parseListParams(new URLSearchParams('sort=title:asc&tags=b,a'))
  assert.is(resolve('tags=a,b&sort=title:asc').fingerprint, queryFingerprint(canonicalListQuery(params)))
})

test('the fingerprint covers what the parameters resolve to: the category and the sort field', () => {
  const moved = [{ ...shop, code: 'moved' }, { ...news, code: 'shop' }, old]
  const { params, details } = parseListParams(new URLSearchParams('category_code=shop'))
  assert.is.not(resolveListQuery(params, details, moved, NOW, null, binding).fingerprint, resolve('category_code=shop').fingerprint)
  const sorted = parseListParams(new URLSearchParams('sort=custom_price:asc'))
  const renamed = [{ ...shop, fields: [{ ...price, name: 'cost' }, color] }, news, { ...old, active: true }]
  assert.is.not(resolveListQuery(sorted.params, sorted.details, renamed, NOW, null, binding).fingerprint, resolve('sort=custom_price:asc').fingerprint)
})

test('a cursor of another query, or holding a value of the wrong type, is refused on cursor', () => {
  const { params } = parseListParams(new URLSearchParams('sort=title:asc'))
  const cursor = encodeCursor(binding, queryFingerprint(canonicalListQuery(params)), { value: 'M', id: 'cnt_9' })
  assert.equal(problems(`sort=title:desc&cursor=${cursor}`), ['cursor: cursor belongs to a query with other filters or sort'])
  assert.equal(problems(`sort=title:asc&tags=x&cursor=${cursor}`), ['cursor: cursor belongs to a query with other filters or sort'])
  const numeric = encodeCursor(binding, queryFingerprint(canonicalListQuery(params)), { value: 5, id: 'cnt_9' })
  assert.equal(problems(`sort=title:asc&cursor=${numeric}`), ['cursor: is not a valid cursor'])
})

test('the sort position of an item is its sort value and id', () => {
  const item = { id: 'cnt_1', title: 'T', published_at: null, updated_at: stamp, fields: { fld_price: 3 } } as unknown as ContentRecord
  assert.equal(sortPosition(item, { key: 'title', direction: 'asc' }), { value: 'T', id: 'cnt_1' })
  assert.equal(sortPosition(item, { key: 'published_at', direction: 'asc' }), { value: null, id: 'cnt_1' })
  assert.equal(sortPosition(item, { key: 'updated_at', direction: 'asc' }), { value: stamp, id: 'cnt_1' })
  assert.equal(sortPosition(item, { key: 'id', direction: 'asc' }), { value: 'cnt_1', id: 'cnt_1' })
  assert.equal(sortPosition(item, { key: { field: price }, direction: 'asc' }), { value: 3, id: 'cnt_1' })
  assert.equal(sortPosition(item, { key: { field: color }, direction: 'asc' }), { value: null, id: 'cnt_1' })
})

test('random queries and cursors fail only with ValidationError', () => {
  const key = fc.constantFrom('category_code', 'category_id', 'tags', 'tag_ids', 'field_filters', 'sort', 'limit', 'cursor', 'x')
  const value = fc.oneof(fc.string(), fc.constantFrom('fld_price:1', 'fld_color:red', 'custom_price:asc', 'title:asc', 'shop', 'cat_old'), fc.base64String())
  fc.assert(
    fc.property(fc.array(fc.tuple(key, value), { maxLength: 6 }), (pairs) => {
      try {
        resolve(new URLSearchParams(pairs).toString())
        return true
      } catch (error) {
        return error instanceof ValidationError && (error.details ?? []).length > 0
      }
    }),
    { numRuns: 400 },
  )
})

test.run()
