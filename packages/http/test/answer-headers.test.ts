// Every kind of answer the server gives — replies, errors, the health check, CONNECT and the
// requests node:http refuses before routing — carries the headers CONTRACT §1 asks of every
// response, over TLS and behind a proxy.
import type { IncomingHttpHeaders } from 'node:http'
import * as http from 'node:http'
import type { AddressInfo } from 'node:net'
import * as tls from 'node:tls'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { importRecords, StorageUnavailableError } from '@frontdesk/core'
import { createServer } from '@frontdesk/http'
import { rawTlsClient } from './util/raw-tls-client.ts'
import type { TestServer } from './util/test-server.ts'
import { closeServer, startTestServer, storeOf } from './util/test-server.ts'

let server: TestServer
let key: string

test.before(async () => {
  server = await startTestServer({
    store: storeOf(import.meta.url),
    server: { headersTimeoutMs: 1_000, requestTimeoutMs: 2_000, bodyLimit: 1_024, onUnavailable: () => undefined },
  })
  await server.tenant('acme')
  key = await server.key('acme', ['cms:*', 'inquiry:create'])
  await importRecords(server.frontdesk.context, {
    tenantCode: 'acme',
    records: [
      { location: '1', record: { kind: 'category', id: 'cat_news', code: 'news', name: 'News' } },
      { location: '2', record: { kind: 'inquiry_category', code: 'general', name: 'General' } },
    ],
  })
})

test.after(async () => {
  // Hint: whatever `before` got to; a throw here would end the whole test run.
  await server?.close()
})

type Headers = IncomingHttpHeaders | Record<string, string>

/** The headers of every answer (CONTRACT §1); `tls` when the request came over HTTPS. */
function assertContractHeaders(what: string, headers: Headers, tls: boolean): void {
  assert.is(headers['content-type'], 'application/json; charset=utf-8', `${what}: Content-Type`)
  assert.match(String(headers['x-request-id']), /^[A-Za-z0-9._:-]{8,128}$/, `${what}: X-Request-Id`)
  assert.is(headers['x-content-type-options'], 'nosniff', `${what}: nosniff`)
  assert.is(headers.vary, 'X-API-Key, X-Preview-Token', `${what}: Vary`)
  assert.match(String(headers['cache-control']), /^(private, max-age=\d+|no-store)$/, `${what}: Cache-Control`)
  assert.is(headers['strict-transport-security'], tls ? 'max-age=31536000' : undefined, `${what}: HSTS`)
}

const withKey = () => ({ 'x-api-key': key })
const inquiry = { category_code: 'general', title: 'Question', content: 'Hello', inquirer_name: 'Ann', inquirer_email: 'ann@example.com' }

test('replies and errors: 200, 201, 304, 400, 401, 403, 404, 405, 413, 415, 429', async () => {
  const ok = await server.request('GET', '/v1/cms/categories', { headers: withKey() })
  const limited = await server.key('acme', ['cms:read'], { rateLimit: 1 })
  const answers: [string, number, Promise<{ status: number; headers: Headers }>][] = [
    ['a reply', 200, Promise.resolve(ok)],
    ['a created inquiry', 201, server.request('POST', '/v1/inquiries', { headers: withKey(), body: inquiry })],
    ['a validator that matches', 304, server.request('GET', '/v1/cms/categories', { headers: { ...withKey(), 'if-none-match': String(ok.headers.etag) } })],
    ['invalid input', 400, server.request('GET', '/v1/cms/contents?limit=0', { headers: withKey() })],
    ['no key', 401, server.request('GET', '/v1/cms/categories')],
    ['a missing permission', 403, server.request('POST', '/v1/cms/search', { headers: { 'x-api-key': limited }, body: { query: 'x' } })],
    ['an unknown route', 404, server.request('GET', '/nowhere')],
    ['a wrong method', 405, server.request('DELETE', '/v1/cms/categories')],
    ['a body too large', 413, server.request('POST', '/v1/inquiries', { headers: withKey(), body: { ...inquiry, content: 'x'.repeat(2_000) } })],
    ['a body not JSON', 415, server.request('POST', '/v1/inquiries', { headers: { ...withKey(), 'content-type': 'text/plain' }, body: 'hello' })],
  ]
  // Hint: each is awaited in its turn below; one failing before then must fail this test, not crash the run unhandled.
  for (const [, , answer] of answers) answer.catch(() => {})
  for (const [what, status, answer] of answers) {
    const res = await answer
    assert.is(res.status, status, what)
    assertContractHeaders(what, res.headers, true)
  }
  let throttled = null
  for (let i = 0; i < 10 && throttled === null; i++) {
    const res = await server.request('GET', '/v1/cms/categories', { headers: { 'x-api-key': limited } })
    if (res.status === 429) throttled = res
  }
  assert.ok(throttled, 'a key limited to 1/s is refused within 10 requests')
  assertContractHeaders('a throttled key', throttled.headers, true)
  assert.ok(throttled.headers['retry-after'])
})

