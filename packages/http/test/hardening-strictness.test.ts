// HTTP strictness (issue 31): requests two readers could read differently are refused rather
// than guessed at: a second Host header, a request line that is not HTTP/1.x, a body in a
// content coding the server does not decode, a JSON body naming a key twice.
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import type { RawResponse } from './util/raw-tls-client.ts'
import { rawTlsClient } from './util/raw-tls-client.ts'
import type { TestServer } from './util/test-server.ts'
import { startTestServer } from './util/test-server.ts'

interface World {
  server: TestServer
  key: string
  send: (bytes: Buffer, timeoutMs?: number) => Promise<RawResponse | null>
}

const test = suite<World>('HTTP strictness')

test.before(async (world) => {
  world.server = await startTestServer()
  await world.server.tenant('acme')
  world.key = await world.server.key('acme', ['cms:read', 'cms:search'], { rateLimit: 0 })
  world.send = rawTlsClient(world.server.port, world.server.cert)
})

test.after(async (world) => {
  // Hint: whatever `before` got to; a throw here would end the whole test run.
  await world.server?.close()
})

const errorOf = (response: RawResponse | null) => JSON.parse(response?.body.toString('utf8') ?? 'null') as { error: { code: string; details?: { field: string; message: string }[] } }

test('a second Host header is a 400 on field host, and the connection is closed', async (world) => {
  for (const hosts of ['Host: a\r\nHost: b', 'Host: a\r\nhost: a']) {
    const response = await world.send(Buffer.from(`GET /v1/cms/categories HTTP/1.1\r\n${hosts}\r\nX-API-Key: ${world.key}\r\n\r\n`))
    assert.is(response?.status, 400, hosts)
    assert.equal(errorOf(response).error.details, [{ field: 'host', message: 'must be given once' }])
    assert.is(response?.headers.connection, 'close')
    assert.match(response?.headers['x-request-id'] ?? '', /^[0-9a-f-]{36}$/)
  }
  const one = await world.send(Buffer.from(`GET /v1/cms/categories HTTP/1.1\r\nHost: a\r\nX-API-Key: ${world.key}\r\n\r\n`))
  assert.is(one?.status, 200)
})

test('request lines that are not HTTP/1.x (HTTP/2.0, HTTP/0.9 style) are refused, never served, and the connection is closed', async (world) => {
  for (const line of ['GET /v1/cms/categories HTTP/2.0\r\nHost: a', 'GET /v1/cms/categories']) {
    const response = await world.send(Buffer.from(`${line}\r\nX-API-Key: ${world.key}\r\n\r\n`))
    assert.is(response?.status, 400, line)
    assert.is(errorOf(response).error.code, 'VALIDATION_ERROR', line)
    assert.is(errorOf(response).error.details?.[0]?.field, 'request', line)
    assert.is(response?.headers.connection, 'close', line)
  }
  const old = await world.send(Buffer.from(`GET /v1/cms/categories HTTP/1.0\r\nX-API-Key: ${world.key}\r\n\r\n`))
  assert.is(old?.status, 200, 'HTTP/1.0 is still served')
})

const search = (world: World, body: string, headers = '') =>
  world.send(Buffer.from(`POST /v1/cms/search HTTP/1.1\r\nHost: a\r\nX-API-Key: ${world.key}\r\nContent-Type: application/json\r\n${headers}Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`))

test('a body in a content coding the server does not decode is a 415; identity is served', async (world) => {
  for (const coding of ['gzip', 'br', 'deflate', 'identity, gzip', 'x-custom']) {
    const response = await search(world, '{"query":"harbour"}', `Content-Encoding: ${coding}\r\n`)
    assert.is(response?.status, 415, coding)
    assert.is(errorOf(response).error.code, 'UNSUPPORTED_MEDIA_TYPE')
  }
  assert.is((await search(world, '{"query":"harbour"}', 'Content-Encoding: identity\r\n'))?.status, 200)
})

test('a JSON body naming a key twice is a 400 naming that key, at any depth and however escaped', async (world) => {
  const cases: [string, string][] = [
    ['{"query":"harbour","query":"x"}', 'query'],
    ['{"query":"harbour","size":5,"\\u0073ize":10}', 'size'],
    ['{"query":"harbour","filter":{"custom_a":1,"custom_a":2}}', 'filter.custom_a'],
  ]
  for (const [body, field] of cases) {
    const response = await search(world, body)
    assert.is(response?.status, 400, body)
    assert.equal(errorOf(response).error, { code: 'VALIDATION_ERROR', message: 'Validation failed', details: [{ field, message: 'is given more than once' }] }, body)
  }
  assert.is((await search(world, '{"query":"harbour","filter":{}}'))?.status, 200)
})

test.run()
