// The response cache and ETags against no cache, over random sequences of writes, time and
// conditional requests of two tenants with the same content: a 304 exactly when the body the
// request would get is byte for byte the one the presented ETag came with, for the same tenant;
// otherwise the body is that one — the reply of a server without a cache, or (CONTRACT §4) the
// reply it gave to the same request less than 60 s ago with nothing written since (see
// `ReplyCacheModel`). `FRONTDESK_FUZZ_RUNS` / `FRONTDESK_FUZZ_SEED` (or `npm run fuzz`) run more.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openSqliteStore } from '@frontdesk/adapter-sqlite'
import type { Frontdesk, Tenant } from '@frontdesk/core'
import { createApiKey, createFrontdesk, createPreviewToken, importRecords } from '@frontdesk/core'
import type { Outcome } from '@frontdesk/core/testing'
import { assertWithCause, fuzzOptions, ReplyCacheModel, T0 } from '@frontdesk/core/testing'
import type { HttpResponse } from '@frontdesk/http'
import { handle } from '@frontdesk/http'
import fc from 'fast-check'
import { test } from 'uvu'
import * as assert from 'uvu/assert'

const { runs, seed, path: replay } = fuzzOptions(60)
const TENANTS: Tenant[] = [
  { id: 'ten_ea', code: 'ea', name: 'A', created_at: T0 },
  { id: 'ten_eb', code: 'eb', name: 'B', created_at: T0 },
]
const PATHS = [
  '/v1/cms/contents', '/v1/cms/contents?limit=2', '/v1/cms/contents?sort=title:asc', '/v1/cms/contents?category_code=blog',
  '/v1/cms/contents/cnt_0', '/v1/cms/contents/cnt_1', '/v1/cms/contents/slug/item-2', '/v1/cms/contents/cnt_9',
  '/v1/cms/categories', '/v1/cms/categories/cat_blog',
]

type Step =
  /**
   * Items written to a tenant (titles from two, so that a body can come back to what it was),
   * published `seconds` from now: some come due while a reply of before is cached.
   */
  | { kind: 'write'; tenant: 0 | 1; items: { n: number; title: 0 | 1; category: 'cat_news' | 'cat_blog'; draft: boolean; seconds: number }[] }
  | { kind: 'category'; tenant: 0 | 1; active: boolean }
  /** The clock moves by `ms`, or (null) to the next item's publication, exactly. */
  | { kind: 'time'; ms: number | null }
  /**
   * A GET, with an `If-None-Match` of: none, `*`, or an ETag seen before — the last one of this
   * request, of the same request of the other tenant, or any — maybe weak, maybe in a list.
   */
  | { kind: 'get'; tenant: 0 | 1; path: number; match: 'none' | 'star' | { from: 'same' | 'other tenant' | number; weak: boolean; list: boolean } }
  /** The draft previewed with a token (never cached, never a 304). */
  | { kind: 'preview'; match: number }

const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('write' as const),
      tenant: fc.constantFrom<0 | 1>(0, 1),
      items: fc.array(
        fc.record({ n: fc.nat(5), title: fc.constantFrom<0 | 1>(0, 1), category: fc.constantFrom<'cat_news' | 'cat_blog'>('cat_news', 'cat_blog'), draft: fc.boolean(), seconds: fc.constantFrom(-600, 0, 30, 60, 90) }),
        { minLength: 1, maxLength: 3 },
      ),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('category' as const), tenant: fc.constantFrom<0 | 1>(0, 1), active: fc.boolean() }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('time' as const), ms: fc.constantFrom(1_000, 30_000, 59_999, 60_000, 61_000, null, null) }) },
  {
    weight: 10,
    arbitrary: fc.record({
      kind: fc.constant('get' as const),
      tenant: fc.constantFrom<0 | 1>(0, 1),
      path: fc.nat(PATHS.length - 1),
      match: fc.oneof(
        { arbitrary: fc.constant<'none'>('none'), weight: 2 },
        { arbitrary: fc.constant<'star'>('star'), weight: 1 },
        {
          arbitrary: fc.record({
            from: fc.oneof({ arbitrary: fc.constant<'same'>('same'), weight: 4 }, { arbitrary: fc.constant<'other tenant'>('other tenant'), weight: 2 }, { arbitrary: fc.nat(), weight: 2 }),
            weak: fc.boolean(),
            list: fc.boolean(),
          }),
          weight: 6,
        },
      ),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('preview' as const), match: fc.nat() }) },
)

