import * as https from 'node:https'
import * as assert from 'uvu/assert'
import type { InquiryCategoryRecord, Tenant } from '@frontdesk/core'
import { newId } from '@frontdesk/core'
import { agentRequest } from './util/inquiry-requests.ts'
import type { TestServer } from './util/test-server.ts'
import { behaviourSuite, startTestServer, storeOf } from './util/test-server.ts'

const BODY = {
  category_code: 'general',
  title: '資料請求',
  content: 'パンフレットを送ってください。\nよろしくお願いします。',
  inquirer_name: '佐藤 花子',
  inquirer_email: 'hanako@example.jp',
}

interface World {
  server: TestServer
  tenant: Tenant
  /** A key holding `inquiry:create`. */
  key: string
}

async function addCategory(server: TestServer, tenantId: string, fields: Partial<InquiryCategoryRecord> & { code: string }): Promise<void> {
  const at = new Date().toISOString()
  const record: InquiryCategoryRecord = { tenant_id: tenantId, id: newId('icat'), name: fields.code, description: '', sort: 0, active: true, message: '', created_at: at, updated_at: at, ...fields }
  await server.store.transaction((tx) => tx.putInquiryCategory(record))
}

async function inquiryCount(world: World, tenantId = world.tenant.id): Promise<number> {
  return (await world.server.store.listInquiries(tenantId, { limit: 1000 })).length
}

function post(world: World, body: unknown, headers: Record<string, string> = {}) {
  return world.server.request('POST', '/v1/inquiries', { headers: { 'x-api-key': world.key, ...headers }, body })
}

const api = await behaviourSuite<World>('POST /v1/inquiries over HTTPS', import.meta.url)

api.before(async (world) => {
  world.server = await startTestServer({ store: storeOf(import.meta.url) })
})
api.before.each(async (world) => {
  // Hint: a fresh tenant per test keeps counts and idempotency keys independent.
  world.tenant = await world.server.tenant()
  world.key = await world.server.key(world.tenant.code, ['inquiry:create'])
  await addCategory(world.server, world.tenant.id, { code: 'general', message: 'お問い合わせありがとうございます。' })
})
api.after(async (world) => {
  // Hint: whatever `before` got to; a throw here would end the whole test run.
  await world.server?.close()
})

api('a valid inquiry is created: 201, the creation response, no-store', async (world) => {
  const response = await post(world, BODY)
  assert.is(response.status, 201)
  assert.is(response.headers['cache-control'], 'no-store')
  assert.is(response.headers['content-type'], 'application/json; charset=utf-8')
  assert.is(response.headers['idempotent-replayed'], undefined)
  assert.ok(response.headers['x-request-id'])
  assert.match(response.body.id, /^inq_/)
  assert.equal(Object.keys(response.body).sort(), ['category_code', 'created_at', 'id', 'message', 'status', 'title'])
  assert.is(response.body.title, '資料請求')
  assert.is(response.body.status, 'open')
  assert.is(response.body.message, 'お問い合わせありがとうございます。')
  assert.ok(!Number.isNaN(Date.parse(response.body.created_at)))
  const stored = await world.server.store.getInquiry(world.tenant.id, response.body.id)
  assert.is(stored?.content, BODY.content)
})

api('every invalid field is a detail of one 400, the unknown category among them', async (world) => {
  const response = await post(world, { ...BODY, category_code: 'nope', inquirer_email: 'hanako@', priority: '2', inquirer_phone: '03-1234-5678 内線 9', hack: true })
  assert.is(response.status, 400)
  assert.is(response.headers['cache-control'], 'no-store')
  assert.equal(response.body, {
    error: {
      code: 'VALIDATION_ERROR',
      message: 'Validation failed',
      details: [
        { field: 'category_code', message: 'must be the code of an active inquiry category' },
        { field: 'priority', message: 'must be the integer 1 (low), 2 (medium) or 3 (high)' },
        { field: 'inquirer_email', message: 'must be a valid e-mail address, like name@example.com' },
        { field: 'inquirer_phone', message: 'may contain only digits, spaces and + - ( )' },
        { field: 'hack', message: 'is not a known field' },
      ],
    },
  })
  assert.is(await inquiryCount(world), 0)
})

