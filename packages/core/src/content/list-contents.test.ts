import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { isoAt } from '../app/clock.ts'
import { createFrontdesk } from '../app/frontdesk.ts'
import { ValidationError } from '../errors/frontdesk-error.ts'
import type { FieldDefinition } from '../model/category.ts'
import { memoCase } from '../testing/memo-case.ts'
import { createMemoryStore } from '../testing/memory/memory-store.ts'
import type { ContentFixture } from '../../test/util/content-fixture.ts'
import { openContentFixture, START } from '../../test/util/content-fixture.ts'
import type { ContentListBody } from './list-contents.ts'
import { strongEtag } from '../cache/strong-etag.ts'

const test = suite<{ f: ContentFixture }>('listContents', {} as { f: ContentFixture })
test.before.each(async (context) => {
  context.f = await openContentFixture()
})
test.after.each(async (context) => {
  await context.f.close()
})

const price: FieldDefinition = { id: 'fld_price', name: 'price', type: 'number', required: false }
const color: FieldDefinition = { id: 'fld_color', name: 'color', type: 'select', options: ['red', 'blue'], required: false }

async function list(f: ContentFixture, principal: Parameters<ContentFixture['frontdesk']['listContents']>[0], query = ''): Promise<ContentListBody> {
  return (await f.frontdesk.listContents(principal, new URLSearchParams(query))).body
}

async function failure(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise
  } catch (error) {
    return error
  }
  throw new Error('expected a failure')
}

test('lists visible items newest first with list-item fields only', async ({ f }) => {
  const { tenant, principal } = await f.tenant('acme')
  const news = await f.category(tenant, { code: 'news', name: 'News' })
  const a = await f.content(tenant, news, { tags: ['x', 'y'], published_at: isoAt(START - 1000) })
  const b = await f.content(tenant, news, { published_at: isoAt(START - 10) })
  const reply = await f.frontdesk.listContents(principal, new URLSearchParams())
  assert.equal(reply.cache, { kind: 'private', maxAge: 60, etag: strongEtag(tenant.id, JSON.stringify(reply.body)) })
  assert.equal(reply.body.items.map((i) => i.id), [b.id, a.id])
  assert.equal(reply.body.items[1], {
    id: a.id, title: a.title, slug: a.slug, category_id: news.id, category_code: 'news', category_name: 'News',
    published_at: a.published_at, author_name: 'Author', tags: ['x', 'y'], summary: a.summary,
  })
  assert.equal(reply.body.pagination, { count: 2, next_cursor: null, has_more: false })
})

test('drafts, scheduled items, inactive categories and other tenants are not listed', async ({ f }) => {
  const { tenant, principal } = await f.tenant('acme')
  const other = await f.tenant('other')
  const news = await f.category(tenant, { code: 'news' })
  const hidden = await f.category(tenant, { code: 'hidden', active: false })
  const visible = await f.content(tenant, news)
  await f.content(tenant, news, { status: 'draft' })
  await f.content(tenant, news, { published_at: isoAt(START + 60_000) })
  await f.content(tenant, hidden)
  await f.content(other.tenant, await f.category(other.tenant, { code: 'news' }))
  assert.equal((await list(f, principal)).items.map((i) => i.id), [visible.id])
  assert.equal((await list(f, principal, 'category_code=hidden')).items, [])
})

test('a scheduled item appears by itself once its time comes', async ({ f }) => {
  const { tenant, principal } = await f.tenant('acme')
  const news = await f.category(tenant, { code: 'news' })
  await f.content(tenant, news)
  const later = await f.content(tenant, news, { published_at: isoAt(START + 10_000) })
  assert.is((await list(f, principal, 'limit=7')).items.length, 1)
  f.clock.advance(10_000)
  assert.is((await list(f, principal, 'limit=8')).items[0]?.id, later.id)
})

memoCase(test, 'a cached list hides a scheduled item that came due for at most 60 s', async ({ f }) => {
  const { tenant, principal } = await f.tenant('acme')
  const news = await f.category(tenant, { code: 'news' })
  await f.content(tenant, news)
  const later = await f.content(tenant, news, { published_at: isoAt(START + 10_000) })
  assert.is((await list(f, principal)).items.length, 1)
  f.clock.advance(10_000)
  // Hint: the entry made at START may still answer; that staleness is bounded by 60 s.
  assert.is((await list(f, principal)).items.length, 1)
  assert.is((await list(f, principal, 'limit=20')).items.length, 1)
  f.clock.advance(50_000)
  assert.is((await list(f, principal)).items[0]?.id, later.id)
  assert.is((await list(f, principal, 'limit=5')).items[0]?.id, later.id)
})

