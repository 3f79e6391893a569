import * as assert from 'uvu/assert'
import { importRecords } from '@frontdesk/core'
import type { TestServer } from './util/test-server.ts'
import { behaviourSuite, startTestServer, storeOf } from './util/test-server.ts'

const test = await behaviourSuite('response headers', import.meta.url)

let server: TestServer
let key: string

test.before(async () => {
  server = await startTestServer({ store: storeOf(import.meta.url) })
  await server.tenant('acme')
  key = await server.key('acme', ['cms:*', 'inquiry:create'])
  await importRecords(server.frontdesk.context, {
    tenantCode: 'acme',
    records: [
      { location: '1', record: { kind: 'category', id: 'cat_news', code: 'news', name: 'News' } },
      { location: '2', record: { kind: 'content', id: 'cnt_a', slug: 'a', title: 'Hello', category_code: 'news', status: 'published', published_at: '2025-01-01T00:00:00Z' } },
      { location: '3', record: { kind: 'inquiry_category', code: 'general', name: 'General' } },
    ],
  })
})

test.after(async () => {
  // Hint: whatever `before` got to; a throw here would end the whole test run.
  await server?.close()
})

const withKey = { headers: () => ({ 'x-api-key': key }) }

test('every response carries JSON Content-Type, X-Request-Id, HSTS, nosniff and Vary', async () => {
  const responses = [
    await server.request('GET', '/v1/cms/categories', { headers: withKey.headers() }),
    await server.request('GET', '/v1/cms/categories'),
    await server.request('GET', '/nowhere'),
    await server.request('DELETE', '/v1/cms/categories'),
    await server.request('GET', '/healthz'),
    await server.request('POST', '/healthz'),
  ]
  for (const res of responses) {
    assert.is(res.headers['content-type'], 'application/json; charset=utf-8')
    assert.match(String(res.headers['x-request-id']), /^[0-9a-f-]{36}$/)
    assert.is(res.headers['strict-transport-security'], 'max-age=31536000')
    assert.is(res.headers['x-content-type-options'], 'nosniff')
    assert.is(res.headers.vary, 'X-API-Key, X-Preview-Token')
  }
  assert.is.not(responses[0]?.headers['x-request-id'], responses[1]?.headers['x-request-id'])
})

test('a sane incoming X-Request-Id is echoed; anything else is replaced', async () => {
  const echoed = await server.request('GET', '/v1/cms/categories', { headers: { 'x-request-id': 'proxy-1234:abcd.EF_9' } })
  assert.is(echoed.headers['x-request-id'], 'proxy-1234:abcd.EF_9')
  for (const bad of ['short', 'x'.repeat(129), 'has space in it', 'semi;colon-value', '<script>alert(1)</script>']) {
    const res = await server.request('GET', '/v1/cms/categories', { headers: { 'x-request-id': bad } })
    assert.is.not(res.headers['x-request-id'], bad)
    assert.match(String(res.headers['x-request-id']), /^[0-9a-f-]{36}$/)
  }
})

test('a key or token sent as X-Request-Id, with or without its prefix, is never echoed (nor logged: the log takes the echoed id)', async () => {
  const personal = await server.key('acme', [], { personal: true })
  for (const secret of [key, personal, `fdv_${'a'.repeat(38)}`, `FDK_${'b'.repeat(38)}`, `trace-${key}`, key.slice(4), `req-${personal.slice(4, 30)}`]) {
    for (const path of ['/v1/cms/categories', '/healthz', '/nowhere']) {
      const res = await server.request('GET', path, { headers: { 'x-api-key': key, 'x-request-id': secret } })
      assert.match(String(res.headers['x-request-id']), /^[0-9a-f-]{36}$/, `${path} echoed ${secret.slice(0, 8)}…`)
    }
  }
})

test('cacheable replies are private for 60 s with a strong ETag', async () => {
  for (const path of ['/v1/cms/categories', '/v1/cms/contents', '/v1/cms/contents/cnt_a', '/v1/cms/contents/slug/a', '/v1/cms/categories/cat_news']) {
    const res = await server.request('GET', path, { headers: withKey.headers() })
    assert.is(res.status, 200, path)
    assert.is(res.headers['cache-control'], 'private, max-age=60', path)
    assert.match(String(res.headers.etag), /^"[A-Za-z0-9_-]{43}"$/)
  }
})

