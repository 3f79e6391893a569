// No 500 anywhere: a fuzzer walks every endpoint with random methods, paths (encoded garbage,
// dot segments, very long ones), headers (key shapes, duplicates, media types, idempotency
// keys, validators, preview tokens), query strings and bodies (random JSON, deep nesting,
// huge numbers, bytes that are not UTF-8), sent as raw bytes over TLS. Valid keys most of the
// time, so that requests reach the use cases. `FRONTDESK_FUZZ_RUNS` raises the count.
import * as fc from 'fast-check'
import * as assert from 'uvu/assert'
import { createPreviewToken, importRecords } from '@frontdesk/core'
import { rawTlsClient } from './util/raw-tls-client.ts'
import type { RawResponse } from './util/raw-tls-client.ts'
import type { TestServer } from './util/test-server.ts'
import { behaviourSuite, startTestServer, storeOf } from './util/test-server.ts'
import { fuzzOptions } from '@frontdesk/core/testing'

const RUNS = Number(process.env['FRONTDESK_FUZZ_RUNS'] ?? 1200)
const STACK = /\n\s+at |\bat .*\.(ts|js|mjs):\d+|node:internal|Error: /

interface World {
  server: TestServer
  send: ReturnType<typeof rawTlsClient>
  keys: string[]
  personal: string
  preview: string
  statuses: Map<number, number>
}

const test = await behaviourSuite<World>('fuzzing every endpoint', import.meta.url)

test.before(async (world) => {
  world.server = await startTestServer({ store: storeOf(import.meta.url), failedAuthRate: 0 })
  await world.server.tenant('acme')
  const records = [
    { kind: 'category', id: 'cat_news', code: 'news', name: 'News', fields: [
      { id: 'fld_n', name: 'n', type: 'number' }, { id: 'fld_d', name: 'd', type: 'date' }, { id: 'fld_s', name: 's', type: 'select', options: ['a', 'b'] },
      { id: 'fld_t', name: 't', type: 'text' }, { id: 'fld_b', name: 'b', type: 'boolean' },
    ] },
    { kind: 'inquiry_category', code: 'general', name: 'General' },
    ...Array.from({ length: 6 }, (_, i) => ({
      kind: 'content', id: `cnt_${i}`, slug: `item-${i}`, title: `Office ${i}`, category_code: 'news', tags: ['red'],
      status: i === 5 ? 'draft' : 'published', published_at: `2025-01-0${i + 1}T00:00:00Z`,
      content: { n: i, d: `2025-02-0${i + 1}`, s: i % 2 === 0 ? 'a' : 'b', t: `text ${i}`, b: i % 2 === 0 },
    })),
  ]
  await importRecords(world.server.frontdesk.context, { tenantCode: 'acme', records: records.map((record, i) => ({ record, location: `r${i}` })) })
  world.keys = [
    await world.server.key('acme', ['cms:*', 'inquiry:create'], { rateLimit: 0 }),
    await world.server.key('acme', ['cms:read'], { rateLimit: 0 }),
    await world.server.key('acme', ['inquiry:create'], { rateLimit: 0 }),
  ]
  world.personal = await world.server.key('acme', [], { personal: true, rateLimit: 0 })
  world.preview = (await createPreviewToken(world.server.frontdesk.context, { tenantCode: 'acme', target: { kind: 'content', id: 'cnt_5' } })).token
  world.send = rawTlsClient(world.server.port, world.server.cert)
  world.statuses = new Map()
})

test.after(async (world) => {
  // Hint: whatever `before` got to; a throw here would end the whole test run.
  await world.server?.close()
})

// ── generators

