import fc from 'fast-check'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { ValidationError } from '../errors/frontdesk-error.ts'
import type { CategoryRecord, FieldDefinition } from '../model/category.ts'
import { parseSearchRequest } from './search-request.ts'

const field = (id: string, name: string, type: FieldDefinition['type'], options?: string[]): FieldDefinition => ({ id, name, type, required: false, ...(options ? { options } : {}) })

const category = (id: string, fields: FieldDefinition[], active = true): CategoryRecord => ({
  tenant_id: 't1', id, code: id, name: id, description: '', sort: 0, active, fields, created_at: '2025-01-01T00:00:00.000Z', updated_at: '2025-01-01T00:00:00.000Z',
})

const categories = [
  category('news', [field('f_price', 'price', 'number'), field('f_area', 'area', 'select', ['tokyo', 'osaka']), field('f_day', 'day', 'date'), field('f_note', 'note', 'text'), field('f_ok', 'ok', 'boolean')]),
  category('blog', [field('b_price', 'price', 'text'), field('b_topic', 'topic', 'text')]),
  category('old', [], false),
]

function details(body: unknown): { field: string; message: string }[] {
  try {
    parseSearchRequest(body, categories)
  } catch (error) {
    if (error instanceof ValidationError) return error.details ?? []
    throw error
  }
  throw new Error('expected a ValidationError')
}

const fields = (body: unknown): string[] => details(body).map((d) => d.field)

function fieldsOf(of: CategoryRecord[], body: unknown): { field: string; message: string }[] {
  try {
    parseSearchRequest(body, of)
  } catch (error) {
    if (error instanceof ValidationError) return error.details ?? []
    throw error
  }
  throw new Error('expected a ValidationError')
}

test('a minimal body gets the defaults', () => {
  const parsed = parseSearchRequest({ query: '  office  ' }, categories)
  assert.is(parsed.query, 'office')
  assert.equal(parsed.sort, { kind: 'relevance' })
  assert.is(parsed.from, 0)
  assert.is(parsed.size, 20)
  assert.is(parsed.tags, null)
  assert.is(parsed.categoryId, null)
  assert.ok(parsed.categoryVisible)
})

test('every invalid field is reported at once, unknown fields included', () => {
  assert.equal(fields({ query: '', from: -1, size: 101, sort: 'title:asc', tags: 'x', extra: 1, other: 2 }).sort(), ['extra', 'from', 'other', 'query', 'size', 'sort', 'tags'])
})

test('sort and filter are checked even when other fields are invalid', () => {
  assert.equal(fields({ query: '', sort: 'custom_nope:asc', filter: { custom_price: { gt: 'x' } } }), ['query', 'sort', 'filter.custom_price.gt'])
})

test('a tag name no store can hold (U+0000) is refused, as in a list', () => {
  assert.equal(details({ query: 'office', tags: ['ok', 'n\u0000'] }), [{ field: 'tags.1', message: 'must not contain U+0000 (NUL)' }])
})

test('a body that is not an object is invalid as a whole', () => {
  for (const body of [null, [], 'query', 3, undefined]) assert.equal(fields(body), ['body'])
})

test('query is required and at most 500 characters after trimming', () => {
  assert.equal(details({}), [{ field: 'query', message: 'is required' }])
  assert.equal(fields({ query: '   ' }), ['query'])
  assert.equal(fields({ query: 'x'.repeat(501) }), ['query'])
  assert.is(parseSearchRequest({ query: ` ${'語'.repeat(500)} ` }, categories).query.length, 500)
})

test('from + size may not exceed 10,000', () => {
  assert.is(parseSearchRequest({ query: 'a', from: 9_900, size: 100 }, categories).from, 9_900)
  assert.equal(fields({ query: 'a', from: 9_901, size: 100 }), ['from'])
  assert.equal(fields({ query: 'a', from: 1.5 }), ['from'])
  assert.equal(fields({ query: '', from: 10_000 }).sort(), ['from', 'query'])
  assert.equal(fields({ query: 'a', from: 10_000.5 }), ['from'])
  assert.equal(fields({ query: 'a', size: '10' }), ['size'])
})

