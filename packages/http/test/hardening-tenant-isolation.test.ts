// Tenant isolation, tested as an attacker holding tenant A's key would probe it: two tenants
// share every id, slug, tag name, category code and field name; B's data carries a marker
// string that must never appear in anything A receives — list (random filters, sorts and
// cursors, B's cursors included), detail, slug, categories, search, cache hits — nor may ETags,
// preview tokens or idempotency keys cross from one tenant to the other.
import * as fc from 'fast-check'
import * as assert from 'uvu/assert'
import { createPreviewToken, importRecords, listInquiries } from '@frontdesk/core'
import type { RawRequest } from './util/keep-alive-client.ts'
import { keepAliveClient } from './util/keep-alive-client.ts'
import type { TestResponse, TestServer } from './util/test-server.ts'
import { behaviourSuite, startTestServer, storeOf } from './util/test-server.ts'
import { fuzzOptions } from '@frontdesk/core/testing'

const B_MARKER = 'bravoleak'
const RUNS = Number(process.env['FRONTDESK_FUZZ_RUNS'] ?? 500)
const ITEMS = 12

interface World {
  server: TestServer
  client: ReturnType<typeof keepAliveClient>
  keyA: string
  keyB: string
  /** Cursors seen in any tenant's responses: requests replay them with the other key too. */
  cursors: string[]
}

const test = await behaviourSuite<World>('tenant isolation', import.meta.url)

const pad = (i: number) => String(i).padStart(2, '0')

/** One tenant's catalogue: the same ids, slugs, codes, tag and field names in both, different text and visibility. */
function catalogue(marker: string, tenant: 'a' | 'b'): unknown[] {
  const fields = [
    { id: 'fld_topic', name: 'topic', type: 'text' },
    { id: 'fld_score', name: 'score', type: 'number' },
    { id: 'fld_kind', name: 'kind', type: 'select', options: ['x', 'y'] },
  ]
  const records: unknown[] = [
    { kind: 'category', id: 'cat_news', code: 'news', name: `${marker} News`, description: `${marker} about news`, sort: tenant === 'a' ? 1 : 2, fields },
    { kind: 'category', id: 'cat_blog', code: 'blog', name: `${marker} Blog`, description: `${marker} blog`, sort: tenant === 'a' ? 2 : 1, fields },
    { kind: 'tag', id: 'tag_red', name: 'red' },
    { kind: 'tag', id: 'tag_blue', name: 'blue' },
    { kind: 'inquiry_category', code: 'general', name: `${marker} General`, message: `${marker} thanks` },
  ]
  if (tenant === 'b') {
    records.push({ kind: 'category', id: 'cat_archive', code: 'archive', name: `${marker} Archive`, fields })
    records.push({ kind: 'tag', id: 'tag_green', name: 'green' })
  }
  const count = tenant === 'a' ? ITEMS : ITEMS + 4
  for (let i = 1; i <= count; i++) {
    const published = tenant === 'a' ? i % 3 !== 0 : i % 3 !== 1
    const words = tenant === 'a' ? 'office relocation オフィス移転のお知らせ' : 'office relocation zephyr オフィス移転のお知らせ'
    records.push({
      kind: 'content',
      id: `cnt_${pad(i)}`,
      slug: `item-${pad(i)}`,
      title: `${marker} title ${i} ${words}`,
      category_code: i > ITEMS ? 'archive' : i % 2 === 0 ? 'news' : 'blog',
      status: published ? 'published' : 'draft',
      ...(published ? { published_at: `2025-0${tenant === 'a' ? 1 : 2}-${pad(i)}T00:00:00Z` } : {}),
      author_name: `${marker} author`,
      tags: tenant === 'a' ? (i % 2 === 0 ? ['red'] : ['red', 'blue']) : i % 2 === 0 ? ['blue', 'green'] : ['red'],
      summary: `${marker} summary ${i} office`,
      body: `<p>${marker} body ${i} relocation <b>office</b></p>`,
      content: { topic: `${marker} topic ${i}`, score: tenant === 'a' ? i : 100 + i, kind: i % 2 === 0 ? 'x' : 'y' },
      meta: { og_title: `${marker} og`, og_description: `${marker} description`, extra: `${marker} extra` },
    })
  }
  return records
}