memoCase(test, 'a repeated query is served from the cache as the same bytes, until content changes', async ({ f }) => {
  const { tenant, principal } = await f.tenant('acme')
  const news = await f.category(tenant, { code: 'news' })
  await f.content(tenant, news, { tags: ['a', 'b'] })
  const first = await f.frontdesk.listContents(principal, new URLSearchParams('tags=a,b&limit=10'))
  const again = await f.frontdesk.listContents(principal, new URLSearchParams('limit=10&tags=b,a&sort=published_at:desc'))
  assert.is(again.bytes, first.bytes)
  await f.content(tenant, news, { tags: ['a', 'b'] })
  const fresh = await f.frontdesk.listContents(principal, new URLSearchParams('tags=a,b&limit=10'))
  assert.is.not(fresh.bytes, first.bytes)
  assert.is(fresh.body.items.length, 2)
})

test('filters by category code or id, tag names and ids (AND) and custom fields', async ({ f }) => {
  const { tenant, principal } = await f.tenant('acme')
  const shop = await f.category(tenant, { code: 'shop', fields: [price, color] })
  const news = await f.category(tenant, { code: 'news' })
  const cheapRed = await f.content(tenant, shop, { tags: ['sale', 'new'], fields: { fld_price: 5, fld_color: 'red' } })
  const cheapBlue = await f.content(tenant, shop, { tags: ['sale'], fields: { fld_price: 5, fld_color: 'blue' } })
  await f.content(tenant, shop, { tags: ['new'], fields: { fld_price: 50, fld_color: 'red' } })
  await f.content(tenant, news, { tags: ['sale', 'new'] })
  const ids = async (query: string) => (await list(f, principal, query)).items.map((i) => i.id).sort()
  assert.is((await ids('category_code=shop')).length, 3)
  assert.is((await ids(`category_id=${shop.id}`)).length, 3)
  assert.is((await ids('tags=sale,new')).length, 2)
  assert.equal(await ids('category_code=shop&tags=sale,new'), [cheapRed.id])
  assert.equal(await ids(`category_code=shop&tag_ids=${cheapRed.tags.map((t) => t.id).join(',')}`), [cheapRed.id])
  assert.is((await ids(`category_code=shop&tag_ids=${cheapRed.tags[0]?.id}`)).length, 2)
  assert.equal(await ids('field_filters=fld_price:5'), [cheapRed.id, cheapBlue.id].sort())
  assert.equal(await ids('category_code=shop&field_filters=fld_price:5.0,fld_color:blue'), [cheapBlue.id])
  assert.equal(await ids('tags=nope'), [])
  assert.equal(await ids('category_code=nope'), [])
})

test('sorts by title, updated_at and a custom field, nulls last', async ({ f }) => {
  const { tenant, principal } = await f.tenant('acme')
  const shop = await f.category(tenant, { code: 'shop', fields: [price] })
  const b = await f.content(tenant, shop, { title: 'Banana', fields: { fld_price: 2 }, updated_at: '2025-01-02T00:00:00.000Z' })
  const a = await f.content(tenant, shop, { title: 'Apple', fields: { fld_price: 3 }, updated_at: '2025-01-03T00:00:00.000Z' })
  const c = await f.content(tenant, shop, { title: 'Cherry', updated_at: '2025-01-01T00:00:00.000Z' })
  const order = async (sort: string) => (await list(f, principal, `sort=${sort}`)).items.map((i) => i.id)
  assert.equal(await order('title:asc'), [a.id, b.id, c.id])
  assert.equal(await order('title:desc'), [c.id, b.id, a.id])
  assert.equal(await order('updated_at:desc'), [a.id, b.id, c.id])
  assert.equal(await order('custom_price:asc'), [b.id, a.id, c.id])
  assert.equal(await order('custom_price:desc'), [a.id, b.id, c.id])
  assert.equal(await order('published_at:asc'), [c.id, a.id, b.id])
})

test('pages follow next_cursor to the end, where it is null', async ({ f }) => {
  const { tenant, principal } = await f.tenant('acme')
  const news = await f.category(tenant, { code: 'news' })
  const all = []
  for (let i = 0; i < 7; i++) all.push(await f.content(tenant, news, { published_at: isoAt(START - 1000 * (i % 3)) }))
  const seen: string[] = []
  let cursor: string | null = null
  for (let page = 0; page < 10; page++) {
    const body: ContentListBody = await list(f, principal, `category_code=news&limit=3${cursor === null ? '' : `&cursor=${cursor}`}`)
    seen.push(...body.items.map((i) => i.id))
    assert.is(body.pagination.count, body.items.length)
    assert.is(body.pagination.has_more, body.pagination.next_cursor !== null)
    cursor = body.pagination.next_cursor
    if (cursor === null) break
  }
  assert.equal(seen.slice().sort(), all.map((i) => i.id).sort())
})