api('a title that looks blank (Hangul fillers) and a name with a noncharacter are one 400 that stores nothing', async (world) => {
  const response = await post(world, { ...BODY, title: '\u3164\u3164', inquirer_name: '佐藤\uffff', inquirer_company: '\u2800' })
  assert.is(response.status, 400)
  const invisible = 'must not contain invisible characters (Hangul fillers, braille blanks, noncharacters, stray variation selectors and the like)'
  assert.equal(response.body.error, {
    code: 'VALIDATION_ERROR',
    message: 'Validation failed',
    details: [
      { field: 'title', message: invisible },
      { field: 'inquirer_name', message: invisible },
      { field: 'inquirer_company', message: invisible },
    ],
  })
  assert.is(await inquiryCount(world), 0)
})

api('malformed JSON is a 400 on field body; a JSON array is a 400 on body too', async (world) => {
  const broken = await post(world, '{"title": "unterminated', { 'content-type': 'application/json' })
  assert.is(broken.status, 400)
  assert.is(broken.body.error.code, 'VALIDATION_ERROR')
  assert.equal(broken.body.error.details.map((d: { field: string }) => d.field), ['body'])
  const array = await post(world, [BODY])
  assert.is(array.status, 400)
  assert.equal(array.body.error.details, [{ field: 'body', message: 'must be a JSON object' }])
})

api('__proto__ in the body is an unknown field and pollutes nothing', async (world) => {
  const text = JSON.stringify(BODY).replace(/}$/, ',"__proto__":{"isAdmin":true}}')
  const response = await post(world, text, { 'content-type': 'application/json' })
  assert.is(response.status, 400)
  assert.equal(response.body.error.details, [{ field: '__proto__', message: 'is not a known field' }])
  assert.is(({} as Record<string, unknown>).isAdmin, undefined)
})

api('a key without inquiry:create gets 403 before its body is looked at', async (world) => {
  const reader = await world.server.key(world.tenant.code, ['cms:*'])
  const response = await world.server.request('POST', '/v1/inquiries', { headers: { 'x-api-key': reader }, body: { bad: true } })
  assert.is(response.status, 403)
  assert.equal(response.body, { error: { code: 'FORBIDDEN', message: 'Insufficient permissions: this endpoint needs inquiry:create; this key has cms:*' } })
  const none = await world.server.request('POST', '/v1/inquiries', { body: BODY })
  assert.is(none.status, 401)
  assert.is(await inquiryCount(world), 0)
})

api('a body over 64 KiB is 413, a body that is not JSON is 415, and neither stores anything', async (world) => {
  const large = await post(world, { ...BODY, content: 'あ'.repeat(30_000) })
  assert.is(large.status, 413)
  assert.is(large.body.error.code, 'PAYLOAD_TOO_LARGE')
  const form = await post(world, 'title=hello', { 'content-type': 'application/x-www-form-urlencoded' })
  assert.is(form.status, 415)
  assert.is(form.body.error.code, 'UNSUPPORTED_MEDIA_TYPE')
  assert.is(await inquiryCount(world), 0)
})

api('content at its 10,000-character limit fits in a request and is stored whole', async (world) => {
  const content = '字'.repeat(10_000)
  const response = await post(world, { ...BODY, content })
  assert.is(response.status, 201)
  assert.is((await world.server.store.getInquiry(world.tenant.id, response.body.id))?.content, content)
  const over = await post(world, { ...BODY, content: `${content}字` })
  assert.equal(over.body.error.details, [{ field: 'content', message: 'must be at most 10,000 characters' }])
})

