import { aCategory, aContent, aTag } from '@frontdesk/core/testing'
import * as assert from 'uvu/assert'
import type { TestServer } from './util/test-server.ts'
import { behaviourSuite, startTestServer, storeOf } from './util/test-server.ts'

interface World {
  server: TestServer
  key: string
  tenantId: string
}

const test = await behaviourSuite<World>('POST /v1/cms/search over HTTPS', import.meta.url)

test.before(async (ctx) => {
  ctx.server = await startTestServer({ store: storeOf(import.meta.url) })
  const tenant = await ctx.server.tenant('acme')
  ctx.tenantId = tenant.id
  ctx.key = await ctx.server.key('acme', ['cms:search'])
  const id = tenant.id
  await ctx.server.store.transaction(async (tx) => {
    await tx.putCategory(aCategory(id, 'cat_news', { code: 'news', fields: [{ id: 'fld_price', name: 'price', type: 'number', required: false }] }))
    await tx.putTag(aTag(id, 'tag_ir', 'IR'))
    await tx.putContent(aContent(id, 'cnt_1', 'cat_news', {
      title: 'オフィス移転のお知らせ <b>',
      summary: '本社を東京都千代田区へ移転します。',
      body: '<p>新しいオフィスの住所は後日お知らせします。</p>',
      tags: [aTag(id, 'tag_ir', 'IR')],
      fields: { fld_price: 100 },
    }))
    await tx.putContent(aContent(id, 'cnt_2', 'cat_news', { title: 'Office relocation', slug: 'office-relocation' }))
    await tx.putCategory(aCategory(id, 'cat_blog', { code: 'blog' }))
    await tx.putContent(aContent(id, 'cnt_3', 'cat_blog', { title: 'Office party', slug: 'office-party' }))
  })
  // Another tenant with matching content, which must never show.
  const other = await ctx.server.tenant('other')
  await ctx.server.store.transaction(async (tx) => {
    await tx.putCategory(aCategory(other.id, 'cat_news'))
    await tx.putContent(aContent(other.id, 'cnt_9', 'cat_news', { title: 'オフィス移転 Office relocation' }))
  })
})

test.after(async (ctx) => {
  // Hint: whatever `before` got to; a throw here would end the whole test run.
  await ctx.server?.close()
})

const post = (ctx: World, body: unknown, key = ctx.key) => ctx.server.request('POST', '/v1/cms/search', { headers: { 'x-api-key': key }, body })

test('a search answers 200 with items and pagination, Cache-Control no-store', async (ctx) => {
  const response = await post(ctx, { query: '移転' })
  assert.is(response.status, 200)
  assert.match(String(response.headers['cache-control']), /no-store/)
  assert.equal(response.body.pagination, { total: 1, from: 0, size: 20, has_more: false })
  const [item] = response.body.items
  assert.is(item.id, 'cnt_1')
  assert.equal(item.tags, ['IR'])
  assert.equal(item.custom_fields, { custom_price: 100 })
  assert.equal(item.highlight.title, ['オフィス<em>移転</em>のお知らせ &lt;b&gt;'])
  assert.equal(item.highlight.search_text, ['本社を東京都千代田区へ<em>移転</em>します。'])
  assert.is(typeof item.score, 'number')
  assert.is(item.published_at, '2025-06-20T12:00:00.000Z')
})

test('another tenant’s items are never found or counted', async (ctx) => {
  const response = await post(ctx, { query: 'office relocation' })
  assert.equal(response.body.items.map((item: { id: string }) => item.id), ['cnt_2'])
  assert.is(response.body.pagination.total, 1)
})

test('category_code narrows a search as category_id does; another tenant’s category code finds nothing of it', async (ctx) => {
  const ids = async (body: Record<string, unknown>) => (await post(ctx, { query: 'office', ...body })).body.items.map((item: { id: string }) => item.id).sort()
  assert.equal(await ids({}), ['cnt_2', 'cnt_3'])
  assert.equal(await ids({ category_code: 'news' }), ['cnt_2'])
  assert.equal(await ids({ category_code: 'blog' }), await ids({ category_id: 'cat_blog' }))
  assert.equal(await ids({ category_code: 'blog' }), ['cnt_3'])
  assert.equal(await ids({ category_code: 'news', category_id: 'cat_news' }), ['cnt_2'])
  assert.equal(await ids({ category_code: 'nope' }), [])
  assert.equal(await ids({ category_code: 'news', category_id: 'cat_other' }), [])
  const unknown = await post(ctx, { query: 'office', category_code: 'news', filter: { custom_none: 1 } })
  assert.equal(unknown.body.error.details, [{ field: 'filter.custom_none', message: 'is not a custom field of the category' }])
  const anywhere = await post(ctx, { query: 'office', filter: { custom_none: 1 } })
  assert.equal(anywhere.body.error.details, [{ field: 'filter.custom_none', message: 'is not a custom field of any category' }])
})

test('invalid bodies get 400 with every invalid field', async (ctx) => {
  const response = await post(ctx, { query: '', size: 0, from: -1, sort: 'title:asc', nope: 1, filter: { custom_price: { gte: 'x', between: 1 }, custom_none: 1 } })
  assert.is(response.status, 400)
  assert.is(response.body.error.code, 'VALIDATION_ERROR')
  assert.is(response.body.error.message, 'Validation failed')
  const fields = response.body.error.details.map((detail: { field: string }) => detail.field).sort()
  assert.equal(fields, ['filter.custom_none', 'filter.custom_price.between', 'filter.custom_price.gte', 'from', 'nope', 'query', 'size', 'sort'])
  const window = await post(ctx, { query: 'x', from: 9_950, size: 100 })
  assert.equal(window.body.error.details, [{ field: 'from', message: 'from + size must be at most 10000' }])
  const long = await post(ctx, { query: 'x'.repeat(501) })
  assert.equal(long.body.error.details.map((detail: { field: string }) => detail.field), ['query'])
  const range = await post(ctx, { query: 'x', filter: { custom_price: { gt: 10, in: [] } } })
  assert.equal(range.body.error.details.map((detail: { field: string }) => detail.field), ['filter.custom_price.in'])
})

test('a key without cms:search gets 403, before its body is looked at', async (ctx) => {
  const readOnly = await ctx.server.key('acme', ['cms:read'])
  const response = await post(ctx, { nope: true }, readOnly)
  assert.is(response.status, 403)
  assert.is(response.body.error.code, 'FORBIDDEN')
  const all = await ctx.server.key('acme', ['cms:*'])
  assert.is((await post(ctx, { query: 'office' }, all)).status, 200)
})

test('a write through another connection is searchable within a second', async (ctx) => {
  const other = await ctx.server.reopen()
  try {
    await other.transaction(async (tx) => {
      await tx.putContent(aContent(ctx.tenantId, 'cnt_3', 'cat_news', { title: 'Freshly published', slug: 'fresh' }))
    })
    const until = Date.now() + 1000
    let total = 0
    while (total === 0 && Date.now() < until) total = (await post(ctx, { query: 'freshly' })).body.pagination.total
    assert.is(total, 1)
  } finally {
    await other.close()
  }
})

test.run()
