import { createHash } from 'node:crypto'
import { join } from 'node:path'
import fc from 'fast-check'
import * as assert from 'uvu/assert'
import { openSqliteStore } from '@frontdesk/adapter-sqlite'
import { createFrontdesk, exportRecords, importRecords } from '@frontdesk/core'
import type { TestResponse, TestServer } from './util/test-server.ts'
import { behaviourSuite, startTestServer, storeOf } from './util/test-server.ts'

const START = Date.parse('2025-06-20T12:00:00.000Z')
let now = START
const clock = { now: () => now }

let server: TestServer
let key: string
let ids: Record<string, string> = {}

const test = await behaviourSuite('content API over HTTPS', import.meta.url)

test.before(async () => {
  server = await startTestServer({ store: storeOf(import.meta.url), clock })
  await server.tenant('acme')
  await server.tenant('other')
  key = await server.key('acme', ['cms:read'])
  const ctx = server.frontdesk.context
  const records = [
    { kind: 'category', code: 'news', name: 'News', description: 'Company news', sort: 1 },
    {
      kind: 'category', code: 'shop', name: 'Shop', sort: 0,
      fields: [
        { name: 'price', type: 'number' },
        { name: 'color', type: 'select', options: ['red', 'blue'], required: true },
        { name: 'launch', type: 'date' },
      ],
    },
    { kind: 'category', code: 'hidden', name: 'Hidden', active: false },
    { kind: 'content', slug: 'welcome', title: 'Welcome', category_code: 'news', status: 'published', published_at: '2025-06-01T09:00:00Z', author_name: 'Aiko', tags: ['intro', 'company'], summary: 'Hello', body: '<p>Hi</p>', meta: { og_title: 'Welcome!', canonical: '/welcome' } },
    { kind: 'content', slug: 'office-move', title: 'オフィス移転のお知らせ', category_code: 'news', status: 'published', published_at: '2025-06-10T09:00:00Z', tags: ['company'] },
    { kind: 'content', slug: 'q2-results', title: 'Q2 results', category_code: 'news', status: 'published', published_at: '2025-06-15T09:00:00Z', tags: ['ir'] },
    { kind: 'content', slug: 'red-shirt', title: 'Red shirt', category_code: 'shop', status: 'published', published_at: '2025-06-02T00:00:00Z', content: { price: 20, color: 'red', launch: '2025-07-01' } },
    { kind: 'content', slug: 'blue-shirt', title: 'Blue shirt', category_code: 'shop', status: 'published', published_at: '2025-06-03T00:00:00Z', content: { price: 25, color: 'blue' } },
    { kind: 'content', slug: 'draft-post', title: 'Draft', category_code: 'news' },
    { kind: 'content', slug: 'scheduled-post', title: 'Scheduled', category_code: 'news', status: 'published', published_at: '2025-06-20T12:00:30Z' },
    { kind: 'content', slug: 'hidden-post', title: 'Hidden', category_code: 'hidden', status: 'published', published_at: '2025-06-01T00:00:00Z' },
  ]
  await importRecords(ctx, { tenantCode: 'acme', records: records.map((record, i) => ({ record, location: `records[${i}]` })) })
  await importRecords(ctx, {
    tenantCode: 'other',
    records: [
      { record: { kind: 'category', code: 'news', name: 'News' }, location: '0' },
      { record: { kind: 'content', slug: 'theirs', title: 'Theirs', category_code: 'news', status: 'published', published_at: '2025-01-01T00:00:00Z' }, location: '1' },
      { record: { kind: 'category', code: 'events', name: 'Events' }, location: '2' },
    ],
  })
  for (const tenant of ['acme', 'other']) {
    for await (const record of exportRecords(ctx, tenant)) {
      const named = record as { kind: string; id?: string; slug?: string; code?: string }
      if (named.id !== undefined) ids[`${tenant}:${named.slug ?? named.code}`] = named.id
    }
  }
})

test.after(async () => {
  // Hint: whatever `before` got to; a throw here would end the whole test run.
  await server?.close()
})

const get = (path: string, headers: Record<string, string> = {}) => server.request('GET', path, { headers: { 'x-api-key': key, ...headers } })
const id = (name: string) => ids[`acme:${name}`] ?? 'missing'

function assertValidation(res: TestResponse, fields: string[]) {
  assert.is(res.status, 400)
  assert.is(res.body.error.code, 'VALIDATION_ERROR')
  assert.is(res.body.error.message, 'Validation failed')
  assert.equal(res.body.error.details.map((d: { field: string }) => d.field).sort(), [...fields].sort())
  for (const detail of res.body.error.details) assert.type(detail.message, 'string')
}