test.before(async (world) => {
  world.server = await startTestServer({ store: storeOf(import.meta.url), failedAuthRate: 0 })
  await world.server.tenant('alpha')
  await world.server.tenant('bravo')
  const ctx = world.server.frontdesk.context
  for (const [code, marker, tenant] of [['alpha', 'alphaok', 'a'], ['bravo', B_MARKER, 'b']] as const) {
    const records = catalogue(marker, tenant).map((record, i) => ({ record, location: `records[${i}]` }))
    await importRecords(ctx, { tenantCode: code, records })
  }
  const all = ['cms:*', 'inquiry:create']
  world.keyA = await world.server.key('alpha', all, { rateLimit: 0 })
  world.keyB = await world.server.key('bravo', all, { rateLimit: 0 })
  world.client = keepAliveClient(world.server.url, world.server.cert)
  world.cursors = []
})

test.after(async (world) => {
  // Hint: whatever `before` got to; a throw here would end the whole test run.
  world.client?.close()
  await world.server?.close()
})

const ids = fc.constantFrom(...Array.from({ length: ITEMS + 5 }, (_, i) => `cnt_${pad(i + 1)}`), 'cat_news', 'tag_red', 'unknown')
const categoryIds = fc.constantFrom('cat_news', 'cat_blog', 'cat_archive', 'cat_none')
const tagNames = fc.subarray(['red', 'blue', 'green'], { minLength: 1 })
const sorts = fc.constantFrom('published_at:desc', 'published_at:asc', 'title:asc', 'title:desc', 'updated_at:desc', 'custom_score:asc', 'custom_topic:desc', 'custom_kind:asc')

/** A list query: any subset of the parameters; `cursor` picks from the pool at request time. */
const listQuery = fc.record(
  {
    category_code: fc.constantFrom('news', 'blog', 'archive'),
    category_id: categoryIds,
    tags: tagNames.map((names) => names.join(',')),
    tag_ids: fc.subarray(['tag_red', 'tag_blue', 'tag_green'], { minLength: 1 }).map((names) => names.join(',')),
    field_filters: fc.constantFrom('fld_kind:x', 'fld_kind:y', 'fld_score:3', 'fld_score:103', 'fld_topic:alphaok topic 2', 'fld_kind:x,fld_score:4'),
    sort: sorts,
    limit: fc.integer({ min: 1, max: 6 }).map(String),
    cursor: fc.nat(50),
  },
  { requiredKeys: [] },
)

const searchBody = fc.record(
  {
    query: fc.constantFrom('office', 'relocation', 'zephyr', 'title', 'topic', '移転', 'offic', 'relocatoin', 'summary 3', 'og'),
    category_id: categoryIds,
    tags: tagNames,
    sort: fc.constantFrom('relevance', 'published_at:desc', 'published_at:asc', 'custom_score:asc', 'custom_score:desc'),
    from: fc.integer({ min: 0, max: 8 }),
    size: fc.integer({ min: 1, max: 10 }),
    filter: fc.constantFrom({ custom_score: { gte: 3 } }, { custom_score: { lt: 105 } }, { custom_kind: 'x' }, { custom_kind: { in: ['x', 'y'] } }, { custom_topic: 'topic' }),
  },
  { requiredKeys: ['query'] },
)

type Probe =
  | { kind: 'list'; query: Record<string, string | number> }
  | { kind: 'detail'; id: string }
  | { kind: 'slug'; slug: string }
  | { kind: 'categories' }
  | { kind: 'category'; id: string }
  | { kind: 'search'; body: Record<string, unknown> }
  | { kind: 'inquiry-categories' }

const probes: fc.Arbitrary<Probe> = fc.oneof(
  { weight: 4, arbitrary: listQuery.map((query): Probe => ({ kind: 'list', query })) },
  { weight: 2, arbitrary: ids.map((id): Probe => ({ kind: 'detail', id })) },
  { weight: 2, arbitrary: fc.integer({ min: 1, max: ITEMS + 5 }).map((i): Probe => ({ kind: 'slug', slug: `item-${pad(i)}` })) },
  { weight: 1, arbitrary: fc.constant<Probe>({ kind: 'categories' }) },
  { weight: 1, arbitrary: categoryIds.map((id): Probe => ({ kind: 'category', id })) },
  { weight: 3, arbitrary: searchBody.map((body): Probe => ({ kind: 'search', body })) },
  { weight: 1, arbitrary: fc.constant<Probe>({ kind: 'inquiry-categories' }) },
)

