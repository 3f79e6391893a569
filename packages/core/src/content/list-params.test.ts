import fc from 'fast-check'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { canonicalListQuery, parseListParams } from './list-params.ts'

const parse = (query: string) => parseListParams(new URLSearchParams(query))
const fields = (query: string) => parse(query).details.map((detail) => detail.field)

test('no parameters mean newest first, 20 items, no filter', () => {
  assert.equal(parse(''), {
    params: { categoryCode: null, categoryId: null, tags: [], tagIds: [], fieldFilters: [], sort: { key: 'published_at', direction: 'desc' }, limit: 20, cursor: null },
    details: [],
  })
})

test('every parameter is read and normalised', () => {
  const { params, details } = parse('category_code=news&category_id=cat_1&tags=b,%20a,a&tag_ids=tag_2,tag_1&field_filters=fld_b:1,fld_a:x:y&sort=custom_price:asc&limit=050&cursor=abc&preview_token=fdv_x')
  assert.equal(details, [])
  assert.equal(params, {
    categoryCode: 'news',
    categoryId: 'cat_1',
    tags: ['a', 'b'],
    tagIds: ['tag_1', 'tag_2'],
    fieldFilters: [{ fieldId: 'fld_a', text: 'x:y' }, { fieldId: 'fld_b', text: '1' }],
    sort: { key: { custom: 'price' }, direction: 'asc' },
    limit: 50,
    cursor: 'abc',
  })
})

test('equivalent spellings of a query have one canonical form', () => {
  const a = canonicalListQuery(parse('tags=a,b&category_code=news&sort=published_at:desc').params)
  const b = canonicalListQuery(parse('category_code=news&tags=b,a,b').params)
  assert.is(a, b)
  assert.is.not(a, canonicalListQuery(parse('category_code=news&tags=b,a&sort=published_at:asc').params))
  assert.is(canonicalListQuery(parse('limit=5&cursor=x').params), canonicalListQuery(parse('').params))
})

test('every invalid parameter is reported, each once, and keeps its default', () => {
  const { params, details } = parse('limit=0&sort=price&tags=a,,b&tag_ids=x%20y&category_id=%2F&category_code=&cursor=&field_filters=a')
  assert.equal(details.map((d) => d.field).sort(), ['category_code', 'category_id', 'cursor', 'field_filters', 'limit', 'sort', 'tag_ids', 'tags'])
  assert.is(params.limit, 20)
  assert.equal(params.tags, [])
})

test('valid parameters beside invalid ones keep their values', () => {
  const { params, details } = parse('limit=7&sort=bogus&tags=x')
  assert.equal(details.map((d) => d.field), ['sort'])
  assert.is(params.limit, 7)
  assert.equal(params.tags, ['x'])
})

test('a parameter given twice is refused', () => {
  assert.equal(parse('limit=5&limit=5').details, [{ field: 'limit', message: 'must be given at most once' }])
  assert.equal(fields('preview_token=a&preview_token=b'), ['preview_token'])
})

test('unknown parameters are refused by name', () => {
  assert.equal(parse('page=2&category=news').details, [
    { field: 'page', message: 'is not a parameter of this endpoint' },
    { field: 'category', message: 'is not a parameter of this endpoint' },
  ])
})

test('tags and tag_ids hold at most 20 names or ids, each well-formed', () => {
  const many = Array.from({ length: 21 }, (_, i) => `t${i}`).join(',')
  assert.equal(parse(`tags=${many}`).details, [{ field: 'tags', message: 'must hold at most 20 tags' }])
  assert.equal(parse(`tag_ids=${many}`).details, [{ field: 'tag_ids', message: 'must hold at most 20 tag ids' }])
  assert.equal(fields(`tags=${'x'.repeat(101)}`), ['tags'])
  assert.equal(parse('tag_ids=a,').details, [{ field: 'tag_ids', message: 'must not hold an empty tag id' }])
})

test('an overlong unknown parameter name is clipped in the report', () => {
  assert.is(parse(`${'p'.repeat(500)}=1`).details[0]?.field, `${'p'.repeat(100)}…`)
})

test('limit takes whole numbers from 1 to 100 only', () => {
  for (const bad of ['0', '101', '-1', '1.5', '1e2', ' 5', 'ten', '', '9999999']) assert.equal(fields(`limit=${encodeURIComponent(bad)}`), ['limit'], bad)
  assert.is(parse('limit=1').params.limit, 1)
  assert.is(parse('limit=100').params.limit, 100)
})

test('sort takes the four key kinds with a direction', () => {
  for (const good of ['published_at:asc', 'title:desc', 'updated_at:asc', 'custom_a1_b:desc']) assert.equal(fields(`sort=${good}`), [], good)
  for (const bad of ['published_at', 'title:up', 'id:asc', 'custom_:asc', 'custom_Price:asc', 'relevance', 'TITLE:ASC']) assert.equal(fields(`sort=${bad}`), ['sort'], bad)
})

test('field_filters holds 1 to 3 pairs with an id and a non-empty value', () => {
  assert.equal(fields('field_filters=a:1,b:2,c:3'), [])
  assert.equal(parse('field_filters=a:1,b:2,c:3,d:4').details, [{ field: 'field_filters', message: 'must hold at most 3 pairs' }])
  assert.equal(parse('field_filters=a:').details, [{ field: 'field_filters', message: 'the value for a must not be empty' }])
  assert.equal(fields('field_filters=:x'), ['field_filters'])
  assert.equal(fields('field_filters=a%20b:x'), ['field_filters'])
  assert.equal(fields('field_filters='), ['field_filters'])
  assert.equal(parse('field_filters=a:1,a:1').params.fieldFilters, [{ fieldId: 'a', text: '1' }])
})

test('random query strings never throw and always report known fields or parameter names', () => {
  const key = fc.oneof(fc.constantFrom('category_code', 'category_id', 'tags', 'tag_ids', 'field_filters', 'sort', 'limit', 'cursor', 'preview_token'), fc.string())
  fc.assert(
    fc.property(fc.array(fc.tuple(key, fc.string()), { maxLength: 8 }), (pairs) => {
      const search = new URLSearchParams(pairs)
      const { params, details } = parseListParams(search)
      const names = new Set(search.keys())
      return details.every((detail) => names.has(detail.field)) && params.limit >= 1 && params.limit <= 100
    }),
    { numRuns: 300 },
  )
})

test.run()