test('failures: 500 and 503', async () => {
  const store = server.frontdesk.context.store
  const { revision, listCategories } = store
  // Hint: both reads fail, so that the request fails whether the response cache is on (it reads the revision first) or off.
  const failWith = (error: () => Error) => {
    store.revision = () => Promise.reject(error())
    store.listCategories = () => Promise.reject(error())
  }
  try {
    failWith(() => new Error('boom'))
    const failed = await server.request('GET', '/v1/cms/categories', { headers: withKey() })
    assert.is(failed.status, 500)
    assertContractHeaders('an unexpected failure', failed.headers, true)
    failWith(() => new StorageUnavailableError())
    const unavailable = await server.request('GET', '/v1/cms/categories', { headers: withKey() })
    assert.is(unavailable.status, 503)
    assertContractHeaders('storage unavailable', unavailable.headers, true)
  } finally {
    store.revision = revision
    store.listCategories = listCategories
  }
})

test('the health check: 200, 405 and 503', async () => {
  const store = server.frontdesk.context.store
  assertContractHeaders('health', (await server.request('GET', '/healthz')).headers, true)
  const post = await server.request('POST', '/healthz', { body: {} })
  assert.is(post.status, 405)
  assertContractHeaders('health, wrong method', post.headers, true)
  const ping = store.ping
  try {
    store.ping = () => Promise.reject(new StorageUnavailableError())
    const down = await server.request('GET', '/healthz')
    assert.is(down.status, 503)
    assertContractHeaders('health, store down', down.headers, true)
  } finally {
    store.ping = ping
  }
})

test('CONNECT, on an API path, on /healthz and elsewhere', async () => {
  const send = rawTlsClient(server.port, server.cert)
  for (const [target, status] of [['/v1/cms/contents', 405], ['/healthz', 405], ['example.com:443', 404]] as const) {
    const res = await send(Buffer.from(`CONNECT ${target} HTTP/1.1\r\nHost: localhost\r\nX-API-Key: ${key}\r\n\r\n`), 5_000)
    assert.is(res?.status, status, target)
    assertContractHeaders(`CONNECT ${target}`, res?.headers ?? {}, true)
  }
})

test('requests refused before routing: malformed (400), headers too large (431), too slow (408)', async () => {
  const send = rawTlsClient(server.port, server.cert)
  const malformed = await send(Buffer.from('NOT HTTP AT ALL\r\n\r\n'), 5_000)
  assert.is(malformed?.status, 400)
  assertContractHeaders('malformed HTTP', malformed?.headers ?? {}, true)
  const large = await server.request('GET', '/v1/cms/categories', { headers: { ...withKey(), 'x-padding': 'a'.repeat(20_000) } })
  assert.is(large.status, 431)
  assertContractHeaders('headers too large', large.headers, true)
  const slow = await slowRequest(server.port, server.cert)
  assert.is(slow.status, 408)
  assertContractHeaders('a request not sent in time', slow.headers, true)
})

test('behind a proxy: HSTS only on requests the proxy vouches for as HTTPS, and on every kind of answer', async () => {
  const proxied = createServer(server.frontdesk, { behindProxy: true }, { onError: () => undefined })
  await new Promise<void>((resolve) => proxied.listen(0, '127.0.0.1', resolve))
  try {
    const port = (proxied.address() as AddressInfo).port
    const https = { 'x-forwarded-proto': 'https' }
    const cases: [string, number, string, Record<string, string>, boolean][] = [
      ['a vouched reply', 200, '/v1/cms/categories', { ...https, ...withKey() }, true],
      ['a vouched error', 401, '/v1/cms/categories', https, true],
      ['plain HTTP', 403, '/v1/cms/categories', withKey(), false],
      ['health over plain HTTP', 200, '/healthz', {}, false],
      ['health, vouched', 200, '/healthz', https, true],
    ]
    for (const [what, status, path, headers, vouched] of cases) {
      const res = await plainRequest(port, path, headers)
      assert.is(res.status, status, what)
      assertContractHeaders(what, res.headers, vouched)
    }
  } finally {
    await closeServer(proxied)
  }
})

/** A GET over plain HTTP to 127.0.0.1:`port`. */
function plainRequest(port: number, path: string, headers: Record<string, string>): Promise<{ status: number; headers: IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path, headers, agent: false }, (res) => {
        res.resume()
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers }))
      })
      .on('error', reject)
  })
}

/** Sends half a request head over TLS and waits: the server's answer once its header timeout passed. */
function slowRequest(port: number, ca: string): Promise<{ status: number; headers: Record<string, string> }> {
  return new Promise((resolve, reject) => {
    const socket = tls.connect({ host: '127.0.0.1', port, ca, servername: 'localhost' })
    const chunks: Buffer[] = []
    const timer = setTimeout(() => socket.destroy(new Error('no answer within 8 s')), 8_000)
    socket.on('secureConnect', () => socket.write('GET /v1/cms/categories HTTP/1.1\r\nHost: localhost\r\n'))
    socket.on('data', (chunk: Buffer) => chunks.push(chunk))
    socket.on('error', reject)
    socket.on('close', () => {
      clearTimeout(timer)
      const [head = ''] = Buffer.concat(chunks).toString('latin1').split('\r\n\r\n')
      const [statusLine = '', ...lines] = head.split('\r\n')
      const headers: Record<string, string> = {}
      for (const line of lines) {
        const colon = line.indexOf(':')
        if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim()
      }
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(statusLine)?.[1] ?? 0), headers })
    })
  })
}

test.run()