api('a repeat with the same Idempotency-Key replays the response with Idempotent-Replayed: true', async (world) => {
  const first = await post(world, BODY, { 'idempotency-key': 'form-submit-1' })
  assert.is(first.status, 201)
  const again = await post(world, { ...BODY, priority: 2 }, { 'idempotency-key': 'form-submit-1' })
  assert.is(again.status, 201)
  assert.is(again.headers['idempotent-replayed'], 'true')
  assert.is(again.headers['cache-control'], 'no-store')
  assert.equal(again.body, first.body)
  const reused = await post(world, { ...BODY, title: 'changed' }, { 'idempotency-key': 'form-submit-1' })
  assert.is(reused.status, 422)
  assert.is(reused.body.error.code, 'IDEMPOTENCY_KEY_REUSED')
  assert.is(await inquiryCount(world), 1)
})

api('a malformed Idempotency-Key is a 400 on that header', async (world) => {
  const response = await post(world, BODY, { 'idempotency-key': 'k'.repeat(256) })
  assert.is(response.status, 400)
  assert.equal(response.body.error.details, [{ field: 'Idempotency-Key', message: 'must be at most 255 characters' }])
})

api('idempotency keys of one tenant do not touch another tenant', async (world) => {
  const other = await world.server.tenant()
  await addCategory(world.server, other.id, { code: 'general' })
  const otherKey = await world.server.key(other.code, ['inquiry:create'])
  const mine = await post(world, BODY, { 'idempotency-key': 'same' })
  const theirs = await world.server.request('POST', '/v1/inquiries', { headers: { 'x-api-key': otherKey, 'idempotency-key': 'same' }, body: { ...BODY, title: 'x' } })
  assert.is(mine.status, 201)
  assert.is(theirs.status, 201)
  assert.is(theirs.headers['idempotent-replayed'], undefined)
  assert.is(await inquiryCount(world, other.id), 1)
})

api('50 concurrent requests with one Idempotency-Key create exactly one inquiry', async (world) => {
  const agent = new https.Agent({ keepAlive: true, maxSockets: 50 })
  const target = { url: world.server.url, ca: world.server.cert, agent }
  const headers = { 'x-api-key': world.key }
  try {
    // Hint: open 50 connections first, so that the 50 POSTs reach the server together.
    await Promise.all(Array.from({ length: 50 }, () => agentRequest(target, 'GET', '/v1/inquiries/categories', headers)))
    const responses = await Promise.all(Array.from({ length: 50 }, () => agentRequest(target, 'POST', '/v1/inquiries', { ...headers, 'idempotency-key': 'double-click' }, BODY)))
    const statuses = responses.map((r) => r.status)
    assert.ok(statuses.every((s) => s === 201 || s === 409), statuses.join(','))
    const fresh = responses.filter((r) => r.status === 201 && !r.replayed)
    assert.is(fresh.length, 1)
    for (const r of responses.filter((r) => r.status === 201)) assert.is(r.body?.id, fresh[0]?.body?.id)
    for (const r of responses.filter((r) => r.status === 409)) assert.is(r.body?.error?.code, 'IDEMPOTENCY_IN_PROGRESS')
    assert.is(await inquiryCount(world), 1)
  } finally {
    agent.destroy()
  }
})

api.run()

const hooked = await behaviourSuite('POST /v1/inquiries with a failing hook', import.meta.url)

hooked('a hook that throws does not turn the 201 into an error', async () => {
  const errors: unknown[] = []
  const server = await startTestServer({
    store: storeOf(import.meta.url),
    hooks: {
      onInquiryCreated: () => {
        throw new Error('smtp down')
      },
      onHookError: (error) => errors.push(error),
    },
  })
  try {
    const tenant = await server.tenant()
    await addCategory(server, tenant.id, { code: 'general' })
    const key = await server.key(tenant.code, ['inquiry:create'])
    const response = await server.request('POST', '/v1/inquiries', { headers: { 'x-api-key': key }, body: BODY })
    assert.is(response.status, 201)
    assert.is(response.body.message, 'Thank you. Your inquiry has been received.')
    for (let i = 0; i < 100 && errors.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 10))
    assert.is((errors[0] as Error | undefined)?.message, 'smtp down')
  } finally {
    await server.close()
  }
})

hooked.run()