const text = fc.string({ unit: 'binary', maxLength: 40 })
const garbageSegment = fc.oneof(
  fc.constantFrom('', '.', '..', '%2e%2e', '%2E', '%', '%zz', '%00', '%ff', '%c0%af', '%e3%81', '%F0%9F%98%80', '//', '\\', ';x=1', '*', '~', '%20', 'cnt_1', 'item-1', 'cat_news', 'x'.repeat(65)),
  text.map(encodeURIComponent),
  fc.string({ unit: fc.constantFrom(...'abcAZ09_-.~!$&\'()*+,;=:@%'.split('')), maxLength: 30 }),
  fc.integer({ min: 1000, max: 12_000 }).map((n) => 'a'.repeat(n)),
)
const knownPath = fc.constantFrom(
  '/v1/cms/contents', '/v1/cms/contents/cnt_1', '/v1/cms/contents/cnt_5', '/v1/cms/contents/slug/item-2', '/v1/cms/categories',
  '/v1/cms/categories/cat_news', '/v1/cms/search', '/v1/cms/search', '/v1/inquiries', '/v1/inquiries', '/v1/inquiries', '/v1/inquiries/categories', '/v1', '/v1/', '/', '/v1/cms', '/v2/cms/contents',
)
const path = fc.oneof(
  { weight: 14, arbitrary: knownPath },
  { weight: 3, arbitrary: fc.tuple(fc.constantFrom('/v1/cms/contents/', '/v1/cms/contents/slug/', '/v1/cms/categories/', '/v1/inquiries/', '/v1/'), garbageSegment).map(([base, segment]) => base + segment) },
  { weight: 1, arbitrary: fc.array(garbageSegment, { minLength: 1, maxLength: 6 }).map((segments) => `/${segments.join('/')}`) },
  { weight: 1, arbitrary: fc.constantFrom('*', 'https://127.0.0.1/v1/cms/contents', '/v1/cms/../cms/contents', '/v1/cms/./contents', '/v1//cms/contents', '/V1/CMS/CONTENTS', '/v1/cms/contents/') },
)
const queryValue = fc.oneof(
  fc.constantFrom('', 'news', 'cat_news', 'red', 'tag_red', 'fld_n:1', 'fld_s:a', 'fld_d:2025-02-01', 'fld_b:true', 'fld_x:1', 'fld_n:', ':', 'published_at:asc', 'title:desc', 'custom_n:asc', 'custom_zz:asc', '1', '0', '-1', '101', '1e3', 'NaN', 'null', 'eyJ4IjoxfQ', 'AAAA'),
  text.map(encodeURIComponent),
  fc.integer({ min: 200, max: 3000 }).map((n) => 'z'.repeat(n)),
)
const queryName = fc.constantFrom('category_code', 'category_id', 'tags', 'tag_ids', 'field_filters', 'sort', 'limit', 'cursor', 'preview_token', 'page', 'x', '', '%zz', 'limit[]')
const query = fc.array(fc.tuple(queryName, queryValue), { maxLength: 4, size: 'small' }).map((pairs) => (pairs.length === 0 ? '' : `?${pairs.map(([name, value]) => `${name}=${value}`).join('&')}`))

type Header = [string, string]
const headerText = fc.oneof(text.map((value) => value.replace(/[\r\n]/g, '')), fc.string({ maxLength: 300 }))