test('a cursor used with other filters or sort is refused on cursor', async ({ f }) => {
  const { tenant, principal } = await f.tenant('acme')
  const news = await f.category(tenant, { code: 'news' })
  await f.content(tenant, news)
  await f.content(tenant, news)
  const cursor = (await list(f, principal, 'limit=1')).pagination.next_cursor
  assert.type(cursor, 'string')
  const error = await failure(list(f, principal, `limit=1&sort=title:asc&cursor=${cursor}`))
  assert.instance(error, ValidationError)
  assert.equal((error as ValidationError).details?.map((d) => d.field), ['cursor'])
  assert.is((await list(f, principal, `limit=5&cursor=${cursor}`)).items.length, 1)
})

test('a cursor is refused once its sort names another field (a field renamed mid-walk), rather than skip items', async ({ f }) => {
  const { tenant, principal } = await f.tenant('acme')
  const first = { id: 'fld_first', name: 'rank', type: 'number', required: false } as const
  const second = { id: 'fld_second', name: 'score', type: 'number', required: false } as const
  const shop = await f.category(tenant, { code: 'shop', fields: [first, second] })
  for (let n = 1; n <= 4; n++) await f.content(tenant, shop, { fields: { fld_first: n, fld_second: n } })
  const page = await list(f, principal, 'sort=custom_rank:asc&limit=2')
  const cursor = page.pagination.next_cursor ?? ''
  // The fields swap names: `custom_rank` is now the other field, whose order the cursor's position is not a place in.
  await f.store.transaction((tx) => tx.putCategory({ ...shop, fields: [{ ...first, name: 'score' }, { ...second, name: 'rank' }] }))
  const error = await failure(list(f, principal, `sort=custom_rank:asc&limit=2&cursor=${cursor}`))
  assert.instance(error, ValidationError)
  assert.equal((error as ValidationError).details, [{ field: 'cursor', message: 'cursor belongs to a query with other filters or sort' }])
})

test('a cursor is refused once its category code names another category', async ({ f }) => {
  const { tenant, principal } = await f.tenant('acme')
  const news = await f.category(tenant, { code: 'news' })
  const blog = await f.category(tenant, { code: 'blog' })
  for (let n = 0; n < 3; n++) await f.content(tenant, news)
  for (let n = 0; n < 3; n++) await f.content(tenant, blog)
  const cursor = (await list(f, principal, 'category_code=news&limit=2')).pagination.next_cursor ?? ''
  await f.store.transaction(async (tx) => {
    await tx.putCategory({ ...news, code: 'old-news' })
    await tx.putCategory({ ...blog, code: 'news' })
  })
  const error = await failure(list(f, principal, `category_code=news&limit=2&cursor=${cursor}`))
  assert.instance(error, ValidationError)
  assert.equal((error as ValidationError).details?.map((d) => d.field), ['cursor'])
})

test('a cursor keeps working in another process over the same database', async ({ f }) => {
  const { tenant, principal } = await f.tenant('acme')
  const news = await f.category(tenant, { code: 'news' })
  const items = [await f.content(tenant, news), await f.content(tenant, news), await f.content(tenant, news)]
  const cursor = (await list(f, principal, 'limit=2&sort=title:desc')).pagination.next_cursor ?? ''
  const store = createMemoryStore({ database: f.store.database })
  try {
    const other = createFrontdesk({ store, clock: f.clock })
    const body = (await other.listContents(principal, new URLSearchParams(`sort=title:desc&limit=2&cursor=${cursor}`))).body
    assert.equal(body.items.map((i) => i.id), [items[0]?.id])
  } finally {
    await store.close()
  }
})

test('every invalid parameter is reported in one error', async ({ f }) => {
  const { principal } = await f.tenant('acme')
  const error = await failure(list(f, principal, 'limit=500&sort=custom_nope:asc&field_filters=fld_x:1&cursor=%21&bogus=1&tags=a&tags=b'))
  assert.instance(error, ValidationError)
  assert.equal((error as ValidationError).details?.map((d) => d.field).sort(), ['bogus', 'cursor', 'field_filters', 'limit', 'sort', 'tags'])
})

test.run()
