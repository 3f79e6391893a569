import * as http from 'node:http'
import type { AddressInfo } from 'node:net'
import * as assert from 'uvu/assert'
import { createPreviewToken, importRecords, listApiKeys, setApiKeyDisabled } from '@frontdesk/core'
import type { AccessLogEntry } from '@frontdesk/http'
import { createHandler, formatAccessLog, redactTarget } from '@frontdesk/http'
import type { TestServer } from './util/test-server.ts'
import { behaviourSuite, closeServer, startTestServer, storeOf } from './util/test-server.ts'

const entries: AccessLogEntry[] = []
let server: TestServer
let key: string

const test = await behaviourSuite('access log and health check', import.meta.url)

test.before(async () => {
  server = await startTestServer({ store: storeOf(import.meta.url), server: { onAccess: (entry) => entries.push(entry) } })
  await server.tenant('acme')
  key = await server.key('acme', ['cms:read'])
  await importRecords(server.frontdesk.context, {
    tenantCode: 'acme',
    records: [
      { record: { kind: 'category', id: 'cat_news', code: 'news', name: 'News' }, location: '0' },
      { record: { kind: 'content', id: 'cnt_draft', slug: 'draft', title: 'Draft', category_code: 'news' }, location: '1' },
    ],
  })
})

test.after(async () => {
  // Hint: whatever `before` got to; a throw here would end the whole test run.
  await server?.close()
})

