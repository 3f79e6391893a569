import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { rawTlsClient } from './hardening/raw-tls-client.ts'
import type { TestServer } from './util/test-server.ts'
import { startTestServer } from './util/test-server.ts'

let server: TestServer
let key: string

test.before(async () => {
  server = await startTestServer()
  await server.tenant('acme')
  key = await server.key('acme', ['cms:*', 'inquiry:create'])
})

test.after(async () => {
  await server.close()
})

test('an unknown path is 404 NOT_FOUND, before any credential check', async () => {
  for (const path of ['/', '/v1', '/v2/cms/contents', '/v1/cms/contents/', '/v1/cms/nothing', '/favicon.ico', '/v1/cms/contents/a/b']) {
    const res = await server.request('GET', path)
    assert.is(res.status, 404, path)
    assert.equal(res.body, { error: { code: 'NOT_FOUND', message: 'Route not found' } }, path)
  }
})

test('a wrong method on a known path is 405 with Allow, before any credential check', async () => {
  const cases: [string, string, string][] = [
    ['POST', '/v1/cms/contents', 'GET, HEAD'],
    ['DELETE', '/v1/cms/contents/cnt_1', 'GET, HEAD'],
    ['PUT', '/v1/cms/categories/cat_1', 'GET, HEAD'],
    ['GET', '/v1/cms/search', 'POST'],
    ['PATCH', '/v1/inquiries', 'POST'],
    ['OPTIONS', '/v1/inquiries/categories', 'GET, HEAD'],
  ]
  for (const [method, path, allow] of cases) {
    const res = await server.request(method, path)
    assert.is(res.status, 405, `${method} ${path}`)
    assert.is(res.headers.allow, allow)
    assert.equal(res.body, { error: { code: 'METHOD_NOT_ALLOWED', message: 'Method not allowed' } })
  }
})

test('CONNECT, which node:http keeps from the handler, is answered like any method no route has, and the connection closed', async () => {
  const send = rawTlsClient(server.port, server.cert)
  const cases: [string, number, string | undefined][] = [
    ['/v1/cms/contents', 405, 'GET, HEAD'],
    ['/v1/inquiries', 405, 'POST'],
    ['/healthz', 405, 'GET, HEAD'],
    ['example.com:443', 404, undefined],
    ['/v1/nothing', 404, undefined],
  ]
  for (const [target, status, allow] of cases) {
    const res = await send(Buffer.from(`CONNECT ${target} HTTP/1.1\r\nHost: localhost\r\nX-API-Key: ${key}\r\n\r\n`), 5_000)
    assert.ok(res !== null, target)
    assert.is(res.status, status, target)
    assert.is(res.headers['allow'], allow, target)
    assert.is(res.headers['connection'], 'close', target)
    assert.is(res.headers['content-type'], 'application/json; charset=utf-8', target)
    assert.ok(res.headers['x-request-id'], target)
    const code = (JSON.parse(res.body.toString()) as { error: { code: string } }).error.code
    assert.is(code, status === 405 ? 'METHOD_NOT_ALLOWED' : 'NOT_FOUND', target)
  }
})

test('HEAD is answered like GET, without a body', async () => {
  const get = await server.request('GET', '/v1/cms/categories', { headers: { 'x-api-key': key } })
  const head = await server.request('HEAD', '/v1/cms/categories', { headers: { 'x-api-key': key } })
  assert.is(head.status, 200)
  assert.is(head.text, '')
  assert.is(head.headers['content-length'], get.headers['content-length'])
  assert.is(head.headers.etag, get.headers.etag)
})

test('a path parameter with broken percent-encoding is 404, never 500', async () => {
  for (const path of ['/v1/cms/contents/%E0%A4%A', '/v1/cms/contents/%ZZ', '/v1/cms/contents/slug/%', '/v1/cms/categories/%C0%AF']) {
    const res = await server.request('GET', path, { headers: { 'x-api-key': key } })
    assert.is(res.status, 404, path)
    assert.is(res.body.error.code, 'NOT_FOUND')
  }
})

test('percent-encoded path parameters are decoded (a Japanese slug is simply not found)', async () => {
  const res = await server.request('GET', `/v1/cms/contents/slug/${encodeURIComponent('オフィス移転')}`, { headers: { 'x-api-key': key } })
  assert.ok(res.status === 404 || res.status === 400, String(res.status))
})

test('a content that does not exist is 404 after the credential check passes', async () => {
  const res = await server.request('GET', '/v1/cms/contents/cnt_missing', { headers: { 'x-api-key': key } })
  assert.is(res.status, 404)
  assert.is(res.body.error.code, 'NOT_FOUND')
})

test('preview_token is taken out of the list query, so validation does not see it', async () => {
  const res = await server.request('GET', '/v1/cms/contents?preview_token=', { headers: { 'x-api-key': key } })
  assert.is(res.status, 200, res.text)
  const bad = await server.request('GET', '/v1/cms/contents?preview_token=fdv_garbage', { headers: { 'x-api-key': key } })
  assert.is(bad.status, 401)
  assert.is(bad.body.error.code, 'PREVIEW_TOKEN_INVALID')
  const header = await server.request('GET', '/v1/cms/contents', { headers: { 'x-api-key': key, 'x-preview-token': 'fdv_garbage' } })
  assert.is(header.body.error.code, 'PREVIEW_TOKEN_INVALID')
  const unknown = await server.request('GET', '/v1/cms/contents?bogus=1', { headers: { 'x-api-key': key } })
  assert.is(unknown.status, 400)
})

test('an unexpected failure is a bare 500 with the request id, and is reported to onError', async () => {
  const errors: unknown[] = []
  const local = await startTestServer({ server: { onError: (error) => errors.push(error) } })
  try {
    await local.tenant('acme')
    const localKey = await local.key('acme', ['cms:read'])
    local.store.listCategories = () => Promise.reject(new Error('SQLITE_CORRUPT: database disk image is malformed at /secret/path.db'))
    const res = await local.request('GET', '/v1/cms/categories', { headers: { 'x-api-key': localKey } })
    assert.is(res.status, 500)
    assert.equal(res.body, { error: { code: 'INTERNAL_ERROR', message: 'Internal server error' } })
    assert.not.match(res.text, /SQLITE|secret/)
    assert.is(res.headers['cache-control'], 'no-store')
    assert.is(errors.length, 1)
  } finally {
    await local.close()
  }
})

test.run()