test('sort accepts relevance, published_at and custom fields of the category', () => {
  assert.equal(parseSearchRequest({ query: 'a', sort: 'published_at:asc' }, categories).sort, { kind: 'published_at', direction: 'asc' })
  assert.equal(parseSearchRequest({ query: 'a', sort: 'custom_price:desc' }, categories).sort, { kind: 'field', fieldIds: ['f_price', 'b_price'], direction: 'desc' })
  assert.equal(parseSearchRequest({ query: 'a', sort: 'custom_price:desc', category_id: 'news' }, categories).sort, { kind: 'field', fieldIds: ['f_price'], direction: 'desc' })
  assert.equal(fields({ query: 'a', sort: 'custom_topic:asc', category_id: 'news' }), ['sort'])
  assert.equal(fields({ query: 'a', sort: 'custom_nope:asc' }), ['sort'])
})

test('an unknown or inactive category is not an error, but nothing can match', () => {
  assert.is(parseSearchRequest({ query: 'a', category_id: 'missing' }, categories).categoryVisible, false)
  assert.is(parseSearchRequest({ query: 'a', category_id: 'old' }, categories).categoryVisible, false)
  assert.is(parseSearchRequest({ query: 'a', category_id: 'news' }, categories).categoryVisible, true)
  assert.equal(fields({ query: 'a', category_id: 'bad id!' }), ['category_id'])
})

test('category_code names the category as in the content list: alone, or agreeing with category_id', () => {
  const events = { ...category('cat_events', [field('e_venue', 'venue', 'text')]), code: 'events' }
  const all = [...categories, events]
  const parsed = parseSearchRequest({ query: 'a', category_code: 'events', filter: { custom_venue: 'hall' }, sort: 'custom_venue:asc' }, all)
  assert.is(parsed.categoryId, 'cat_events')
  assert.ok(parsed.categoryVisible)
  assert.equal(parsed.sort, { kind: 'field', fieldIds: ['e_venue'], direction: 'asc' })
  // Only that category's fields are known, as with its id.
  assert.equal(fieldsOf(all, { query: 'a', category_code: 'events', filter: { custom_price: 1 } }), [{ field: 'filter.custom_price', message: 'is not a custom field of the category' }])
  assert.ok(parseSearchRequest({ query: 'a', category_code: 'events', category_id: 'cat_events' }, all).categoryVisible)
  assert.is(parseSearchRequest({ query: 'a', category_code: 'news', category_id: 'cat_events' }, all).categoryVisible, false, 'two categories named: nothing matches')
  assert.is(parseSearchRequest({ query: 'a', category_code: 'missing' }, all).categoryVisible, false)
  assert.is(parseSearchRequest({ query: 'a', category_code: 'old' }, all).categoryVisible, false, 'inactive')
  assert.is(parseSearchRequest({ query: 'a', category_code: 'cat_events' }, all).categoryVisible, false, 'an id is no code')
  assert.equal(fields({ query: 'a', category_code: '' }), ['category_code'])
  assert.equal(fields({ query: 'a', category_code: 'x'.repeat(101) }), ['category_code'])
  assert.equal(fields({ query: 'a', category_code: 7 }), ['category_code'])
})

test('an unknown custom field is "of the category" with one, "of any category" without', () => {
  assert.equal(details({ query: 'a', filter: { custom_nope: 1 } }), [{ field: 'filter.custom_nope', message: 'is not a custom field of any category' }])
  assert.equal(details({ query: 'a', sort: 'custom_nope:asc' }), [{ field: 'sort', message: 'names no custom field of any category' }])
  assert.equal(details({ query: 'a', category_id: 'blog', filter: { custom_area: 1 } }), [{ field: 'filter.custom_area', message: 'is not a custom field of the category' }])
  assert.equal(details({ query: 'a', category_id: 'blog', sort: 'custom_area:asc' }), [{ field: 'sort', message: 'names no custom field of the category' }])
})

