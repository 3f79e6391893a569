import * as assert from 'uvu/assert'
import { createPreviewToken, exportRecords, importRecords, revokePreviewToken } from '@frontdesk/core'
import type { TestServer } from './util/test-server.ts'
import { behaviourSuite, startTestServer, storeOf } from './util/test-server.ts'

const START = Date.parse('2025-06-20T12:00:00.000Z')
let now = START
const clock = { now: () => now }

let server: TestServer
let key: string
const ids: Record<string, string> = {}

const test = await behaviourSuite('preview tokens over HTTPS', import.meta.url)

test.before(async () => {
  server = await startTestServer({ store: storeOf(import.meta.url), clock })
  await server.tenant('acme')
  await server.tenant('other')
  key = await server.key('acme', ['cms:read'])
  const ctx = server.frontdesk.context
  const records = [
    { kind: 'category', code: 'news', name: 'News' },
    { kind: 'category', code: 'blog', name: 'Blog' },
    { kind: 'content', slug: 'live', title: 'Live', category_code: 'news', status: 'published', published_at: '2025-06-01T00:00:00Z' },
    { kind: 'content', slug: 'draft', title: 'Draft', category_code: 'news' },
    { kind: 'content', slug: 'soon', title: 'Soon', category_code: 'news', status: 'published', published_at: '2025-07-01T00:00:00Z' },
    { kind: 'content', slug: 'blog-draft', title: 'Blog draft', category_code: 'blog' },
  ]
  await importRecords(ctx, { tenantCode: 'acme', records: records.map((record, i) => ({ record, location: String(i) })) })
  await importRecords(ctx, { tenantCode: 'other', records: [{ record: { kind: 'category', code: 'theirs', name: 'Theirs' }, location: '0' }] })
  for await (const record of exportRecords(ctx, 'acme')) {
    const named = record as { id?: string; slug?: string; code?: string }
    if (named.id !== undefined) ids[named.slug ?? named.code ?? ''] = named.id
  }
})

test.after(async () => {
  // Hint: whatever `before` got to; a throw here would end the whole test run.
  await server?.close()
})

const get = (path: string, headers: Record<string, string> = {}) => server.request('GET', path, { headers: { 'x-api-key': key, ...headers } })
const id = (name: string) => ids[name] ?? 'missing'
const token = async (target: { kind: 'content' | 'category'; id: string }, tenantCode = 'acme', ttlMs?: number) =>
  createPreviewToken(server.frontdesk.context, { tenantCode, target, ...(ttlMs === undefined ? {} : { ttlMs }) })

test('a content token in X-Preview-Token opens its draft by id and slug, uncached', async () => {
  const { token: preview } = await token({ kind: 'content', id: id('draft') })
  const byId = await get(`/v1/cms/contents/${id('draft')}`, { 'x-preview-token': preview })
  assert.is(byId.status, 200)
  assert.is(byId.body.slug, 'draft')
  assert.is(byId.body.published_at, null)
  assert.is(byId.headers['cache-control'], 'no-store')
  assert.is(byId.headers.etag, undefined)
  assert.match(String(byId.headers.vary), /X-Preview-Token/)
  const bySlug = await get(`/v1/cms/contents/slug/draft?preview_token=${preview}`)
  assert.equal(bySlug.body, byId.body)
  assert.is((await get(`/v1/cms/contents/${id('soon')}`, { 'x-preview-token': preview })).status, 404)
  assert.is((await get(`/v1/cms/contents/${id('draft')}`)).status, 404)
})