test('errors are never stored', async () => {
  for (const res of [await server.request('GET', '/v1/cms/categories'), await server.request('GET', '/v1/cms/contents/cnt_none', { headers: withKey.headers() })]) {
    assert.is(res.headers['cache-control'], 'no-store')
    assert.is(res.headers.etag, undefined)
  }
})

test('a matching If-None-Match gets 304 with no body; a stale one gets the full reply', async () => {
  const first = await server.request('GET', '/v1/cms/contents/cnt_a', { headers: withKey.headers() })
  const etag = String(first.headers.etag)
  const again = await server.request('GET', '/v1/cms/contents/cnt_a', { headers: { ...withKey.headers(), 'if-none-match': etag } })
  assert.is(again.status, 304)
  assert.is(again.text, '')
  assert.is(again.headers.etag, etag)
  assert.is(again.headers['cache-control'], 'private, max-age=60')
  const weak = await server.request('GET', '/v1/cms/contents/cnt_a', { headers: { ...withKey.headers(), 'if-none-match': `"other", W/${etag}` } })
  assert.is(weak.status, 304)
  const stale = await server.request('GET', '/v1/cms/contents/cnt_a', { headers: { ...withKey.headers(), 'if-none-match': '"stale"' } })
  assert.is(stale.status, 200)
  assert.equal(stale.body, first.body)
})

test('If-None-Match never bypasses the key or permission checks', async () => {
  const first = await server.request('GET', '/v1/cms/categories', { headers: withKey.headers() })
  const etag = String(first.headers.etag)
  assert.is((await server.request('GET', '/v1/cms/categories', { headers: { 'if-none-match': etag } })).status, 401)
  assert.is((await server.request('GET', '/v1/cms/categories', { headers: { 'if-none-match': '*' } })).status, 401)
  const inquiryOnly = await server.key('acme', ['inquiry:create'])
  assert.is((await server.request('GET', '/v1/cms/categories', { headers: { 'x-api-key': inquiryOnly, 'if-none-match': etag } })).status, 403)
})

test('the ETag changes when the content changes', async () => {
  const before = await server.request('GET', '/v1/cms/contents/cnt_a', { headers: withKey.headers() })
  await importRecords(server.frontdesk.context, {
    tenantCode: 'acme',
    records: [{ location: '1', record: { kind: 'content', id: 'cnt_a', slug: 'a', title: 'Hello again', category_code: 'news', status: 'published', published_at: '2025-01-01T00:00:00Z' } }],
  })
  const after = await server.request('GET', '/v1/cms/contents/cnt_a', { headers: { ...withKey.headers(), 'if-none-match': String(before.headers.etag) } })
  assert.is(after.status, 200)
  assert.is(after.body.title, 'Hello again')
  assert.is.not(after.headers.etag, before.headers.etag)
})

test('a created inquiry is 201 no-store; an idempotent replay says so', async () => {
  const body = { category_code: 'general', title: 'Question', content: 'Hello', inquirer_name: 'Ann', inquirer_email: 'ann@example.com' }
  const headers = { ...withKey.headers(), 'idempotency-key': 'order-42' }
  const first = await server.request('POST', '/v1/inquiries', { headers, body })
  assert.is(first.status, 201, first.text)
  assert.is(first.headers['cache-control'], 'no-store')
  assert.is(first.headers.etag, undefined)
  assert.is(first.headers['idempotent-replayed'], undefined)
  const replay = await server.request('POST', '/v1/inquiries', { headers, body })
  assert.is(replay.status, 201)
  assert.is(replay.headers['idempotent-replayed'], 'true')
  assert.equal(replay.body, first.body)
  const reused = await server.request('POST', '/v1/inquiries', { headers, body: { ...body, title: 'Other' } })
  assert.is(reused.status, 422)
  assert.is(reused.body.error.code, 'IDEMPOTENCY_KEY_REUSED')
})

test.run()