test('tags are deduplicated; an empty list means no tag filter', () => {
  assert.equal(parseSearchRequest({ query: 'a', tags: ['x', 'y', 'x'] }, categories).tags, ['x', 'y'])
  assert.is(parseSearchRequest({ query: 'a', tags: [] }, categories).tags, null)
  assert.equal(fields({ query: 'a', tags: ['ok', 3] }), ['tags.1'])
})

test('a plain filter value means eq, typed per field', () => {
  const { filters } = parseSearchRequest({ query: 'a', category_id: 'news', filter: { custom_price: 10, custom_area: 'tokyo', custom_day: '2025-06-20T09:00:00+09:00' } }, categories)
  assert.equal(filters.map((f) => [f.key, [...f.byFieldId]]), [
    ['custom_price', [['f_price', { eq: 10 }]]],
    ['custom_area', [['f_area', { eq: 'tokyo' }]]],
    ['custom_day', [['f_day', { eq: '2025-06-20T00:00:00.000Z' }]]],
  ])
})

test('operators combine; a name shared by categories applies where its value fits', () => {
  const { filters } = parseSearchRequest({ query: 'a', filter: { custom_price: { gte: 10, lt: 20 } } }, categories)
  assert.equal([...(filters[0]?.byFieldId ?? [])], [['f_price', { gte: 10, lt: 20 }]])
  const text = parseSearchRequest({ query: 'a', filter: { custom_price: 'cheap' } }, categories)
  assert.equal([...(text.filters[0]?.byFieldId ?? [])], [['b_price', { eq: 'cheap' }]])
  const inValues = parseSearchRequest({ query: 'a', filter: { custom_area: { in: ['tokyo', 'osaka'] } } }, categories)
  assert.equal([...(inValues.filters[0]?.byFieldId ?? [])], [['f_area', { in: ['tokyo', 'osaka'] }]])
})

test('a name of many categories applies to each field its value fits, select options told apart', () => {
  const many = [
    category('a', [field('a_region', 'region', 'select', ['tokyo', 'osaka'])]),
    category('b', [field('b_region', 'region', 'select', ['osaka', 'nagoya'])]),
    category('c', [field('c_region', 'region', 'select', ['tokyo', 'osaka'])]),
    category('d', [field('d_region', 'region', 'number')]),
    category('e', [field('e_region', 'region', 'select', ['osaka', 'nagoya'])]),
  ]
  const ids = (filter: unknown) => [...(parseSearchRequest({ query: 'a', filter: { custom_region: filter } }, many).filters[0]?.byFieldId.keys() ?? [])]
  assert.equal(ids('tokyo'), ['a_region', 'c_region'])
  assert.equal(ids('nagoya'), ['b_region', 'e_region'])
  assert.equal(ids({ in: ['osaka'] }), ['a_region', 'b_region', 'c_region', 'e_region'])
  assert.equal(ids({ gte: 3 }), ['d_region'])
  assert.equal(fieldsOf(many, { query: 'a', filter: { custom_region: 'kyoto' } }), [{ field: 'filter.custom_region', message: 'must be one of: tokyo, osaka' }])
})