function assertNotFound(res: TestResponse, what: string) {
  assert.is(res.status, 404, what)
  assert.is(res.body.error.code, 'NOT_FOUND', what)
}

test('the list returns visible items newest first, with pagination and cache headers', async () => {
  const res = await get('/v1/cms/contents')
  assert.is(res.status, 200)
  assert.equal(res.body.items.map((i: { slug: string }) => i.slug), ['q2-results', 'office-move', 'blue-shirt', 'red-shirt', 'welcome'])
  assert.equal(res.body.pagination, { count: 5, next_cursor: null, has_more: false })
  assert.equal(res.body.items[4], {
    id: id('welcome'), title: 'Welcome', slug: 'welcome', category_id: id('news'), category_code: 'news', category_name: 'News',
    published_at: '2025-06-01T09:00:00.000Z', author_name: 'Aiko', tags: ['intro', 'company'], summary: 'Hello',
  })
  assert.is(res.headers['cache-control'], 'private, max-age=60')
  assert.type(res.headers.etag, 'string')
  const again = await get('/v1/cms/contents?sort=published_at:desc', { 'if-none-match': String(res.headers.etag) })
  assert.is(again.status, 304)
})

test('filters: category code and id, tags and tag ids (AND), custom fields', async () => {
  const slugs = async (query: string) => ((await get(`/v1/cms/contents?${query}`)).body.items as { slug: string }[]).map((i) => i.slug)
  assert.equal(await slugs('category_code=news'), ['q2-results', 'office-move', 'welcome'])
  assert.equal(await slugs(`category_id=${id('shop')}`), ['blue-shirt', 'red-shirt'])
  assert.equal(await slugs('tags=company'), ['office-move', 'welcome'])
  assert.equal(await slugs('tags=company,intro'), ['welcome'])
  const shop = (await get(`/v1/cms/categories/${id('shop')}`)).body.fields as { id: string; name: string }[]
  const field = (name: string) => shop.find((f) => f.name === name)?.id ?? 'missing'
  assert.equal(await slugs(`field_filters=${field('color')}:red`), ['red-shirt'])
  assert.equal(await slugs(`category_code=shop&field_filters=${field('price')}:25,${field('color')}:blue`), ['blue-shirt'])
  assert.equal(await slugs(`field_filters=${field('launch')}:2025-07-01`), ['red-shirt'])
  assert.equal(await slugs('category_code=hidden'), [])
  assert.equal(await slugs('category_code=no-such-category'), [])
  assert.equal(await slugs('sort=custom_price:desc&category_code=shop'), ['blue-shirt', 'red-shirt'])
  assert.equal(await slugs('sort=title:asc&category_code=news'), ['q2-results', 'welcome', 'office-move'])
})

test('next_cursor walks every page once; a cursor is bound to its filters and sort', async () => {
  const seen: string[] = []
  let path = '/v1/cms/contents?limit=2&sort=title:asc'
  for (let page = 0; page < 10; page++) {
    const res = await get(path)
    assert.is(res.status, 200)
    seen.push(...res.body.items.map((i: { slug: string }) => i.slug))
    const cursor = res.body.pagination.next_cursor
    if (cursor === null) break
    assert.is(res.body.pagination.has_more, true)
    path = `/v1/cms/contents?sort=title:asc&limit=2&cursor=${encodeURIComponent(cursor)}`
  }
  assert.equal(seen, ['blue-shirt', 'q2-results', 'red-shirt', 'welcome', 'office-move'])
  const first = await get('/v1/cms/contents?limit=1')
  const cursor = encodeURIComponent(first.body.pagination.next_cursor)
  assertValidation(await get(`/v1/cms/contents?limit=1&sort=title:asc&cursor=${cursor}`), ['cursor'])
  assertValidation(await get(`/v1/cms/contents?limit=1&category_code=news&cursor=${cursor}`), ['cursor'])
  assert.is((await get(`/v1/cms/contents?limit=3&cursor=${cursor}`)).status, 200)
})

