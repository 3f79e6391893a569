import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import type { FetchLike } from '@frontdesk/client'
import { FrontdeskApiError, FrontdeskClient } from '@frontdesk/client'
import { createPreviewToken, IDEMPOTENCY_LEASE_MS, importRecords, listInquiries } from '@frontdesk/core'
// Hint: the HTTPS test server is a test utility of @frontdesk/http, not part of any package's API.
import type { TestServer } from '../../http/test/util/test-server.ts'
import { startTestServer } from '../../http/test/util/test-server.ts'
import { httpsFetch } from './util/https-fetch.ts'

let server: TestServer
let readKey: string
let inquiryKey: string
let tenantId = ''
const attempts: { method: string; url: string; headers: Record<string, string> }[] = []

const test = suite('the client against a real HTTPS server')

test.before(async () => {
  server = await startTestServer()
  tenantId = (await server.tenant('acme')).id
  readKey = await server.key('acme', ['cms:*'])
  inquiryKey = await server.key('acme', ['inquiry:create'])
  const records: unknown[] = [
    { kind: 'category', id: 'cat_news', code: 'news', name: 'News', fields: [{ id: 'fld_price', name: 'price', type: 'number' }] },
    { kind: 'category', id: 'cat_blog', code: 'blog', name: 'Blog' },
    { kind: 'inquiry_category', code: 'sales', name: 'Sales', message: 'Thanks, we will call.' },
    { kind: 'content', id: 'cnt_draft', slug: 'draft', title: 'Draft', category_code: 'news' },
  ]
  for (let n = 0; n < 45; n++) {
    const day = String(1 + (n % 28)).padStart(2, '0')
    records.push({ kind: 'content', id: `cnt_n${String(n).padStart(2, '0')}`, slug: `news-${n}`, title: `Office news ${n}`, category_code: 'news', status: 'published', published_at: `2025-0${1 + (n % 5)}-${day}T00:00:00Z`, content: { price: n } })
  }
  for (let n = 0; n < 5; n++) records.push({ kind: 'content', slug: `blog-${n}`, title: `Blog ${n}`, category_code: 'blog', status: 'published', published_at: '2025-01-01T00:00:00Z' })
  await importRecords(server.frontdesk.context, { tenantCode: 'acme', records: records.map((record, i) => ({ record, location: String(i) })) })
})

test.after(async () => {
  // Hint: whatever `before` got to; a throw here would end the whole test run.
  await server?.close()
})

test.before.each(() => {
  attempts.length = 0
})

function client(options: { apiKey?: string; fetch?: FetchLike; previewToken?: string; retries?: number } = {}): FrontdeskClient {
  return new FrontdeskClient({
    baseUrl: server.url,
    apiKey: options.apiKey ?? readKey,
    fetch: options.fetch ?? httpsFetch(server.cert, (request) => attempts.push(request)),
    retry: { retries: options.retries ?? 2, baseDelayMs: 10 },
    ...(options.previewToken === undefined ? {} : { previewToken: options.previewToken }),
  })
}

test('contents.all walks every page of a category by cursor, each item once, in order', async () => {
  const cms = client()
  const ids: string[] = []
  for await (const item of cms.contents.all({ category_code: 'news', limit: 10 })) ids.push(item.id)
  assert.is(ids.length, 45)
  assert.is(new Set(ids).size, 45)
  assert.is(attempts.length, 5, 'one request per page of 10')
  const expected = (await cms.contents.list({ category_code: 'news', limit: 100 })).items.map((item) => item.id)
  assert.equal(ids, expected)
})

test('stopping the iteration early stops fetching pages', async () => {
  const cms = client()
  let seen = 0
  for await (const _ of cms.contents.all({ category_code: 'news', limit: 10 })) if (++seen === 3) break
  assert.is(attempts.length, 1)
})

test('every endpoint answers with its typed body', async () => {
  const cms = client()
  const detail = await cms.contents.get('cnt_n07')
  assert.is(detail.slug, 'news-7')
  assert.is(detail.content.price, 7)
  assert.equal(await cms.contents.getBySlug('news-7'), detail)
  const categories = await cms.categories.list()
  assert.equal(categories.map((c) => c.code), ['blog', 'news'])
  assert.equal((await cms.categories.get('cat_news')).fields.map((f) => f.name), ['price'])
  const found = await cms.search({ query: 'office', filter: { custom_price: { gte: 40 } }, sort: 'custom_price:asc' })
  assert.equal(found.items.map((item) => item.custom_fields.custom_price), [40, 41, 42, 43, 44])
  assert.ok(found.items[0]?.highlight.title[0]?.includes('<em>'))
  const forms = client({ apiKey: inquiryKey })
  assert.equal(await forms.inquiries.categories(), [{ code: 'sales', name: 'Sales', description: '' }])
  const created = await forms.inquiries.create({ category_code: 'sales', title: 'Hi', content: 'Call me', inquirer_name: 'Bo', inquirer_email: 'bo@example.com' })
  assert.is(created.status, 'open')
  assert.is(created.message, 'Thanks, we will call.')
  assert.is((await cms.openApi()).openapi, '3.1.0')
})

