import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { isoAt } from '../app/clock.ts'
import { checkSecret, hashSecret } from '../auth/secret-token.ts'
import type { ContentFixture } from '../../test/util/content-fixture.ts'
import { openContentFixture, START } from '../../test/util/content-fixture.ts'
import { AuthError, NotFoundError, UsageError, ValidationError } from '../errors/frontdesk-error.ts'
import { createPreviewToken } from './create-preview-token.ts'
import { resolvePreview } from './resolve-preview.ts'
import { revokePreviewToken } from './revoke-preview-token.ts'

const test = suite<{ f: ContentFixture }>('preview tokens', {} as { f: ContentFixture })
test.before.each(async (context) => {
  context.f = await openContentFixture()
})
test.after.each(async (context) => {
  await context.f.close()
})

async function errorOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise
  } catch (error) {
    return error
  }
  return null
}

async function codeOf(promise: Promise<unknown>): Promise<string | null> {
  const error = await errorOf(promise)
  return error instanceof AuthError ? error.code : error instanceof NotFoundError ? 'NOT_FOUND' : null
}

/** A tenant with a published item, a draft, a scheduled item and a draft in another category. */
async function seed(f: ContentFixture) {
  const { tenant, principal } = await f.tenant('acme')
  const news = await f.category(tenant, { code: 'news' })
  const blog = await f.category(tenant, { code: 'blog' })
  const published = await f.content(tenant, news)
  const draft = await f.content(tenant, news, { status: 'draft', published_at: null, slug: 'draft' })
  const scheduled = await f.content(tenant, news, { published_at: isoAt(START + 3_600_000) })
  const blogDraft = await f.content(tenant, blog, { status: 'draft' })
  return { tenant, principal, news, blog, published, draft, scheduled, blogDraft }
}

test('a token is fdv_ shaped, stored only as its hash, and lives 1 h by default', async ({ f }) => {
  const { draft } = await seed(f)
  const { record, token } = await createPreviewToken(f.ctx, { tenantCode: 'acme', target: { kind: 'content', id: draft.id } })
  assert.is(checkSecret(token, ['fdv_']), 'fdv_')
  assert.match(record.id, /^prv_/)
  assert.is(record.hash, hashSecret(token))
  assert.is(record.expires_at, isoAt(START + 3_600_000))
  assert.equal(await f.store.getPreviewToken(record.id), record)
})

test('targets may be named by slug or code and are stored by id', async ({ f }) => {
  const { draft, blog } = await seed(f)
  const bySlug = await createPreviewToken(f.ctx, { tenantCode: 'acme', target: { kind: 'content', id: 'draft' } })
  assert.equal(bySlug.record.target, { kind: 'content', id: draft.id })
  const byCode = await createPreviewToken(f.ctx, { tenantCode: 'acme', target: { kind: 'category', id: 'blog' } })
  assert.equal(byCode.record.target, { kind: 'category', id: blog.id })
})

test('unknown tenants and targets, and lifetimes out of 1 s to 7 d, are refused', async ({ f }) => {
  const { draft } = await seed(f)
  await f.tenant('other')
  const target = { kind: 'content' as const, id: draft.id }
  assert.instance(await errorOf(createPreviewToken(f.ctx, { tenantCode: 'nope', target })), UsageError)
  assert.instance(await errorOf(createPreviewToken(f.ctx, { tenantCode: 'other', target })), UsageError)
  assert.instance(await errorOf(createPreviewToken(f.ctx, { tenantCode: 'acme', target: { kind: 'category', id: 'nope' } })), UsageError)
  for (const ttlMs of [0, 999, 7 * 86_400_000 + 1, 1.5, Number.NaN]) {
    assert.instance(await errorOf(createPreviewToken(f.ctx, { tenantCode: 'acme', target, ttlMs })), UsageError, String(ttlMs))
  }
  const week = await createPreviewToken(f.ctx, { tenantCode: 'acme', target, ttlMs: 7 * 86_400_000 })
  assert.is(week.record.expires_at, isoAt(START + 7 * 86_400_000))
})