test('a cursor is bound to its tenant and tamper-evident, and works on another process over the same database', async () => {
  const first = await get('/v1/cms/contents?limit=1')
  const cursor = String(first.body.pagination.next_cursor)
  const otherKey = await server.key('other', ['cms:read'])
  assertValidation(await server.request('GET', `/v1/cms/contents?limit=1&cursor=${encodeURIComponent(cursor)}`, { headers: { 'x-api-key': otherKey } }), ['cursor'])
  // The payload is readable, but moving the position without the database's secret is refused.
  const [payload = '', tag = ''] = cursor.split('.')
  const position = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as unknown[]
  const moved = `${Buffer.from(JSON.stringify([...position.slice(0, 3), ids['acme:welcome']])).toString('base64url')}.${tag}`
  assertValidation(await get(`/v1/cms/contents?limit=1&cursor=${moved}`), ['cursor'])
  // A cursor of the earlier format (no tag, a plain checksum) is refused the same way.
  const head = [1, position[1], position[2], position[3]]
  const old = Buffer.from(JSON.stringify([...head, createHash('sha256').update(JSON.stringify(head)).digest('hex').slice(0, 12)])).toString('base64url')
  assertValidation(await get(`/v1/cms/contents?limit=1&cursor=${old}`), ['cursor'])
  // Another process (or this one after a restart) reads the secret from the database.
  const store = await server.reopen()
  try {
    const again = createFrontdesk({ store, clock })
    const principal = await again.authenticate({ apiKey: key, authorization: false }, 'cms:read')
    const page = await again.listContents(principal, new URLSearchParams(`limit=1&cursor=${cursor}`))
    assert.is(page.status, 200)
    assert.equal(page.body, (await get(`/v1/cms/contents?limit=1&cursor=${encodeURIComponent(cursor)}`)).body)
  } finally {
    await store.close()
  }
})

test('every invalid parameter is listed in one 400', async () => {
  const res = await get('/v1/cms/contents?limit=0&sort=price&tags=a,,b&field_filters=a:1,b:2,c:3,d:4&cursor=%2A&page=2&category_id=a%20b')
  assertValidation(res, ['limit', 'sort', 'tags', 'field_filters', 'cursor', 'page', 'category_id'])
  assert.is(res.headers['cache-control'], 'no-store')
  assertValidation(await get('/v1/cms/contents?limit=5&limit=6'), ['limit'])
  assertValidation(await get('/v1/cms/contents?field_filters=fld_nope:1&sort=custom_nope:asc'), ['field_filters', 'sort'])
  assertValidation(await get('/v1/cms/contents?field_filters=x:'), ['field_filters'])
})

test('detail by id and by slug are the same body', async () => {
  const byId = await get(`/v1/cms/contents/${id('red-shirt')}`)
  assert.is(byId.status, 200)
  assert.equal(byId.body, {
    id: id('red-shirt'), title: 'Red shirt', slug: 'red-shirt', category_id: id('shop'), category_code: 'shop', category_name: 'Shop',
    content: { body: '', summary: '', price: 20, color: 'red', launch: '2025-07-01' },
    published_at: '2025-06-02T00:00:00.000Z', version: 1, author_name: '', tags: [], meta: { og_title: '', og_description: '' },
  })
  assert.is(byId.headers['cache-control'], 'private, max-age=60')
  const bySlug = await get('/v1/cms/contents/slug/red-shirt')
  assert.equal(bySlug.body, byId.body)
  assert.equal((await get('/v1/cms/contents/slug/welcome')).body.meta, { og_title: 'Welcome!', og_description: '', canonical: '/welcome' })
})

test('drafts, scheduled, inactive-category, foreign and unknown items are 404 alike', async () => {
  for (const name of ['draft-post', 'scheduled-post', 'hidden-post']) {
    assertNotFound(await get(`/v1/cms/contents/${id(name)}`), name)
    assertNotFound(await get(`/v1/cms/contents/slug/${name}`), name)
  }
  assertNotFound(await get(`/v1/cms/contents/${ids['other:theirs']}`), 'theirs')
  assertNotFound(await get('/v1/cms/contents/slug/theirs'), 'theirs by slug')
  assertNotFound(await get('/v1/cms/contents/cnt_nope'), 'unknown')
  assertNotFound(await get('/v1/cms/contents/%E3%81%82'), 'non-id')
})

test('texts no store can hold (U+0000) never reach the store: a slug is 404, a tag name 400', async () => {
  assertNotFound(await get('/v1/cms/contents/slug/%00'), 'a NUL slug')
  assertNotFound(await get('/v1/cms/contents/slug/welcome%00'), 'a slug and a NUL')
  assertValidation(await get('/v1/cms/contents?tags=company%00'), ['tags'])
})