function headers(world: World): fc.Arbitrary<Header[]> {
  const key = fc.oneof(
    { weight: 12, arbitrary: fc.constantFrom(...world.keys) },
    { weight: 1, arbitrary: fc.constantFrom(world.personal, '', 'fdk_', `fdk_${'A'.repeat(38)}`, 'Bearer x') },
    { weight: 1, arbitrary: fc.tuple(fc.constantFrom('fdk_', 'fdp_', 'fdv_', ''), fc.string({ unit: fc.constantFrom(...'abcXYZ0189'.split('')), maxLength: 50 })).map(([p, s]) => p + s) },
    { weight: 1, arbitrary: headerText },
  )
  // Each optional header is present about one time in four.
  const sometimes = <T>(arbitrary: fc.Arbitrary<T>, weight: number) => fc.oneof({ weight, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary })
  const rarely = <T>(arbitrary: fc.Arbitrary<T>) => sometimes(arbitrary, 3)
  const optional = fc.record(
    {
      second: sometimes(key, 10),
      type: fc.oneof({ weight: 6, arbitrary: fc.constant('application/json') }, { weight: 1, arbitrary: fc.constant(undefined) }, { weight: 2, arbitrary: fc.constantFrom('application/json', 'application/json; charset=utf-8', 'application/json; charset=latin1', 'APPLICATION/JSON', 'application/json;charset="UTF-8"', 'text/plain', 'application/jsonx', 'multipart/form-data; boundary=x', '', ';;', 'application/json; charset') }),
      idempotency: rarely(fc.oneof(fc.constantFrom('', 'k', 'k', 'k2', 'x'.repeat(255), 'x'.repeat(256), 'ü', ' spaced ', 'a,b'), headerText)),
      ifNoneMatch: rarely(fc.oneof(fc.constantFrom('*', '""', '"x"', 'W/"x"', 'W/', '"a", W/"b", *', ','), headerText)),
      preview: rarely(fc.oneof({ weight: 3, arbitrary: fc.constant(world.preview) }, fc.constantFrom('', 'fdv_', `fdv_${'B'.repeat(38)}`), headerText)),
      requestId: rarely(headerText),
      authorization: rarely(fc.constantFrom('Bearer abc', 'Basic Zm9vOmJhcg==', '')),
      forwarded: rarely(fc.constantFrom('http', 'https', 'https, http', '')),
      expect: rarely(fc.constantFrom('100-continue', 'nonsense')),
    },
  )
  return fc.tuple(fc.option(key, { freq: 8 }), optional).map(([first, more]) => {
    const list: Header[] = []
    if (first !== null) list.push(['X-API-Key', first])
    if (more.second !== undefined) list.push(['x-api-key', more.second])
    if (more.type !== undefined) list.push(['Content-Type', more.type])
    if (more.idempotency !== undefined) list.push(['Idempotency-Key', more.idempotency])
    if (more.ifNoneMatch !== undefined) list.push(['If-None-Match', more.ifNoneMatch])
    if (more.preview !== undefined) list.push(['X-Preview-Token', more.preview])
    if (more.requestId !== undefined) list.push(['X-Request-Id', more.requestId])
    if (more.authorization !== undefined) list.push(['Authorization', more.authorization])
    if (more.forwarded !== undefined) list.push(['X-Forwarded-Proto', more.forwarded])
    if (more.expect !== undefined) list.push(['Expect', more.expect])
    return list
  })
}