test('error responses become FrontdeskApiError with status, code, message, details and request id', async () => {
  const cms = client()
  const missing = await cms.contents.get('cnt_missing', { requestId: 'trace-1234' }).catch((error: unknown) => error)
  assert.instance(missing, FrontdeskApiError)
  const notFound = missing as FrontdeskApiError
  assert.is(notFound.status, 404)
  assert.is(notFound.code, 'NOT_FOUND')
  assert.is(notFound.requestId, 'trace-1234')
  const invalid = (await cms.contents.list({ limit: 0, sort: 'nope' }).catch((error: unknown) => error)) as FrontdeskApiError
  assert.is(invalid.code, 'VALIDATION_ERROR')
  assert.is(invalid.message, 'Validation failed')
  assert.equal(invalid.details.map((d) => d.field).sort(), ['limit', 'sort'])
  const forbidden = (await client({ apiKey: inquiryKey }).contents.list().catch((error: unknown) => error)) as FrontdeskApiError
  assert.is(forbidden.status, 403)
  assert.is(forbidden.message, 'Insufficient permissions: this endpoint needs cms:read (or cms:*); this key has inquiry:create')
  assert.is(attempts.length, 3, 'client errors are not retried')
})

test('a preview token (client-wide or per call) opens a draft; without it the draft is 404', async () => {
  const { token } = await createPreviewToken(server.frontdesk.context, { tenantCode: 'acme', target: { kind: 'content', id: 'cnt_draft' } })
  assert.is((await client({ previewToken: token }).contents.get('cnt_draft')).title, 'Draft')
  assert.is((await client().contents.getBySlug('draft', { previewToken: token })).title, 'Draft')
  assert.is(attempts.at(-1)?.headers['x-preview-token'], token)
  assert.not.ok(attempts.at(-1)?.url.includes(token), 'sent as a header, never in the URL')
  const hidden = (await client().contents.get('cnt_draft').catch((error: unknown) => error)) as FrontdeskApiError
  assert.is(hidden.status, 404)
})

test('429 is retried after Retry-After, and thrown when retries are off', async () => {
  const slowKey = await server.key('acme', ['cms:read'], { rateLimit: 1 })
  const cms = client({ apiKey: slowKey })
  await cms.categories.list()
  await cms.categories.list()
  const started = Date.now()
  assert.is((await cms.categories.list()).length, 2)
  assert.ok(Date.now() - started >= 900, 'waited for Retry-After (1 s)')
  assert.is(attempts.length, 4, 'the third call took two attempts')
  const impatient = client({ apiKey: slowKey, retries: 0 })
  let error: unknown
  for (let i = 0; i < 5 && error === undefined; i++) error = await impatient.categories.list().then(() => undefined, (e: unknown) => e)
  assert.instance(error, FrontdeskApiError)
  assert.is((error as FrontdeskApiError).code, 'RATE_LIMITED')
  assert.ok(((error as FrontdeskApiError).retryAfter ?? 0) >= 1)
})

test('network errors are retried a bounded number of times, then rethrown', async () => {
  let calls = 0
  const real = httpsFetch(server.cert)
  const flaky: FetchLike = (input, init) => (++calls === 1 ? Promise.reject(new TypeError('fetch failed')) : real(input, init))
  assert.is((await client({ fetch: flaky }).categories.list()).length, 2)
  assert.is(calls, 2)
  const nowhere = new FrontdeskClient({ baseUrl: 'https://127.0.0.1:1', apiKey: readKey, fetch: httpsFetch(server.cert, (r) => attempts.push(r)), retry: { retries: 2, baseDelayMs: 5 } })
  const failed = await nowhere.categories.list().catch((error: unknown) => error)
  assert.instance(failed, TypeError)
  assert.is(attempts.length, 3)
})

