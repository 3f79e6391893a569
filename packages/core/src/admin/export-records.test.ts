import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import type { AdminFixture } from '../../test/util/admin-fixture.ts'
import { collect, lines, openAdminFixture, rejection, reimport } from '../../test/util/admin-fixture.ts'
import { exportRecords } from './export-records.ts'
import { importRecords } from './import-records.ts'
import { setContentStatus } from './set-content-status.ts'

const test = suite<{ f: AdminFixture }>('exportRecords', {} as { f: AdminFixture })
test.before.each(async (context) => {
  context.f = await openAdminFixture()
  await context.f.tenant('acme')
})
test.after.each(async (context) => {
  await context.f.close()
})

const sample = [
  { kind: 'inquiry_category', code: 'general', name: 'General', description: 'Anything', message: 'Thanks!' },
  { kind: 'category', code: 'news', name: 'News', sort: 1, fields: [{ name: 'price', type: 'number' }, { name: 'area', type: 'select', options: ['east', 'west'] }, { name: 'on_sale', type: 'boolean' }, { name: 'launch', type: 'date' }] },
  { kind: 'category', code: 'blog', name: 'Blog', active: false },
  { kind: 'tag', name: 'unused' },
  { kind: 'content', slug: 'hello', title: 'Hello', category_code: 'news', status: 'published', published_at: '2025-06-01T09:00:00+09:00', author_name: 'Ann', tags: ['release', '新着'], summary: 'S', body: '<p>B</p>', content: { price: 3, area: 'east', on_sale: false, launch: '2025-07-01' }, meta: { og_title: 'OG', robots: 'noindex' } },
  { kind: 'content', slug: 'office-move', title: 'オフィス移転のお知らせ', category_code: 'news', body: '<p>本社を移転します。</p>', tags: ['新着'] },
  { kind: 'content', slug: 'scheduled', title: 'Later', category_code: 'blog', status: 'published', published_at: '2030-01-01T00:00:00Z' },
]

test('every kind is exported, dependencies first, contents of every status with fields by name', async ({ f }) => {
  await importRecords(f.ctx, { tenantCode: 'acme', records: lines(sample) })
  const out = await f.dump()
  assert.equal(out.map((r) => r.kind), ['category', 'category', 'tag', 'tag', 'tag', 'content', 'content', 'content', 'inquiry_category'])
  const hello = out.find((r) => r.kind === 'content' && r.slug === 'hello')
  assert.ok(hello && hello.kind === 'content')
  assert.equal(hello.content, { price: 3, area: 'east', on_sale: false, launch: '2025-07-01' })
  assert.equal(hello.tags, ['release', '新着'])
  assert.is(hello.published_at, '2025-06-01T00:00:00.000Z')
  assert.equal(hello.meta, { og_title: 'OG', og_description: '', robots: 'noindex' })
  const draft = out.find((r) => r.kind === 'content' && r.slug === 'office-move')
  assert.ok(draft && draft.kind === 'content')
  assert.is(draft.status, 'draft')
  assert.not.ok('published_at' in draft, 'a draft without a date has none in the export')
})

test('export → import into a fresh tenant → export gives the same records', async ({ f }) => {
  await importRecords(f.ctx, { tenantCode: 'acme', records: lines(sample) })
  const first = await f.dump('acme')
  await f.tenant('copy')
  await importRecords(f.ctx, { tenantCode: 'copy', records: reimport(first) })
  assert.equal(await f.dump('copy'), first)
})

test('re-importing an export into the same tenant changes nothing, versions included', async ({ f }) => {
  await importRecords(f.ctx, { tenantCode: 'acme', records: lines(sample) })
  await setContentStatus(f.ctx, 'acme', 'office-move', 'published')
  const before = await f.contents()
  const out = await f.dump()
  f.clock.advance(86_400_000)
  const summary = await importRecords(f.ctx, { tenantCode: 'acme', records: reimport(out) })
  assert.equal(summary.contents, { created: 0, updated: 0, unchanged: 3 })
  assert.equal(summary.categories, { created: 0, updated: 0, unchanged: 2 })
  assert.equal(summary.tags, { created: 0, updated: 0, unchanged: 3 })
  assert.equal(summary.inquiry_categories, { created: 0, updated: 0, unchanged: 1 })
  assert.equal(await f.contents(), before)
})

test('contents are exported page by page, every item exactly once', async ({ f }) => {
  const items = Array.from({ length: 1234 }, (_, i) => ({ kind: 'content', slug: `item-${i}`, title: `Item ${i}`, category_code: 'blog' }))
  await importRecords(f.ctx, { tenantCode: 'acme', records: lines([{ kind: 'category', code: 'blog', name: 'Blog' }, ...items]) })
  const slugs = (await f.dump()).flatMap((r) => (r.kind === 'content' ? [r.slug] : []))
  assert.is(slugs.length, 1234)
  assert.is(new Set(slugs).size, 1234)
})

test('an unknown tenant is named', async ({ f }) => {
  assert.is((await rejection(collect(exportRecords(f.ctx, 'nope')))).message, 'Unknown tenant: nope')
})

test.run()