test('a category token opens its items in detail and in a list filtered to it, and nothing else', async () => {
  const { token: preview } = await token({ kind: 'category', id: id('news') })
  const headers = { 'x-preview-token': preview }
  assert.is((await get(`/v1/cms/contents/${id('soon')}`, headers)).status, 200)
  assert.is((await get(`/v1/cms/contents/slug/draft`, headers)).status, 200)
  assert.is((await get(`/v1/cms/contents/${id('blog-draft')}`, headers)).status, 404)
  const list = await get('/v1/cms/contents?category_code=news&sort=title:asc', headers)
  assert.is(list.status, 200)
  assert.equal(list.body.items.map((i: { slug: string }) => i.slug), ['draft', 'live', 'soon'])
  assert.is(list.headers['cache-control'], 'no-store')
  const query = await get(`/v1/cms/contents?category_id=${id('news')}&sort=title:asc&preview_token=${preview}`)
  assert.equal(query.body.items.map((i: { slug: string }) => i.slug), ['draft', 'live', 'soon'])
  const unfiltered = await get('/v1/cms/contents', headers)
  assert.equal(unfiltered.body.items.map((i: { slug: string }) => i.slug), ['live'])
  const paged = await get('/v1/cms/contents?category_code=news&sort=title:asc&limit=2', headers)
  const next = await get(`/v1/cms/contents?category_code=news&sort=title:asc&limit=2&cursor=${paged.body.pagination.next_cursor}`, headers)
  assert.equal(next.body.items.map((i: { slug: string }) => i.slug), ['soon'])
})

test('preview requests never change what requests without a token see', async () => {
  const before = await get('/v1/cms/contents?category_code=news')
  const { token: preview } = await token({ kind: 'category', id: id('news') })
  await get('/v1/cms/contents?category_code=news', { 'x-preview-token': preview })
  await get(`/v1/cms/contents/${id('draft')}`, { 'x-preview-token': preview })
  const after = await get('/v1/cms/contents?category_code=news')
  assert.equal(after.body, before.body)
  assert.is(after.headers.etag, before.headers.etag)
  assert.is((await get(`/v1/cms/contents/${id('draft')}`)).status, 404)
})

test('malformed, forged, foreign and revoked tokens are 401 PREVIEW_TOKEN_INVALID', async () => {
  const { token: good, record } = await token({ kind: 'content', id: id('draft') })
  const forged = good.slice(0, 8) + (good[8] === 'a' ? 'b' : 'a') + good.slice(9)
  const foreign = (await token({ kind: 'category', id: 'theirs' }, 'other')).token
  for (const bad of ['garbage', 'fdv_', forged, foreign, good.replace('fdv_', 'fdk_')]) {
    const res = await get(`/v1/cms/contents/${id('draft')}`, { 'x-preview-token': bad })
    assert.is(res.status, 401, bad)
    assert.is(res.body.error.code, 'PREVIEW_TOKEN_INVALID', bad)
    assert.is((await get(`/v1/cms/contents?preview_token=${encodeURIComponent(bad)}`)).body.error.code, 'PREVIEW_TOKEN_INVALID')
  }
  await revokePreviewToken(server.frontdesk.context, record.id)
  assert.is((await get(`/v1/cms/contents/${id('draft')}`, { 'x-preview-token': good })).body.error.code, 'PREVIEW_TOKEN_INVALID')
})

test('an expired token is 401 PREVIEW_TOKEN_EXPIRED', async () => {
  const { token: preview } = await token({ kind: 'content', id: id('draft') }, 'acme', 60_000)
  assert.is((await get(`/v1/cms/contents/${id('draft')}`, { 'x-preview-token': preview })).status, 200)
  now = START + 60_000
  try {
    const res = await get(`/v1/cms/contents/${id('draft')}`, { 'x-preview-token': preview })
    assert.is(res.status, 401)
    assert.is(res.body.error.code, 'PREVIEW_TOKEN_EXPIRED')
  } finally {
    now = START
  }
})

test('a token still needs a key with cms:read', async () => {
  const { token: preview } = await token({ kind: 'content', id: id('draft') })
  const none = await server.request('GET', `/v1/cms/contents/${id('draft')}`, { headers: { 'x-preview-token': preview } })
  assert.is(none.status, 401)
  assert.is(none.body.error.code, 'UNAUTHORIZED')
  const inquiryKey = await server.key('acme', ['inquiry:create'])
  const forbidden = await server.request('GET', `/v1/cms/contents/${id('draft')}`, { headers: { 'x-api-key': inquiryKey, 'x-preview-token': preview } })
  assert.is(forbidden.status, 403)
})

test.run()