test('a lost inquiry response is retried with the same Idempotency-Key and creates one inquiry', async () => {
  const real = httpsFetch(server.cert, (request) => attempts.push(request))
  let calls = 0
  // The first attempt reaches the server; its answer is lost on the way back.
  const lossy: FetchLike = async (input, init) => {
    const response = await real(input, init)
    if (++calls === 1) throw new TypeError('fetch failed', { cause: new Error('socket hang up') })
    return response
  }
  const before = (await listInquiries(server.frontdesk.context, { tenantCode: 'acme' })).length
  const created = await client({ apiKey: inquiryKey, fetch: lossy }).inquiries.create({ category_code: 'sales', title: 'Once', content: 'Only once', inquirer_name: 'Cy', inquirer_email: 'cy@example.com' })
  assert.is(created.title, 'Once')
  assert.is(attempts.length, 2)
  const [first, second] = attempts.map((a) => a.headers['idempotency-key'])
  assert.match(String(first), /^[0-9a-f-]{36}$/)
  assert.is(second, first)
  assert.is((await listInquiries(server.frontdesk.context, { tenantCode: 'acme' })).length, before + 1)
})

/** Claims `key` for the request `holder`, as if it had claimed (or last renewed) it `agoMs` ago. */
async function claimAgo(key: string, holder: string, agoMs: number): Promise<void> {
  const at = new Date(Date.now() - agoMs).toISOString()
  await server.store.claimIdempotencyKey(tenantId, key, 'other', { holder, now: at, expiredBefore: '1970-01-01T00:00:00.000Z', staleBefore: '1970-01-01T00:00:00.000Z' })
}

test('409 IDEMPOTENCY_IN_PROGRESS is retried with the same key, after its Retry-After, until the earlier request is done', async () => {
  // Hint: a living holder renews its lease; renewing it as of 4 s ago keeps Retry-After at 1 s.
  await claimAgo('form-42', 'earlier', IDEMPOTENCY_LEASE_MS - 1_000)
  // Hint: a renewal that fails shows below (the lease lapses early); its rejection must not crash the run unhandled.
  const renew = () => server.store.renewIdempotencyKey(tenantId, 'form-42', 'earlier', new Date(Date.now() - IDEMPOTENCY_LEASE_MS + 1_000).toISOString()).catch(() => false)
  const renewing = setInterval(() => void renew(), 100)
  const input = { category_code: 'sales', title: 'Busy', content: 'Retry me', inquirer_name: 'Di', inquirer_email: 'di@example.com' }
  let error: FrontdeskApiError
  try {
    error = (await client({ apiKey: inquiryKey }).inquiries.create(input, { idempotencyKey: 'form-42' }).catch((e: unknown) => e)) as FrontdeskApiError
  } finally {
    clearInterval(renewing)
  }
  assert.is(error.code, 'IDEMPOTENCY_IN_PROGRESS')
  assert.is(error.retryAfter, 1)
  assert.is(attempts.length, 3, 'the first attempt and two retries')
  assert.ok(attempts.every((a) => a.headers['idempotency-key'] === 'form-42'))
  // The earlier request gives up its claim: the next retry goes through.
  await server.store.releaseIdempotencyKey(tenantId, 'form-42', 'earlier')
  assert.is((await client({ apiKey: inquiryKey }).inquiries.create(input, { idempotencyKey: 'form-42' })).title, 'Busy')
})

test('a key held by a request whose server died: the client waits out the lease (Retry-After) and its retry creates the inquiry', async () => {
  await claimAgo('form-43', 'crashed', IDEMPOTENCY_LEASE_MS - 1_500)
  const started = Date.now()
  const input = { category_code: 'sales', title: 'After a crash', content: 'Retry me', inquirer_name: 'Di', inquirer_email: 'di@example.com' }
  const created = await client({ apiKey: inquiryKey }).inquiries.create(input, { idempotencyKey: 'form-43' })
  assert.is(created.title, 'After a crash')
  assert.is(attempts.length, 2, 'one 409, then the retry')
  assert.ok(Date.now() - started >= 1_000, 'the retry waited for the Retry-After')
})

test('an abort stops the call, also while it waits to retry', async () => {
  const controller = new AbortController()
  const stuck: FetchLike = () => Promise.reject(new TypeError('fetch failed'))
  const cms = new FrontdeskClient({ baseUrl: server.url, apiKey: readKey, fetch: stuck, retry: { retries: 5, baseDelayMs: 5_000 } })
  const started = Date.now()
  const call = cms.categories.list({ signal: controller.signal })
  setTimeout(() => controller.abort(new Error('gave up')), 50)
  const error = await call.catch((e: unknown) => e)
  assert.is((error as Error).message, 'gave up')
  assert.ok(Date.now() - started < 2_000)
})

test.run()