interface World {
  clock: { ms: number; now(): number }
  /** The server under test: its response cache and memos as they are. */
  cached: Frontdesk
  /** The same store without a response cache or any memo of core. */
  fresh: Frontdesk
  keys: [string, string]
  preview: string
  model: ReplyCacheModel
  /** Every ETag received, with the tenant and the bytes it came with. */
  etags: Map<string, { tenant: number; bytes: string }>
  /** The ETag given for each tenant and body. */
  byBody: Map<string, string>
  /** The last ETag received for each tenant and path. */
  last: Map<string, string>
  /** The last two GETs, asked again (revalidating) after each write and step of time. */
  recent: Extract<Step, { kind: 'get' }>[]
}

function request(world: World, tenant: 0 | 1, path: string, headers: Record<string, string> = {}) {
  return { method: 'GET', url: path, headers: { 'x-api-key': world.keys[tenant], ...headers }, body: null, secure: true }
}

/** A request's answer as bytes (or its refusal's status and code), for the cache model. */
function answer(response: HttpResponse): Outcome {
  if (response.status !== 200) return { ok: false, error: `${response.status} ${response.body.toString('utf8').replace(/"request_id":"[^"]*"/, '')}` }
  return { ok: true, json: response.body.toString('utf8'), value: null }
}

async function play(steps: Step[]): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'frontdesk-etags-'))
  const store = openSqliteStore({ path: join(dir, 'etags.db') })
  const clock = { ms: Date.parse(T0), now: () => clock.ms }
  const options = { store, clock, defaultRateLimit: 0, failedAuthRate: 0 }
  const cached = createFrontdesk(options)
  const fresh = createFrontdesk({ ...options, memo: false })
  try {
    for (const tenant of TENANTS) await store.createTenant(tenant)
    const keys = await Promise.all(TENANTS.map(async (tenant) => (await createApiKey(cached.context, { tenantCode: tenant.code, name: 'reader', permissions: ['cms:read'], rateLimit: 0 })).key))
    // Both tenants alike: items 0-3 published, 4 due in 30 s, 6 in 90 s, 7 in 150 s; tenant A's draft 5.
    const seconds = [-600, -600, -600, -600, 30, 0, 90, 150]
    for (const tenant of [0, 1] as const) {
      const items = [0, 1, 2, 3, 4, 6, 7].map((n) => ({ n, title: 0 as const, category: n % 2 === 0 ? ('cat_news' as const) : ('cat_blog' as const), draft: false, seconds: seconds[n] ?? 0 }))
      await write(cached, tenant, items, clock.ms, true)
    }
    await write(cached, 0, [{ n: 5, title: 0, category: 'cat_news', draft: true, seconds: 0 }], clock.ms)
    const { token } = await createPreviewToken(cached.context, { tenantCode: 'ea', target: { kind: 'content', id: 'cnt_5' }, ttlMs: 7 * 24 * 3_600_000 })
    const world: World = { clock, cached, fresh, keys: keys as [string, string], preview: token, model: new ReplyCacheModel(cached.context.memo), etags: new Map(), byBody: new Map(), last: new Map(), recent: [] }
    for (const [i, s] of steps.entries()) {
      const where = `step ${i} (${JSON.stringify(s)})`
      await playStep(world, s, where)
      if (s.kind === 'get') world.recent = [...world.recent.slice(-1), s]
      if (s.kind === 'write' || s.kind === 'category' || s.kind === 'time') {
        for (const again of world.recent) await get(world, { ...again, match: { from: 'same', weak: false, list: false } }, `${where}, then ${JSON.stringify(again)} revalidated`)
      }
    }
  } finally {
    await store.close()
    rmSync(dir, { recursive: true, force: true })
  }
}

async function write(frontdesk: Frontdesk, tenant: 0 | 1, items: Extract<Step, { kind: 'write' }>['items'], now: number, categories = false): Promise<void> {
  const records: Record<string, unknown>[] = categories
    ? [{ kind: 'category', id: 'cat_news', code: 'news', name: 'News' }, { kind: 'category', id: 'cat_blog', code: 'blog', name: 'Blog' }]
    : []
  for (const item of items) {
    records.push({
      kind: 'content', id: `cnt_${item.n}`, slug: `item-${item.n}`, title: ['Alpha', 'Beta'][item.title], category_id: item.category,
      status: item.draft ? 'draft' : 'published', published_at: new Date(now + item.seconds * 1_000).toISOString(), body: '<p>Same text</p>',
    })
  }
  await importRecords(frontdesk.context, { tenantCode: TENANTS[tenant]?.code ?? '', records: records.map((record, i) => ({ record, location: `records[${i}]` })) })
}