function requestOf(probe: Probe, world: World): RawRequest {
  switch (probe.kind) {
    case 'list': {
      const params = new URLSearchParams()
      for (const [name, value] of Object.entries(probe.query)) {
        if (name !== 'cursor') params.set(name, String(value))
        else if (world.cursors.length > 0) params.set('cursor', world.cursors[Number(value) % world.cursors.length] ?? '')
      }
      return { method: 'GET', path: `/v1/cms/contents?${params}` }
    }
    case 'detail':
      return { method: 'GET', path: `/v1/cms/contents/${probe.id}` }
    case 'slug':
      return { method: 'GET', path: `/v1/cms/contents/slug/${probe.slug}` }
    case 'categories':
      return { method: 'GET', path: '/v1/cms/categories' }
    case 'category':
      return { method: 'GET', path: `/v1/cms/categories/${probe.id}` }
    case 'search':
      return { method: 'POST', path: '/v1/cms/search', headers: [['content-type', 'application/json']], body: JSON.stringify(probe.body) }
    case 'inquiry-categories':
      return { method: 'GET', path: '/v1/inquiries/categories' }
  }
}

function withKey(request: RawRequest, key: string, extra: [string, string][] = []): RawRequest {
  return { ...request, headers: [...(request.headers ?? []), ['x-api-key', key], ...extra] }
}

function collectCursor(world: World, response: TestResponse): void {
  const cursor = (response.body as { pagination?: { next_cursor?: unknown } } | null)?.pagination?.next_cursor
  if (typeof cursor === 'string' && !world.cursors.includes(cursor)) world.cursors.push(cursor)
}

function assertClean(response: TestResponse, what: string): void {
  assert.ok(response.status < 500, `${what}: status ${response.status} ${response.text.slice(0, 200)}`)
  const leaked = response.text.toLowerCase().includes(B_MARKER) || JSON.stringify(response.headers).toLowerCase().includes(B_MARKER)
  assert.not.ok(leaked, `${what} returned tenant B's data: ${response.text.slice(0, 300)}`)
}

test('generated requests with tenant A’s key never return a byte of tenant B’s data, cached or not, and ETags never cross', async (world) => {
  let served = 0
  await fc.assert(
    fc.asyncProperty(probes, async (probe) => {
      const request = requestOf(probe, world)
      const what = `${request.method} ${request.path} ${String(request.body ?? '')}`
      // B first, so that B's reply sits in the cache under the same path and query.
      const b = await world.client.send(withKey(request, world.keyB))
      collectCursor(world, b)
      const a1 = await world.client.send(withKey(request, world.keyA))
      const a2 = await world.client.send(withKey(request, world.keyA))
      assertClean(a1, what)
      assertClean(a2, `${what} (again, from the cache)`)
      collectCursor(world, a1)
      if (a1.status === 200) served++
      const etagA = a1.headers.etag
      if (typeof etagA === 'string') {
        const crossed = await world.client.send(withKey(request, world.keyB, [['if-none-match', etagA]]))
        assert.is.not(crossed.status, 304, `A's ETag got a 304 with B's key: ${what}`)
      }
      const etagB = b.headers.etag
      if (typeof etagB === 'string') {
        const crossed = await world.client.send(withKey(request, world.keyA, [['if-none-match', etagB]]))
        assert.is.not(crossed.status, 304, `B's ETag got a 304 with A's key: ${what}`)
        assertClean(crossed, `${what} with B's ETag`)
      }
    }),
    { numRuns: RUNS, includeErrorInReport: true, seed: fuzzOptions(RUNS).seed },
  )
  // The property would hold vacuously if A were never served anything.
  assert.ok(served > RUNS / 4, `only ${served} of ${RUNS} probes were served to A`)
})

