import * as https from 'node:https'
import * as assert from 'uvu/assert'
import type { TestServer } from './util/test-server.ts'
import { behaviourSuite, startTestServer, storeOf } from './util/test-server.ts'

const test = await behaviourSuite('request bodies', import.meta.url)

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

const post = (body: unknown, headers: Record<string, string> = {}) =>
  server.request('POST', '/v1/inquiries', { headers: { 'x-api-key': key, ...headers }, body })

test('a POST without Content-Type application/json is 415', async () => {
  for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/json; charset=iso-8859-1']) {
    const res = await post('{}', { 'content-type': type })
    assert.is(res.status, 415, type)
    assert.equal(res.body, { error: { code: 'UNSUPPORTED_MEDIA_TYPE', message: 'Content-Type must be application/json' } })
  }
  assert.is((await post('{}')).status, 415, 'no Content-Type at all')
})

test('application/json with a UTF-8 charset reaches validation', async () => {
  const res = await post('{}', { 'content-type': 'application/json; charset=UTF-8' })
  assert.is(res.status, 400)
  assert.is(res.body.error.code, 'VALIDATION_ERROR')
})

test('malformed JSON is 400 VALIDATION_ERROR on field body', async () => {
  const res = await post('{"title": "x",', { 'content-type': 'application/json' })
  assert.is(res.status, 400)
  assert.equal(res.body, { error: { code: 'VALIDATION_ERROR', message: 'Validation failed', details: [{ field: 'body', message: 'must be valid JSON' }] } })
})

test('credentials are checked before the media type and the body', async () => {
  const res = await server.request('POST', '/v1/inquiries', { headers: { 'content-type': 'text/plain' }, body: 'x'.repeat(70_000) })
  assert.is(res.status, 401)
})

test('a declared Content-Length over 64 KiB is 413 without reading the body', async () => {
  const res = await post(JSON.stringify({ title: 'x'.repeat(70_000) }), { 'content-type': 'application/json' })
  assert.is(res.status, 413)
  assert.equal(res.body, { error: { code: 'PAYLOAD_TOO_LARGE', message: 'Request body exceeds 65536 bytes' } })
  assert.is(res.headers.connection, 'close')
})

test('a body of exactly 64 KiB is accepted as far as validation', async () => {
  const json = '{"title":"x"}'
  const res = await post(json + ' '.repeat(65_536 - json.length), { 'content-type': 'application/json' })
  assert.is(res.status, 400)
  assert.is(res.body.error.code, 'VALIDATION_ERROR')
})

test('a chunked body is cut off with 413 as soon as it passes 64 KiB, long before it ends', async () => {
  const chunk = Buffer.alloc(16 * 1024, 0x20)
  const limit = 64 * 1024 * 1024
  const result = await new Promise<{ status: number; written: number; body: string }>((resolve, reject) => {
    let written = 0
    let done = false
    const request = https.request(`${server.url}/v1/inquiries`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
      ca: server.cert,
      agent: false,
    })
    request.on('response', (response) => {
      done = true
      const chunks: Buffer[] = []
      response.on('data', (c: Buffer) => chunks.push(c))
      response.on('end', () => resolve({ status: response.statusCode ?? 0, written, body: Buffer.concat(chunks).toString() }))
      response.on('error', reject)
    })
    // Writes after the server closed the connection fail; the response is what counts.
    request.on('error', (error) => (done ? undefined : reject(error)))
    request.write('{"title":"')
    const pump = () => {
      while (!done && written < limit) {
        written += chunk.length
        if (!request.write(chunk)) {
          request.once('drain', pump)
          return
        }
      }
      if (!done) request.end('"}')
    }
    pump()
  })
  assert.is(result.status, 413)
  assert.is(JSON.parse(result.body).error.code, 'PAYLOAD_TOO_LARGE')
  assert.ok(result.written < limit, `server answered after ${result.written} bytes`)
})

/** A POST with `Expect: 100-continue` that sends its body only when invited. */
function expectContinue(headers: Record<string, string>, body: string): Promise<{ status: number; invited: boolean }> {
  return new Promise((resolve, reject) => {
    let invited = false
    const request = https.request(`${server.url}/v1/inquiries`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), expect: '100-continue', ...headers },
      ca: server.cert,
      agent: false,
      timeout: 10_000,
    })
    request.on('continue', () => {
      invited = true
      request.end(body)
    })
    request.on('response', (response) => {
      response.resume()
      response.on('end', () => resolve({ status: response.statusCode ?? 0, invited }))
    })
    request.on('timeout', () => request.destroy(new Error('timed out')))
    request.on('error', reject)
    request.flushHeaders()
  })
}

test('Expect: 100-continue invites the body only once the request is authorised', async () => {
  assert.equal(await expectContinue({}, '{}'), { status: 401, invited: false })
  assert.equal(await expectContinue({ 'x-api-key': key, 'content-type': 'text/plain' }, '{}'), { status: 415, invited: false })
  assert.equal(await expectContinue({ 'x-api-key': key }, '{}'), { status: 400, invited: true })
})

test('a GET with a body is served and the body ignored', async () => {
  const res = await server.request('GET', '/v1/inquiries/categories', { headers: { 'x-api-key': key }, body: { ignored: true } })
  assert.is(res.status, 200, res.text)
})

test.run()
