import * as net from 'node:net'
import * as tls from 'node:tls'
import * as assert from 'uvu/assert'
import { importRecords } from '@frontdesk/core'
import { rawTlsClient } from './util/raw-tls-client.ts'
import type { TestServer } from './util/test-server.ts'
import { behaviourSuite, startTestServer, storeOf } from './util/test-server.ts'

const test = await behaviourSuite('routing', import.meta.url)

let server: TestServer
let key: string

test.before(async () => {
  server = await startTestServer({ store: storeOf(import.meta.url) })
  await server.tenant('acme')
  key = await server.key('acme', ['cms:*', 'inquiry:create'])
})

test.after(async () => {
  // Hint: whatever `before` got to; a throw here would end the whole test run.
  await server?.close()
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

test('a CONNECT client that resets the connection does not take the server down, nor one that half-closes keep it from closing', async () => {
  // Reset right after the request: the socket's error must not become an uncaught exception.
  for (let i = 0; i < 5; i++) {
    const tcp = net.connect(server.port, '127.0.0.1')
    const client = tls.connect({ socket: tcp, ca: server.cert, servername: 'localhost' })
    client.on('error', () => undefined)
    await new Promise<void>((resolve) => client.once('secureConnect', () => resolve()))
    client.write(`CONNECT /v1/cms/contents HTTP/1.1\r\nHost: localhost\r\n\r\n`)
    await new Promise((resolve) => setTimeout(resolve, i * 5))
    tcp.resetAndDestroy()
  }
  assert.is((await server.request('GET', '/v1/cms/categories', { headers: { 'x-api-key': key } })).status, 200)
  // A client that sent its request and half-closed gets its answer, and its connection ends.
  const send = rawTlsClient(server.port, server.cert)
  const started = Date.now()
  const answer = await send(Buffer.from('CONNECT /v1/cms/contents HTTP/1.1\r\nHost: localhost\r\n\r\n'), 5_000)
  assert.is(answer?.status, 405)
  assert.ok(Date.now() - started < 2_000, 'closed by the server once answered, not after a timeout')
})

test('a client that half-closes its connection right after its request still gets the answer, however late', async () => {
  const send = rawTlsClient(server.port, server.cert)
  await importRecords(server.frontdesk.context, { tenantCode: 'acme', records: [{ location: 'r1', record: { kind: 'inquiry_category', code: 'general', name: 'General' } }] })
  const body = JSON.stringify({ category_code: 'general', title: 'Question', content: 'Hello', inquirer_name: 'Sato', inquirer_email: 'sato@example.jp' })
  // Hint: the raw client ends its side with the request; `Expect: 100-continue` has the body read late.
  const inquiry = `POST /v1/inquiries HTTP/1.1\r\nHost: localhost\r\nX-API-Key: ${key}\r\nContent-Type: application/json\r\nExpect: 100-continue\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`
  const statuses: (number | undefined)[] = []
  for (let i = 0; i < 3; i++) {
    // Another write holds the store for 200 ms: the inquiry's answer comes long after the client's close.
    const held = server.store.transaction(() => new Promise((resolve) => setTimeout(resolve, 200)))
    statuses.push((await send(Buffer.from(inquiry), 5_000))?.status)
    await held
  }
  const get = `GET /v1/cms/categories HTTP/1.1\r\nHost: localhost\r\nX-API-Key: ${key}\r\n\r\n`
  for (let i = 0; i < 3; i++) statuses.push((await send(Buffer.from(get), 5_000))?.status)
  assert.equal(statuses, [201, 201, 201, 200, 200, 200])
  // A client that ends before sending the body it announced gets an error at once, not the request timeout.
  const started = Date.now()
  const truncated = await send(Buffer.from(inquiry.slice(0, inquiry.length - body.length)), 5_000)
  assert.is(truncated?.status, 400)
  assert.ok(Date.now() - started < 2_000)
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

test('percent-encoded path parameters are decoded: an id and a slug spelt with escapes find their item, query or none', async () => {
  await importRecords(server.frontdesk.context, {
    tenantCode: 'acme',
    records: [
      { location: 'r1', record: { kind: 'category', code: 'news', name: 'News' } },
      { location: 'r2', record: { kind: 'content', id: 'cnt_escaped', category_code: 'news', slug: 'office-move', title: 'Moved', status: 'published', published_at: '2026-01-01T00:00:00Z' } },
    ],
  })
  const escaped = (text: string) => [...text].map((c, i) => (i % 2 === 0 ? `%${c.charCodeAt(0).toString(16).toUpperCase()}` : c)).join('')
  for (const path of [`/v1/cms/contents/${escaped('cnt_escaped')}`, `/v1/cms/contents/slug/${escaped('office-move')}`, '/v1/cms/contents/cnt_escaped?x=1', '/v1/cms/contents/slug/office-move?x=1']) {
    const res = await server.request('GET', path, { headers: { 'x-api-key': key } })
    assert.is(res.status, 200, path)
    assert.is(res.body.id, 'cnt_escaped', path)
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
  const local = await startTestServer({ store: storeOf(import.meta.url), server: { onError: (error) => errors.push(error) } })
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