test('a tenant’s own data does reach it (the marker check can fail)', async (world) => {
  const b = await world.client.send(withKey({ method: 'GET', path: '/v1/cms/contents/cnt_02' }, world.keyB))
  assert.is(b.status, 200)
  assert.ok(b.text.includes(B_MARKER))
  const search = await world.client.send(withKey({ method: 'POST', path: '/v1/cms/search', headers: [['content-type', 'application/json']], body: '{"query":"zephyr"}' }, world.keyB))
  assert.is(search.status, 200)
  assert.ok(search.body.pagination.total > 0)
  const a = await world.client.send(withKey({ method: 'POST', path: '/v1/cms/search', headers: [['content-type', 'application/json']], body: '{"query":"zephyr"}' }, world.keyA))
  assert.is(a.status, 200)
  assert.is(a.body.pagination.total, 0)
})

test('B’s preview token with A’s key is 401 PREVIEW_TOKEN_INVALID, for an id both tenants hold', async (world) => {
  const ctx = world.server.frontdesk.context
  // cnt_01 is a draft in B and published in A; cnt_03 is a draft in A and published in B.
  const { token: tokenB } = await createPreviewToken(ctx, { tenantCode: 'bravo', target: { kind: 'content', id: 'cnt_01' } })
  const { token: tokenA } = await createPreviewToken(ctx, { tenantCode: 'alpha', target: { kind: 'content', id: 'cnt_03' } })
  const { token: categoryB } = await createPreviewToken(ctx, { tenantCode: 'bravo', target: { kind: 'category', id: 'cat_news' } })
  for (const path of ['/v1/cms/contents/cnt_01', '/v1/cms/contents/cnt_03', '/v1/cms/contents/slug/item-01', '/v1/cms/contents?category_id=cat_news']) {
    for (const token of [tokenB, categoryB]) {
      const viaHeader = await world.client.send(withKey({ method: 'GET', path }, world.keyA, [['x-preview-token', token]]))
      assert.is(viaHeader.status, 401, path)
      assert.is(viaHeader.body.error.code, 'PREVIEW_TOKEN_INVALID')
      const viaQuery = await world.client.send(withKey({ method: 'GET', path: `${path}${path.includes('?') ? '&' : '?'}preview_token=${token}` }, world.keyA))
      assert.is(viaQuery.status, 401, path)
      assertClean(viaQuery, path)
    }
    const reverse = await world.client.send(withKey({ method: 'GET', path }, world.keyB, [['x-preview-token', tokenA]]))
    assert.is(reverse.status, 401, path)
  }
  // The tokens work in their own tenant (the test above could otherwise pass vacuously).
  const own = await world.client.send(withKey({ method: 'GET', path: '/v1/cms/contents/cnt_01' }, world.keyB, [['x-preview-token', tokenB]]))
  assert.is(own.status, 200)
  assert.ok(own.text.includes(B_MARKER))
})

test('the same Idempotency-Key in A and in B creates one inquiry in each; replays stay in their tenant', async (world) => {
  const ctx = world.server.frontdesk.context
  const before = [(await listInquiries(ctx, { tenantCode: 'alpha' })).length, (await listInquiries(ctx, { tenantCode: 'bravo' })).length]
  const body = JSON.stringify({ category_code: 'general', title: 'Hello', content: 'same body in both tenants', inquirer_name: 'Mallory', inquirer_email: 'm@example.com' })
  const post = (key: string) => world.client.send(withKey({ method: 'POST', path: '/v1/inquiries', headers: [['content-type', 'application/json'], ['idempotency-key', 'shared-key-1']], body }, key))
  const b1 = await post(world.keyB)
  const a1 = await post(world.keyA)
  const a2 = await post(world.keyA)
  const b2 = await post(world.keyB)
  assert.is(b1.status, 201, b1.text)
  assert.is(a1.status, 201, a1.text)
  assert.is(a1.headers['idempotent-replayed'], undefined, 'A’s first request is not a replay of B’s')
  assert.is(a2.headers['idempotent-replayed'], 'true')
  assert.is(b2.headers['idempotent-replayed'], 'true')
  assert.is.not(a1.body.id, b1.body.id)
  assert.is(a2.body.id, a1.body.id)
  assert.is(b2.body.id, b1.body.id)
  assertClean(a1, 'inquiry of A')
  assertClean(a2, 'replayed inquiry of A')
  const after = [(await listInquiries(ctx, { tenantCode: 'alpha' })).length, (await listInquiries(ctx, { tenantCode: 'bravo' })).length]
  assert.equal(after, [(before[0] ?? 0) + 1, (before[1] ?? 0) + 1])
})

test.run()