/** The entry of the request whose response carried `requestId`, once the server logged it. */
async function entryOf(requestId: string): Promise<AccessLogEntry> {
  for (let i = 0; i < 100; i++) {
    const found = entries.find((entry) => entry.request_id === requestId)
    if (found !== undefined) return found
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
  throw new Error(`no access-log entry for ${requestId}`)
}

test('a keyed request is logged with tenant code and key id, never the key or the preview token', async () => {
  const { token } = await createPreviewToken(server.frontdesk.context, { tenantCode: 'acme', target: { kind: 'content', id: 'cnt_draft' } })
  const response = await server.request('GET', `/v1/cms/contents/slug/draft?preview_token=${token}&x=1`, { headers: { 'x-api-key': key, 'x-request-id': 'trace-abc-123' } })
  assert.is(response.status, 200)
  const entry = await entryOf('trace-abc-123')
  const keyId = (await listApiKeys(server.frontdesk.context, 'acme'))[0]?.id
  assert.equal(
    { tenant: entry.tenant, key_id: entry.key_id, method: entry.method, path: entry.path, status: entry.status },
    { tenant: 'acme', key_id: keyId, method: 'GET', path: '/v1/cms/contents/slug/draft?preview_token=REDACTED&x=1', status: 200 },
  )
  assert.ok(entry.duration_ms >= 0 && entry.duration_ms < 10_000)
  assert.is(entry.bytes, Buffer.byteLength(response.text))
  assert.is(entry.remote_address, '127.0.0.1')
  assert.ok(!Number.isNaN(Date.parse(entry.time)))
  const line = formatAccessLog(entry)
  assert.ok(line.endsWith('\n') && !line.slice(0, -1).includes('\n'))
  assert.not.ok(line.includes(key), 'the key is not logged')
  assert.not.ok(line.includes(token), 'the preview token is not logged')
})

test('refused requests are logged too: no tenant before the key is known, the tenant after', async () => {
  const anonymous = await server.request('GET', '/v1/cms/contents', { headers: { 'x-request-id': 'trace-anon-01' } })
  assert.is(anonymous.status, 401)
  assert.equal([(await entryOf('trace-anon-01')).tenant, (await entryOf('trace-anon-01')).status], [null, 401])
  const invalid = await server.request('GET', '/v1/cms/contents?limit=0', { headers: { 'x-api-key': key, 'x-request-id': 'trace-bad-001' } })
  assert.is(invalid.status, 400)
  assert.equal([(await entryOf('trace-bad-001')).tenant, (await entryOf('trace-bad-001')).status], ['acme', 400])
})

test('a key sent in the URL by mistake is redacted wherever it appears', () => {
  assert.is(redactTarget('/v1/cms/contents?api_key=abc&limit=5'), '/v1/cms/contents?api_key=REDACTED&limit=5')
  assert.is(redactTarget('/v1/cms/contents/fdk_0123456789abcdefABCDEF0123456789abcdef'), '/v1/cms/contents/REDACTED')
  assert.is(redactTarget('/v1/x?q=fdv_AAAAAAAAAAAAAAAA&Preview_Token=zzz'), '/v1/x?q=REDACTED&Preview_Token=REDACTED')
  assert.is(redactTarget('/v1/cms/contents?category_code=news'), '/v1/cms/contents?category_code=news')
  assert.is(redactTarget(`/v1/${'a'.repeat(3000)}`).length, 2049)
})

test('a key percent-encoded in the URL is recognised and redacted too', () => {
  const secret = 'fdk_0123456789abcdefABCDEF0123456789abcdef'
  const encoded = [
    `%66dk_${secret.slice(4)}`,
    `fdk%5F${secret.slice(4)}`,
    encodeURIComponent(secret).replace(/[a-z]/g, (c) => `%${c.charCodeAt(0).toString(16)}`),
    `%2566dk_${secret.slice(4)}`,
    `%66dk_${secret.slice(4)}%ZZ`,
  ]
  for (const form of encoded) {
    for (const target of [`/v1/cms/contents?q=${form}&limit=5`, `/v1/cms/contents/${form}`, `/v1/cms/contents?${form}=1`, `/v1/cms/contents?${form}`]) {
      const logged = redactTarget(target)
      assert.ok(logged.includes('REDACTED'), `${target} → ${logged}`)
      assert.not.ok(/dk(_|%5f)[0-9a-z]{8}/i.test(logged) && !logged.includes('REDACTED'), logged)
      assert.not.ok(logged.includes(secret.slice(4, 20)), `${target} → ${logged}`)
    }
  }
  assert.is(redactTarget('/v1/cms/contents?q=%66dk_0123456789&limit=5'), '/v1/cms/contents?q=REDACTED&limit=5')
  assert.is(redactTarget('/v1/cms/contents?q=caf%C3%A9'), '/v1/cms/contents?q=caf%C3%A9')
})

test('a request whose key was recognised but refused is logged with its tenant and key id (429, 403, 401 disabled)', async () => {
  const limited = await server.key('acme', ['inquiry:create'], { rateLimit: 1 })
  const keyId = (await listApiKeys(server.frontdesk.context, 'acme')).at(-1)?.id
  const ids: string[] = []
  for (let i = 0; i < 4; i++) {
    const id = `trace-limit-${i}`
    ids.push(id)
    await server.request('GET', '/v1/inquiries/categories', { headers: { 'x-api-key': limited, 'x-request-id': id } })
  }
  const throttled = (await Promise.all(ids.map(entryOf))).filter((entry) => entry.status === 429)
  assert.ok(throttled.length > 0, 'some requests were throttled')
  for (const entry of throttled) assert.equal([entry.tenant, entry.key_id], ['acme', keyId])
  const inquiryOnly = await server.key('acme', ['inquiry:create'])
  const inquiryKeyId = (await listApiKeys(server.frontdesk.context, 'acme')).at(-1)?.id
  const forbidden = await server.request('GET', '/v1/cms/contents', { headers: { 'x-api-key': inquiryOnly, 'x-request-id': 'trace-forbid-1' } })
  assert.is(forbidden.status, 403)
  assert.equal([(await entryOf('trace-forbid-1')).tenant, (await entryOf('trace-forbid-1')).key_id], ['acme', inquiryKeyId])
  await setApiKeyDisabled(server.frontdesk.context, inquiryKeyId ?? '', true)
  const disabled = await server.request('GET', '/v1/inquiries/categories', { headers: { 'x-api-key': inquiryOnly, 'x-request-id': 'trace-disabled-1' } })
  assert.is(disabled.status, 401)
  assert.equal([(await entryOf('trace-disabled-1')).tenant, (await entryOf('trace-disabled-1')).key_id], ['acme', inquiryKeyId])
})

test('a throwing access logger never breaks a request', async () => {
  const quiet = await startTestServer({
    store: storeOf(import.meta.url),
    server: {
      onAccess: () => {
        throw new Error('logger down')
      },
    },
  })
  try {
    assert.is((await quiet.request('GET', '/healthz')).status, 200)
    assert.is((await quiet.request('GET', '/healthz')).status, 200)
  } finally {
    await quiet.close()
  }
})

test('GET /healthz answers 200 without a key, 405 to other methods, and 503 once the database or the search engine is gone', async () => {
  const ok = await server.request('GET', '/healthz')
  assert.is(ok.status, 200)
  assert.equal(ok.body, { status: 'ok' })
  assert.is(ok.headers['cache-control'], 'no-store')
  assert.ok(ok.headers['x-request-id'])
  const post = await server.request('POST', '/healthz', { body: {} })
  assert.is(post.status, 405)
  assert.is(post.headers.allow, 'GET, HEAD')
  const other = await startTestServer({ store: storeOf(import.meta.url) })
  try {
    await other.store.close()
    assert.is((await other.frontdesk.health()).status, 'unavailable')
    const down = await other.request('GET', '/healthz')
    assert.is(down.status, 503)
    assert.equal(down.body, { status: 'unavailable' })
  } finally {
    await other.close()
  }
  const noSearch = await startTestServer()
  try {
    await noSearch.frontdesk.context.search?.close?.()
    assert.equal(await noSearch.frontdesk.health(), { status: 'unavailable', store: true, search: false })
    assert.is((await noSearch.request('GET', '/healthz')).status, 503)
  } finally {
    await noSearch.close()
  }
})

test('mounted in another server (with next), /healthz and other paths stay the host’s own', async () => {
  const handler = createHandler(server.frontdesk)
  const host = http.createServer((req, res) =>
    handler(req, res, () => {
      res.end(`host:${req.url}`)
    }),
  )
  await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve))
  try {
    const port = (host.address() as AddressInfo).port
    const text = await new Promise<string>((resolve, reject) => {
      http.get({ port, host: '127.0.0.1', path: '/healthz', agent: false }, (res) => {
        let body = ''
        res.on('data', (chunk: Buffer) => (body += chunk.toString()))
        res.on('end', () => resolve(body))
      }).on('error', reject)
    })
    assert.is(text, 'host:/healthz')
  } finally {
    await closeServer(host)
  }
})

test.run()
