import { suite } from 'uvu'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import * as assert from 'uvu/assert'
import { isoAt } from '../app/clock.ts'
import { NotFoundError } from '../errors/frontdesk-error.ts'
import { memoCase } from '../testing/memo-case.ts'
import type { FieldDefinition } from '../model/category.ts'
import type { ContentFixture } from '../../test/util/content-fixture.ts'
import { openContentFixture, START } from '../../test/util/content-fixture.ts'
import { strongEtag } from '../cache/strong-etag.ts'
import { createPreviewToken } from '../preview/create-preview-token.ts'

const test = suite<{ f: ContentFixture }>('getContent', {} as { f: ContentFixture })
test.before.each(async (context) => {
  context.f = await openContentFixture()
})
test.after.each(async (context) => {
  await context.f.close()
})

const price: FieldDefinition = { id: 'fld_price', name: 'price', type: 'number', required: false }
const launch: FieldDefinition = { id: 'fld_launch', name: 'launch', type: 'date', required: false }
const shadow: FieldDefinition = { id: 'fld_body', name: 'body', type: 'text', required: false }

async function notFound(promise: Promise<unknown>): Promise<boolean> {
  try {
    await promise
  } catch (error) {
    return error instanceof NotFoundError
  }
  return false
}

test('the detail holds content with custom fields by name, meta and version', async ({ f }) => {
  const { tenant, principal } = await f.tenant('acme')
  const shop = await f.category(tenant, { code: 'shop', name: 'Shop', fields: [price, launch, shadow] })
  const item = await f.content(tenant, shop, {
    fields: { fld_price: 12, fld_body: 'ignored', fld_gone: 'x' },
    meta: { og_title: 'OG', og_description: '', canonical: 'https://example.com/a', extra: { deep: [1] } },
    tags: ['t1'],
    version: 3,
  })
  const reply = await f.frontdesk.getContent(principal, item.id)
  assert.equal(reply.cache, { kind: 'private', maxAge: 60, etag: strongEtag(tenant.id, JSON.stringify(reply.body)) })
  assert.equal(reply.body, {
    id: item.id, title: item.title, slug: item.slug, category_id: shop.id, category_code: 'shop', category_name: 'Shop',
    content: { body: item.body, summary: item.summary, price: 12, launch: null },
    published_at: item.published_at, version: 3, author_name: 'Author', tags: ['t1'],
    meta: { og_title: 'OG', og_description: '', canonical: 'https://example.com/a', extra: { deep: [1] } },
  })
  assert.equal(Object.keys(reply.body.content), ['body', 'summary', 'price', 'launch'])
})

test('detail by slug is the same body as detail by id', async ({ f }) => {
  const { tenant, principal } = await f.tenant('acme')
  const item = await f.content(tenant, await f.category(tenant, { code: 'news' }), { slug: 'hello-world' })
  assert.equal((await f.frontdesk.getContentBySlug(principal, 'hello-world')).body, (await f.frontdesk.getContent(principal, item.id)).body)
})

test('drafts, scheduled items, inactive categories, other tenants and unknown ids are 404', async ({ f }) => {
  const { tenant, principal } = await f.tenant('acme')
  const other = await f.tenant('other')
  const news = await f.category(tenant, { code: 'news' })
  const hidden = await f.category(tenant, { code: 'hidden', active: false })
  const draft = await f.content(tenant, news, { status: 'draft' })
  const scheduled = await f.content(tenant, news, { published_at: isoAt(START + 1_000) })
  const inactive = await f.content(tenant, hidden)
  const theirs = await f.content(other.tenant, await f.category(other.tenant, { code: 'news' }), { slug: 'theirs' })
  for (const id of [draft.id, scheduled.id, inactive.id, theirs.id, 'cnt_nope', 'not an id', '']) {
    assert.ok(await notFound(f.frontdesk.getContent(principal, id)), id)
  }
  for (const slug of [draft.slug, 'theirs', '', 'x'.repeat(600)]) assert.ok(await notFound(f.frontdesk.getContentBySlug(principal, slug)), slug)
  assert.ok(await notFound(f.frontdesk.getContent(principal, scheduled.id)))
  f.clock.advance(1_000)
  assert.is((await f.frontdesk.getContent(principal, scheduled.id)).body.id, scheduled.id)
})