async function playStep(world: World, s: Step, where: string): Promise<void> {
  switch (s.kind) {
    case 'write':
      return write(world.cached, s.tenant, s.items, world.clock.ms)
    case 'category': {
      const record = { kind: 'category', id: 'cat_blog', code: 'blog', name: 'Blog', active: s.active }
      await importRecords(world.cached.context, { tenantCode: TENANTS[s.tenant]?.code ?? '', records: [{ record, location: 'records[0]' }] })
      return
    }
    case 'time':
      world.clock.ms = s.ms === null ? await nextPublication(world) : world.clock.ms + s.ms
      return
    case 'preview': {
      const seen = [...world.etags.keys()]
      const match = seen[s.match % Math.max(1, seen.length)] ?? '*'
      const response = await handle(world.cached, request(world, 0, '/v1/cms/contents/cnt_5', { 'x-preview-token': world.preview, 'if-none-match': match }))
      assert.is(response.status, 200, `${where}: a preview is never a 304`)
      assert.is(response.headers['cache-control'], 'no-store', where)
      assert.is(response.headers['etag'], undefined, `${where}: a preview has no ETag`)
      return
    }
    case 'get':
      return get(world, s, where)
  }
}

async function get(world: World, s: Extract<Step, { kind: 'get' }>, where: string): Promise<void> {
  const path = PATHS[s.path] ?? '/v1/cms/contents'
  const seen = [...world.etags.keys()]
  let header: string | undefined
  if (s.match === 'star') header = '*'
  else if (s.match !== 'none') {
    const { from } = s.match
    const etag = from === 'same' ? world.last.get(`${s.tenant} ${path}`) : from === 'other tenant' ? world.last.get(`${1 - s.tenant} ${path}`) : seen[from % Math.max(1, seen.length)]
    if (etag !== undefined) header = `${s.match.weak ? 'W/' : ''}${etag}`
    if (header !== undefined && s.match.list) header = `"unknown", ${header}`
  }
  const response = await handle(world.cached, request(world, s.tenant, path, header === undefined ? {} : { 'if-none-match': header }))
  const tenantId = TENANTS[s.tenant]?.id ?? ''
  const expected = await world.model.expect(`${tenantId} ${path}`, await world.cached.context.store.revision(tenantId), world.clock.now(), async () =>
    answer(await handle(world.fresh, request(world, s.tenant, path))))
  const label = `${where}: GET ${path} of tenant ${s.tenant}, If-None-Match ${header ?? '(none)'}`
  if (!expected.ok) {
    assert.is(answer(response).ok ? 'a reply' : (answer(response) as { error: string }).error, expected.error, label)
    assert.is(response.headers['etag'], undefined, `${label}: a refusal has no ETag`)
    return
  }
  const etag = response.headers['etag']
  assert.type(etag, 'string', `${label}: a public reply has an ETag`)
  assert.is(response.headers['cache-control'], 'private, max-age=60', label)
  // The ETag names exactly this tenant's bytes: the same bytes always get it, nothing else does.
  const bodyKey = `${s.tenant}\u0000${expected.json}`
  const named = world.byBody.get(bodyKey)
  if (named !== undefined) assert.is(etag, named, `${label}: the same tenant's same bytes get the same ETag`)
  const known = world.etags.get(etag ?? '')
  if (known !== undefined) assert.equal(known, { tenant: s.tenant, bytes: expected.json }, `${label}: an ETag names one tenant's one body`)
  const due = header === '*' || (header !== undefined && header.split(',').some((tag) => {
    const held = world.etags.get(tag.trim().replace(/^W\//, ''))
    return held !== undefined && held.tenant === s.tenant && held.bytes === expected.json
  }))
  if (due) {
    assert.is(response.status, 304, `${label}: the body is byte for byte the one the ETag came with`)
    assert.is(response.body.length, 0, label)
  } else {
    assert.is(response.status, 200, `${label}: no ETag presented came with this body for this tenant`)
    assert.is(response.body.toString('utf8'), expected.json, `${label}: the body`)
  }
  if (etag !== undefined) {
    world.etags.set(etag, { tenant: s.tenant, bytes: expected.json })
    world.byBody.set(bodyKey, etag)
    world.last.set(`${s.tenant} ${path}`, etag)
  }
}

async function nextPublication(world: World): Promise<number> {
  let next = Number.POSITIVE_INFINITY
  for (const tenant of TENANTS) {
    const items = await world.cached.context.store.listContents(tenant.id, { visibility: { kind: 'all' }, sort: { key: 'published_at', direction: 'asc' }, limit: 100 })
    for (const item of items) {
      const at = item.published_at === null ? Number.NaN : Date.parse(item.published_at)
      if (at > world.clock.ms && at < next) next = at
    }
  }
  return Number.isFinite(next) ? next : world.clock.ms + 60_000
}

test(`a 304 exactly when the body would be byte for byte the one the ETag came with, for the same tenant (${runs} runs, seed ${seed})`, async () => {
  await assertWithCause(fc.asyncProperty(fc.array(step, { minLength: 5, maxLength: 40, size: 'max' }), play), { numRuns: runs, seed, ...(replay === undefined ? {} : { path: replay }) })
})

test.run()
