import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { createFrontdesk } from '../app/frontdesk.ts'
import type { Principal } from '../auth/principal.ts'
import { ValidationError } from '../errors/frontdesk-error.ts'
import type { SearchPort } from '../port/search.ts'
import type { Store } from '../port/store.ts'
import { aCategory, aContent, anApiKey, aTag, aTenant } from '../testing/fixtures.ts'
import { createMemoryStore } from '../testing/memory/memory-store.ts'
import { createScanSearch } from '../testing/search/scan-search.ts'
import type { SearchResponseBody } from './search-contents.ts'

interface World {
  store: Store
  search: SearchPort
  now: number
  principal: Principal
}

const test = suite<World>('searchContents')

test.before.each(async (ctx) => {
  ctx.store = createMemoryStore()
  ctx.search = createScanSearch(ctx.store)
  ctx.now = Date.parse('2025-07-01T00:00:00.000Z')
  const tenant = aTenant('t1')
  await ctx.store.createTenant(tenant)
  ctx.principal = { tenant, key: anApiKey('t1', 'key_1') }
  const shop = aCategory('t1', 'shop', {
    fields: [
      { id: 'f_price', name: 'price', type: 'number', required: false },
      { id: 'f_area', name: 'area', type: 'select', options: ['tokyo', 'osaka'], required: false },
    ],
  })
  await ctx.store.transaction(async (tx) => {
    await tx.putCategory(shop)
    await tx.putTag(aTag('t1', 'tag_new', 'new'))
    await tx.putContent(aContent('t1', 'c1', 'shop', {
      title: '<script>Office</script> relocation',
      summary: 'We move the office to Tokyo.',
      body: '<p>Details of the <b>office</b> move.</p>',
      tags: [aTag('t1', 'tag_new', 'new')],
      fields: { f_price: 12, f_area: 'tokyo' },
      author_name: 'Ann',
    }))
    await tx.putContent(aContent('t1', 'c2', 'shop', { title: 'Office hours', published_at: '2025-07-02T00:00:00.000Z' }))
    await tx.putContent(aContent('t1', 'c3', 'shop', { title: 'オフィス移転のお知らせ', summary: '新しいオフィスへ移転します' }))
  })
})

test.after.each(async (ctx) => {
  await ctx.store.close()
})

function app(ctx: World) {
  return createFrontdesk({ store: ctx.store, search: ctx.search, clock: { now: () => ctx.now } })
}

test('a search replies with items, highlights, custom fields and pagination, never cached', async (ctx) => {
  const reply = await app(ctx).search(ctx.principal, { query: 'office', size: 1 })
  const body = reply.body as SearchResponseBody
  assert.equal(reply.cache, { kind: 'no-store' })
  assert.equal(body.pagination, { total: 1, from: 0, size: 1, has_more: false })
  const [item] = body.items
  assert.ok(item)
  assert.equal(Object.keys(item).sort(), ['author_name', 'category_id', 'custom_fields', 'highlight', 'id', 'published_at', 'score', 'slug', 'tags', 'title'])
  assert.is(item.id, 'c1')
  assert.equal(item.tags, ['new'])
  assert.equal(item.custom_fields, { custom_price: 12, custom_area: 'tokyo' })
  assert.ok(item.score > 0)
  assert.equal(item.highlight.title, ['&lt;script&gt;<em>Office</em>&lt;/script&gt; relocation'])
  assert.equal(item.highlight.search_text, ['We move the <em>office</em> to Tokyo.', 'Details of the <em>office</em> move.'])
})

test('a scheduled item appears by itself when the clock reaches its time', async (ctx) => {
  const frontdesk = app(ctx)
  assert.is((await frontdesk.search(ctx.principal, { query: 'office' })).body.pagination.total, 1)
  ctx.now = Date.parse('2025-07-02T00:00:00.000Z')
  const body = (await frontdesk.search(ctx.principal, { query: 'office', sort: 'published_at:desc' })).body
  assert.equal(body.items.map((item) => item.id), ['c2', 'c1'])
})

test('Japanese queries match and highlight words inside unspaced text', async (ctx) => {
  const body = (await app(ctx).search(ctx.principal, { query: '移転' })).body
  assert.equal(body.items.map((item) => item.id), ['c3'])
  assert.equal(body.items[0]?.highlight.title, ['オフィス<em>移転</em>のお知らせ'])
  assert.equal(body.items[0]?.highlight.search_text, ['新しいオフィスへ<em>移転</em>します'])
})

test('filters and has_more follow the request', async (ctx) => {
  ctx.now = Date.parse('2025-07-03T00:00:00.000Z')
  const frontdesk = app(ctx)
  const filtered = (await frontdesk.search(ctx.principal, { query: 'office', filter: { custom_price: { gte: 10 }, custom_area: 'tokyo' } })).body
  assert.equal(filtered.items.map((item) => item.id), ['c1'])
  const page = (await frontdesk.search(ctx.principal, { query: 'office', size: 1, sort: 'published_at:asc' })).body
  assert.equal(page.pagination, { total: 2, from: 0, size: 1, has_more: true })
})

test('an unknown category or a query without words finds nothing, without an error', async (ctx) => {
  const frontdesk = app(ctx)
  assert.is((await frontdesk.search(ctx.principal, { query: 'office', category_id: 'nope' })).body.pagination.total, 0)
  assert.is((await frontdesk.search(ctx.principal, { query: '!!!' })).body.items.length, 0)
})

test('an item found again shows every change made since: texts, tags, deletion', async (ctx) => {
  const frontdesk = app(ctx)
  const search = async () => (await frontdesk.search(ctx.principal, { query: 'office' })).body.items
  assert.equal((await search()).map((item) => item.highlight.title), [['&lt;script&gt;<em>Office</em>&lt;/script&gt; relocation']])
  assert.equal((await search())[0]?.tags, ['new'])
  const c1 = await ctx.store.getContent('t1', 'c1')
  assert.ok(c1)
  await ctx.store.transaction(async (tx) => {
    await tx.putContent({ ...c1, title: 'Office moved', body: '<p>The office is elsewhere now.</p>', version: c1.version + 1 })
    await tx.putTag(aTag('t1', 'tag_new', 'renamed'))
  })
  const [changed] = await search()
  assert.equal(changed?.highlight, { title: ['<em>Office</em> moved'], search_text: ['We move the <em>office</em> to Tokyo.', 'The <em>office</em> is elsewhere now.'] })
  assert.equal(changed?.tags, ['renamed'])
  await ctx.store.transaction((tx) => tx.deleteContent('t1', 'c1'))
  assert.equal(await search(), [])
})

test('an invalid body is a ValidationError', async (ctx) => {
  const error = await app(ctx).search(ctx.principal, { query: '', extra: true }).catch((e: unknown) => e)
  assert.instance(error, ValidationError)
  assert.equal((error as ValidationError).details?.map((d) => d.field), ['extra', 'query'])
})

test('without a search engine configured, search fails with a clear error', async (ctx) => {
  const error = await createFrontdesk({ store: ctx.store }).search(ctx.principal, { query: 'x' }).catch((e: unknown) => e)
  assert.instance(error, Error)
  assert.match((error as Error).message, /Search is not configured/)
})

test.run()