test('malformed, forged, unknown, revoked and foreign tokens are invalid; old ones expired', async ({ f }) => {
  const { tenant, draft } = await seed(f)
  const other = await f.tenant('other')
  const { record, token } = await createPreviewToken(f.ctx, { tenantCode: 'acme', target: { kind: 'content', id: draft.id }, ttlMs: 60_000 })
  assert.equal(await resolvePreview(f.ctx, tenant.id, token), { kind: 'content', id: draft.id })
  const forged = token.slice(0, 10) + (token[10] === 'a' ? 'b' : 'a') + token.slice(11)
  for (const bad of ['', 'fdv_', 'garbage', forged, token.replace('fdv_', 'fdk_'), `${token}x`]) {
    assert.is(await codeOf(resolvePreview(f.ctx, tenant.id, bad)), 'PREVIEW_TOKEN_INVALID', bad)
  }
  assert.is(await codeOf(resolvePreview(f.ctx, other.tenant.id, token)), 'PREVIEW_TOKEN_INVALID')
  f.clock.advance(60_000)
  assert.is(await codeOf(resolvePreview(f.ctx, tenant.id, token)), 'PREVIEW_TOKEN_EXPIRED')
  const revoked = await revokePreviewToken(f.ctx, record.id)
  assert.is(revoked.revoked_at, isoAt(START + 60_000))
  assert.is(await codeOf(resolvePreview(f.ctx, tenant.id, token)), 'PREVIEW_TOKEN_INVALID')
  f.clock.advance(1_000)
  assert.is((await revokePreviewToken(f.ctx, record.id)).revoked_at, revoked.revoked_at)
  assert.instance(await errorOf(revokePreviewToken(f.ctx, 'prv_nope')), UsageError)
})

test('a content token opens its item in detail by id and slug, and only that item', async ({ f }) => {
  const { principal, draft, scheduled, blogDraft } = await seed(f)
  const { token } = await createPreviewToken(f.ctx, { tenantCode: 'acme', target: { kind: 'content', id: draft.id } })
  const reply = await f.frontdesk.getContent(principal, draft.id, token)
  assert.is(reply.body.id, draft.id)
  assert.is(reply.body.published_at, null)
  assert.equal(reply.cache, { kind: 'no-store' })
  assert.is((await f.frontdesk.getContentBySlug(principal, 'draft', token)).body.id, draft.id)
  assert.is(await codeOf(f.frontdesk.getContent(principal, scheduled.id, token)), 'NOT_FOUND')
  assert.is(await codeOf(f.frontdesk.getContent(principal, blogDraft.id, token)), 'NOT_FOUND')
  assert.is(await codeOf(f.frontdesk.getContent(principal, draft.id)), 'NOT_FOUND')
  const list = await f.frontdesk.listContents(principal, new URLSearchParams('category_code=news'), token)
  assert.is(list.body.items.length, 1)
  assert.equal(list.cache, { kind: 'no-store' })
})

test('a category token opens its items in detail and in a list filtered to it', async ({ f }) => {
  const { principal, news, published, draft, scheduled, blogDraft } = await seed(f)
  const { token } = await createPreviewToken(f.ctx, { tenantCode: 'acme', target: { kind: 'category', id: news.id } })
  assert.is((await f.frontdesk.getContent(principal, scheduled.id, token)).body.id, scheduled.id)
  assert.is((await f.frontdesk.getContent(principal, draft.id, token)).body.id, draft.id)
  assert.is(await codeOf(f.frontdesk.getContent(principal, blogDraft.id, token)), 'NOT_FOUND')
  const ids = async (query: string, previewToken: string | null) =>
    (await f.frontdesk.listContents(principal, new URLSearchParams(query), previewToken)).body.items.map((i) => i.id).sort()
  assert.equal(await ids('category_code=news', token), [published.id, draft.id, scheduled.id].sort())
  assert.equal(await ids(`category_id=${news.id}&preview_token=${token}`, null), [published.id, draft.id, scheduled.id].sort())
  assert.equal(await ids('', token), [published.id])
  assert.equal(await ids('category_code=blog', token), [])
  assert.equal(await ids('category_code=news', null), [published.id])
})

test('preview replies never enter nor come from the cache', async ({ f }) => {
  const { principal, news, published } = await seed(f)
  const { token } = await createPreviewToken(f.ctx, { tenantCode: 'acme', target: { kind: 'category', id: news.id } })
  const before = f.ctx.cache.size
  await f.frontdesk.listContents(principal, new URLSearchParams('category_code=news'), token)
  await f.frontdesk.getContent(principal, published.id, token)
  assert.is(f.ctx.cache.size, before)
  const cached = await f.frontdesk.getContent(principal, published.id)
  assert.is.not((await f.frontdesk.getContent(principal, published.id, token)).body, cached.body)
})

test('the token is checked before the parameters, and a repeated preview_token is a parameter error', async ({ f }) => {
  const { principal } = await seed(f)
  assert.is(await codeOf(f.frontdesk.listContents(principal, new URLSearchParams('limit=0'), 'fdv_bad')), 'PREVIEW_TOKEN_INVALID')
  const error = await errorOf(f.frontdesk.listContents(principal, new URLSearchParams('preview_token=a&preview_token=b')))
  assert.instance(error, ValidationError)
})

test.run()