test('a scheduled item appears by itself once its time comes', async () => {
  assertNotFound(await get(`/v1/cms/contents/${id('scheduled-post')}`), 'before')
  now = START + 30_000
  try {
    assert.is((await get(`/v1/cms/contents/${id('scheduled-post')}`)).status, 200)
    assert.ok((await get('/v1/cms/contents?limit=7')).body.items.some((i: { slug: string }) => i.slug === 'scheduled-post'))
  } finally {
    now = START
  }
})

test('categories: active ones by sort then code; detail with fields; inactive is 404', async () => {
  const list = await get('/v1/cms/categories')
  assert.is(list.status, 200)
  assert.equal(list.body.items.map((c: { code: string }) => c.code), ['shop', 'news'])
  assert.equal(list.body.items[1], { id: id('news'), code: 'news', name: 'News', description: 'Company news', sort: 1 })
  assert.is(list.headers['cache-control'], 'private, max-age=60')
  const shop = await get(`/v1/cms/categories/${id('shop')}`)
  assert.equal(shop.body.fields.map((f: Record<string, unknown>) => Object.keys(f)), [
    ['id', 'name', 'type', 'required'],
    ['id', 'name', 'type', 'options', 'required'],
    ['id', 'name', 'type', 'required'],
  ])
  assert.equal(shop.body.fields[1].options, ['red', 'blue'])
  assertNotFound(await get(`/v1/cms/categories/${id('hidden')}`), 'hidden')
  assertNotFound(await get(`/v1/cms/categories/${ids['other:news']}`), 'foreign')
  assertNotFound(await get('/v1/cms/categories/cat_nope'), 'unknown')
})

test('a category code where the path takes an id is 404 with a hint naming the id; an inactive or foreign code gets none', async () => {
  const byCode = await get('/v1/cms/categories/news')
  assert.is(byCode.status, 404)
  assert.equal(byCode.body.error, {
    code: 'NOT_FOUND',
    message: `Category not found: "news" is a category code; this path takes the category's id (${id('news')}), as GET /v1/cms/categories lists them`,
  })
  assert.equal((await get('/v1/cms/categories/hidden')).body.error, { code: 'NOT_FOUND', message: 'Category not found' }, 'an inactive category stays unknown')
  assert.equal((await get('/v1/cms/categories/nope')).body.error, { code: 'NOT_FOUND', message: 'Category not found' })
  const otherOnly = await get('/v1/cms/categories/events')
  assert.equal(otherOnly.body.error, { code: 'NOT_FOUND', message: 'Category not found' }, 'another tenant’s code is not hinted at')
})

test('a key without cms:read gets 403 on every content endpoint', async () => {
  const searchOnly = await server.key('acme', ['cms:search'])
  for (const path of ['/v1/cms/contents', `/v1/cms/contents/${id('welcome')}`, '/v1/cms/contents/slug/welcome', '/v1/cms/categories', `/v1/cms/categories/${id('news')}`]) {
    const res = await server.request('GET', path, { headers: { 'x-api-key': searchOnly } })
    assert.is(res.status, 403, path)
    assert.equal(res.body, { error: { code: 'FORBIDDEN', message: 'Insufficient permissions: this endpoint needs cms:read (or cms:*); this key has cms:search' } })
  }
})

test('random query strings and cursors never get a 500 nor leak a stack', async () => {
  const valid = (await get('/v1/cms/contents?limit=1')).body.pagination.next_cursor as string
  const name = fc.oneof(fc.constantFrom('category_code', 'category_id', 'tags', 'tag_ids', 'field_filters', 'sort', 'limit', 'cursor', 'preview_token'), fc.string({ maxLength: 10 }))
  const cursor = fc.oneof(
    fc.string(),
    fc.base64String(),
    fc.tuple(fc.nat(), fc.string({ minLength: 1, maxLength: 1 })).map(([at, ch]) => valid.slice(0, at % valid.length) + ch + valid.slice((at % valid.length) + 1)),
  )
  const value = fc.oneof(fc.string(), fc.string({ unit: 'grapheme', maxLength: 20 }), cursor, fc.constantFrom('title:asc', 'custom_price:asc', '5', '100', 'news'))
  await fc.assert(
    fc.asyncProperty(fc.array(fc.tuple(name, value), { maxLength: 6 }), async (pairs) => {
      const res = await get(`/v1/cms/contents?${new URLSearchParams(pairs).toString()}`)
      assert.ok([200, 400, 401].includes(res.status), `${res.status} ${res.text}`)
      assert.not.match(res.text, /\n\s+at |node_modules|\.ts:\d|SQLITE|SELECT /)
      if (res.status === 400) assert.ok(res.body.error.details.length > 0)
    }),
    { numRuns: 120 },
  )
})

test.run()