memoCase(test, 'a cached detail is the same bytes until the item changes', async ({ f }) => {
  const { tenant, principal } = await f.tenant('acme')
  const news = await f.category(tenant, { code: 'news' })
  const item = await f.content(tenant, news)
  const first = await f.frontdesk.getContent(principal, item.id)
  assert.is((await f.frontdesk.getContent(principal, item.id)).bytes, first.bytes)
  await f.store.transaction((tx) => tx.putContent({ ...item, title: 'Changed', version: 2 }))
  const fresh = await f.frontdesk.getContent(principal, item.id)
  assert.is(fresh.body.title, 'Changed')
  assert.is(fresh.body.version, 2)
})

memoCase(test, 'a cached reply carries its JSON bytes and ETag, made once: every hit is the same reply, with the first one\'s bytes', async ({ f }) => {
  const { tenant, principal } = await f.tenant('acme')
  const news = await f.category(tenant, { code: 'news' })
  const item = await f.content(tenant, news, { title: 'オフィス移転 "quoted" \u2028' })
  const first = await f.frontdesk.getContent(principal, item.id)
  assert.ok(first.bytes)
  assert.is(new TextDecoder().decode(first.bytes), JSON.stringify(first.body))
  const hit = await f.frontdesk.getContent(principal, item.id)
  assert.is(hit.bytes, first.bytes)
  assert.equal(hit.cache, first.cache)
  assert.equal(hit.body, first.body)
  assert.is(await f.frontdesk.getContent(principal, item.id), hit)
  const { token } = await createPreviewToken(f.ctx, { tenantCode: 'acme', target: { kind: 'content', id: item.id } })
  const preview = await f.frontdesk.getContent(principal, item.id, token)
  assert.is(preview.bytes, undefined)
  assert.equal(preview.cache, { kind: 'no-store' })
})

memoCase(test, 'the response cache keeps a reply\'s bytes, not its body: the first body is collected once dropped, and a hit reads its own from the bytes', async ({ f }) => {
  const { tenant, principal } = await f.tenant('acme')
  const news = await f.category(tenant, { code: 'news' })
  const item = await f.content(tenant, news, { title: 'オフィス移転' })
  const collected = new Set<string>()
  const registry = new FinalizationRegistry((what: string) => collected.add(what))
  // Hint: in a function of its own, so that nothing of this test's frame holds the first reply.
  const { bytes, expected } = await (async () => {
    const reply = await f.frontdesk.getContent(principal, item.id)
    registry.register(reply.body as object, 'body')
    return { bytes: reply.bytes, expected: JSON.parse(JSON.stringify(reply.body)) as unknown }
  })()
  for (let i = 0; i < 50 && !collected.has('body'); i++) {
    collectGarbage()
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
  assert.ok(collected.has('body'), 'the body was collected while its reply stayed cached')
  const hit = await f.frontdesk.getContent(principal, item.id)
  assert.is(hit.bytes, bytes)
  assert.equal(hit.body, expected)
  assert.is(hit.body, hit.body, 'the body read from the bytes is kept')
  assert.is(await f.frontdesk.getContent(principal, item.id), hit)
  assert.is(JSON.stringify(hit), JSON.stringify({ status: 200, body: expected, bytes, cache: hit.cache }), 'serialised as the reply made without the cache')
  assert.equal(Object.keys(hit), ['status', 'body', 'bytes', 'cache'])
  assert.equal({ ...hit }, { status: 200, body: expected, bytes, cache: hit.cache }, 'spread with its body')
})

/** A full garbage collection, `--expose-gc` or not. */
function collectGarbage(): void {
  setFlagsFromString('--expose-gc')
  ;(runInNewContext('gc') as () => void)()
}

test('the same body of two tenants has two ETags', async ({ f }) => {
  const one = await f.tenant('one')
  const two = await f.tenant('two')
  const a = await f.frontdesk.listCategories(one.principal)
  const b = await f.frontdesk.listCategories(two.principal)
  assert.equal(a.body, b.body)
  assert.ok(a.cache.kind === 'private' && b.cache.kind === 'private')
  assert.match(a.cache.etag, /^"[A-Za-z0-9_-]{43}"$/)
  assert.is.not(a.cache.etag, b.cache.etag)
})

test.run()