const fieldValue = fc.oneof(fc.string({ maxLength: 20 }), fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.array(fc.integer(), { maxLength: 3 }), fc.object({ maxDepth: 1 }))
const inquiryBody = fc.record(
  {
    category_code: fc.oneof(fc.constant('general'), fieldValue),
    title: fc.oneof(fc.string({ maxLength: 30 }), fieldValue, fc.constant('t'.repeat(201))),
    content: fc.oneof(fc.string({ maxLength: 30 }), fieldValue),
    inquirer_name: fc.oneof(fc.string({ maxLength: 20 }), fieldValue),
    inquirer_email: fc.oneof(fc.constantFrom('a@example.com', 'not-an-email', 'a@b', `${'x'.repeat(250)}@e.com`), fieldValue),
    inquirer_phone: fc.oneof(fc.constantFrom('+81 (3) 1234-5678', 'abc'), fieldValue),
    priority: fc.oneof(fc.integer({ min: -2, max: 5 }), fieldValue),
    extra: fieldValue,
  },
  { requiredKeys: [] },
)
const searchBody = fc.record(
  {
    query: fc.oneof(fc.constantFrom('office', '移転', 'offic', '  ', '"', '*', 'a'.repeat(501), 'OR AND NOT'), fieldValue),
    category_id: fc.oneof(fc.constant('cat_news'), fieldValue),
    tags: fc.oneof(fc.constant(['red']), fieldValue),
    sort: fc.oneof(fc.constantFrom('relevance', 'published_at:desc', 'custom_n:asc', 'custom_d:desc', 'custom_x:asc'), fieldValue),
    from: fc.oneof(fc.integer({ min: -1, max: 10_001 }), fieldValue),
    size: fc.oneof(fc.integer({ min: -1, max: 101 }), fieldValue),
    filter: fc.oneof(
      fc.constantFrom(
        { custom_n: { gte: 1, lt: 4 } }, { custom_d: { gt: '2025-02-02' } }, { custom_s: { in: ['a'] } }, { custom_t: 'text 1' }, { custom_b: true },
        { custom_n: { in: [] } }, { custom_n: { zz: 1 } }, { custom_n: 'x' }, { nope: 1 }, { custom_d: { gte: 'not a date' } },
      ),
      fc.dictionary(fc.constantFrom('custom_n', 'custom_d', 'custom_s', 'custom_t', 'custom_b', 'custom_'), fieldValue, { maxKeys: 3 }),
      fieldValue,
    ),
  },
  { requiredKeys: [] },
)
const validInquiry = fc.record({ title: fc.string({ minLength: 1, maxLength: 20 }).filter((t) => t.trim() !== ''), priority: fc.integer({ min: 1, max: 3 }) }).map(({ title, priority }) =>
  Buffer.from(JSON.stringify({ category_code: 'general', title, content: 'Hello', inquirer_name: 'Ann', inquirer_email: 'ann@example.com', priority })),
)
const body = fc.oneof(
  { weight: 2, arbitrary: validInquiry },
  { weight: 4, arbitrary: fc.oneof(inquiryBody, searchBody).map((value) => Buffer.from(JSON.stringify(value))) },
  { weight: 2, arbitrary: fc.json({ maxDepth: 4 }).map((json) => Buffer.from(json)) },
  { weight: 1, arbitrary: fc.integer({ min: 100, max: 100_000 }).map((depth) => Buffer.from('['.repeat(depth) + ']'.repeat(depth))) },
  { weight: 1, arbitrary: fc.integer({ min: 100, max: 5000 }).map((depth) => Buffer.from('{"query":'.repeat(depth) + '1' + '}'.repeat(depth))) },
  { weight: 1, arbitrary: fc.constantFrom('1e999999', '-0', '123456789012345678901234567890', '{"from": 1e308, "size": 1e-308, "query": "a"}', '{"priority": 1.0000000000000002}', '{"query":"\\ud800"}', '{"__proto__": {"x": 1}, "query": "a"}', '{"constructor": {"prototype": {}}}', 'null', '', '{', '"', '{"query": "a", "query": "b"}').map((s) => Buffer.from(s)) },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 200 }).map((bytes) => Buffer.from(bytes)) },
  { weight: 1, arbitrary: fc.constant(Buffer.from([0x7b, 0x22, 0x71, 0x75, 0x65, 0x72, 0x79, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0xc0, 0x80, 0x22, 0x7d])) },
)
const method = fc.oneof({ weight: 8, arbitrary: fc.constantFrom('GET', 'POST') }, { weight: 2, arbitrary: fc.constantFrom('HEAD', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'TRACE', 'get', 'FOO', 'CONNECT') })

interface Case {
  method: string
  target: string
  headers: Header[]
  body: Buffer | null
  chunked: boolean
}

/** The method a path is served with, so that most requests get past routing. */
function rightMethod(path: string): string {
  return path === '/v1/cms/search' || path === '/v1/inquiries' ? 'POST' : 'GET'
}