test('filter problems are reported with their path', () => {
  assert.equal(
    fields({
      query: 'a',
      category_id: 'news',
      filter: {
        custom_price: { gte: 'ten', lt: 5 },
        custom_area: { gt: 'tokyo' },
        custom_note: { in: [] },
        custom_ok: { in: [true, 'no'] },
        custom_topic: 'x',
        price: 1,
        custom_day: { between: 1 },
        custom_1: [1, 2],
      },
    }),
    ['filter.custom_price.gte', 'filter.custom_area.gt', 'filter.custom_note.in', 'filter.custom_ok.in.1', 'filter.custom_topic', 'filter.price', 'filter.custom_day.between', 'filter.custom_1'],
  )
  assert.equal(fields({ query: 'a', filter: { custom_area: 'kyoto' } }), ['filter.custom_area'])
  assert.equal(fields({ query: 'a', category_id: 'news', filter: { custom_price: { gte: 'x', near: 1 } } }), ['filter.custom_price.near', 'filter.custom_price.gte'])
  assert.equal(fields({ query: 'a', filter: { custom_area: {} } }), ['filter.custom_area'])
  assert.equal(fields({ query: 'a', filter: [] }), ['filter'])
  assert.equal(fields({ query: 'a', filter: { custom_note: { in: Array.from({ length: 101 }, () => 'x') } } }), ['filter.custom_note.in'])
})

const json = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small' }, fc.string(), fc.double(), fc.integer(), fc.boolean(), fc.constant(null), fc.array(tie('value'), { maxLength: 3 }), fc.dictionary(fc.string(), tie('value'), { maxKeys: 3 })),
})).value

const filterKey = fc.oneof(fc.constantFrom('custom_price', 'custom_area', 'custom_day', 'custom_note', 'custom_ok', 'custom_topic', 'custom_x', '__proto__', 'constructor'), fc.string())
const operatorObject = fc.dictionary(fc.oneof(fc.constantFrom('eq', 'gt', 'gte', 'lt', 'lte', 'in', 'toString'), fc.string()), json, { maxKeys: 4 })
const bodies = fc.record(
  {
    query: fc.oneof(fc.string({ maxLength: 600 }), json),
    category_id: fc.oneof(fc.constantFrom('news', 'blog', 'old', 'missing'), json),
    tags: fc.oneof(fc.array(fc.string()), json),
    sort: fc.oneof(fc.constantFrom('relevance', 'published_at:desc', 'custom_price:asc', 'custom_area:desc', 'custom_x:asc'), json),
    from: fc.oneof(fc.integer({ min: -5, max: 10_005 }), json),
    size: fc.oneof(fc.integer({ min: -5, max: 105 }), json),
    filter: fc.oneof(fc.dictionary(filterKey, fc.oneof(json, operatorObject), { maxKeys: 4 }), json),
    [`x`]: json,
  },
  { requiredKeys: [] },
)

test('any body either parses or fails with a ValidationError naming fields', () => {
  fc.assert(
    fc.property(bodies, (body) => {
      try {
        const parsed = parseSearchRequest(body, categories)
        assert.ok(parsed.from + parsed.size <= 10_000 && parsed.size >= 1 && parsed.size <= 100 && parsed.from >= 0)
        assert.ok(parsed.query.length >= 1)
      } catch (error) {
        if (!(error instanceof ValidationError)) throw error
        assert.ok((error.details ?? []).length > 0)
        const names = (error.details ?? []).map((d) => d.field)
        assert.is(new Set(names).size, names.length, 'one detail per field')
        for (const detail of error.details ?? []) assert.ok(detail.field.length > 0 && detail.message.length > 0)
      }
    }),
    { numRuns: 400 },
  )
})

test('any filter either parses into typed conditions or fails with filter.* details', () => {
  fc.assert(
    fc.property(fc.dictionary(filterKey, fc.oneof(json, operatorObject), { maxKeys: 4 }), (filter) => {
      try {
        const parsed = parseSearchRequest({ query: 'q', filter }, categories)
        for (const condition of parsed.filters) assert.ok(condition.byFieldId.size > 0)
      } catch (error) {
        if (!(error instanceof ValidationError)) throw error
        for (const detail of error.details ?? []) assert.ok(detail.field.startsWith('filter'), detail.field)
      }
    }),
    { numRuns: 400 },
  )
})

test.run()