function cases(world: World): fc.Arbitrary<Case> {
  const shape = { method, path, query: fc.oneof(fc.constant(''), query), headers: headers(world), body: fc.option(body, { freq: 3 }), chunked: fc.boolean(), right: fc.boolean() }
  return fc.record(shape).map((c) => ({
    method: c.right ? rightMethod(c.path) : c.method,
    target: c.path + c.query,
    headers: c.headers,
    // Bodies mostly with POST, so that they reach the JSON parser behind the credential checks.
    body: c.method === 'POST' ? (c.body ?? Buffer.from('{}')) : c.body,
    chunked: c.chunked,
  }))
}

/** The request as bytes: a correct Content-Length (or chunked framing), so no request waits for a body that never comes. */
function bytesOf(c: Case): Buffer {
  const lines = [`${c.method} ${c.target} HTTP/1.1`, 'Host: 127.0.0.1', 'Connection: close']
  for (const [name, value] of c.headers) lines.push(`${name}: ${value}`)
  let payload: Buffer = Buffer.alloc(0)
  if (c.body !== null) {
    if (c.chunked) {
      lines.push('Transfer-Encoding: chunked')
      payload = c.body.length === 0 ? Buffer.from('0\r\n\r\n') : Buffer.concat([Buffer.from(`${c.body.length.toString(16)}\r\n`), c.body, Buffer.from('\r\n0\r\n\r\n')])
    } else {
      lines.push(`Content-Length: ${c.body.length}`)
      payload = c.body
    }
  }
  return Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'utf8'), payload])
}

function check(c: Case, response: RawResponse | null, world: World): void {
  const what = `${c.method} ${c.target.slice(0, 120)} ${JSON.stringify(c.headers).slice(0, 300)} body ${c.body?.subarray(0, 120).toString('latin1') ?? '-'}`
  assert.ok(response !== null && response.status > 0, `no response to ${what}`)
  world.statuses.set(response.status, (world.statuses.get(response.status) ?? 0) + 1)
  assert.ok(response.status < 500 || response.status === 503, `${response.status} for ${what}: ${response.body.toString().slice(0, 300)}`)
  const text = response.body.toString('utf8')
  assert.not.match(text, STACK, `stack in the reply to ${what}`)
  for (const secret of [world.server.dir, '/work/', 'node_modules', 'SELECT ', 'sqlite']) assert.not.ok(text.includes(secret), `${secret} leaked to ${what}`)
  if (response.status >= 400 && c.method !== 'HEAD') {
    let parsed: { error?: { code?: unknown } } | null = null
    try {
      parsed = JSON.parse(text) as { error?: { code?: unknown } }
    } catch {
      parsed = null
    }
    assert.type(parsed?.error?.code, 'string', `no JSON error.code for ${what}: ${response.status} ${text.slice(0, 200)}`)
    assert.match(response.headers['content-type'] ?? '', /^application\/json/, what)
  }
}

test('random requests to every endpoint never get a 500, and every error is JSON with error.code and no stack', async (world) => {
  await fc.assert(
    fc.asyncProperty(cases(world), async (c) => {
      // Node resets a CONNECT (a tunnel request) when nobody listens for tunnels: no reply to check.
      const response = await world.send(bytesOf(c)).catch((error: unknown) => {
        if (c.method === 'CONNECT') return null
        throw error
      })
      check(c, response, world)
    }),
    { numRuns: RUNS, includeErrorInReport: true, seed: fuzzOptions(RUNS).seed },
  )
  if (process.env['FRONTDESK_FUZZ_VERBOSE'] !== undefined) console.log('statuses', JSON.stringify([...world.statuses].sort()))
  // Most requests must get past the credential checks, or the fuzzer only tested the gate.
  const reached = [200, 201, 304, 400, 404, 409, 413, 415, 422].reduce((sum, status) => sum + (world.statuses.get(status) ?? 0), 0)
  assert.ok(reached > RUNS / 3, `only ${reached} of ${RUNS} requests got past the gate: ${JSON.stringify([...world.statuses])}`)
  assert.ok((world.statuses.get(200) ?? 0) + (world.statuses.get(201) ?? 0) > RUNS / 40, JSON.stringify([...world.statuses]))
})

test.run()
