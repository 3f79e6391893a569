import * as assert from 'uvu/assert'
import { createFrontdesk, deleteApiKey, listApiKeys, setApiKeyDisabled } from '@frontdesk/core'
import type { TestServer } from './util/test-server.ts'
import { behaviourSuite, eventually, propagationMs, startTestServer, storeOf } from './util/test-server.ts'

const kind = storeOf(import.meta.url)
const test = await behaviourSuite('API key authentication', import.meta.url)

let server: TestServer
let readKey: string

test.before(async () => {
  server = await startTestServer({ store: kind })
  await server.tenant('acme')
  readKey = await server.key('acme', ['cms:read'])
})

test.after(async () => {
  // Hint: whatever `before` got to; a throw here would end the whole test run.
  await server?.close()
})

const get = (headers: Record<string, string> = {}, path = '/v1/cms/categories') => server.request('GET', path, { headers })

async function keyIdOf(name: string): Promise<string> {
  const keys = await listApiKeys(server.frontdesk.context, 'acme')
  const found = keys.find((k) => k.name === name)
  assert.ok(found, name)
  return found.id
}

test('a request without X-API-Key is 401 "API key required"', async () => {
  const res = await get()
  assert.is(res.status, 401)
  assert.equal(res.body, { error: { code: 'UNAUTHORIZED', message: 'API key required' } })
})

test('a key sent only as a query parameter is not accepted, and the 401 says where it belongs', async () => {
  const told = 'API key required: send it in the X-API-Key header (a key in the URL is never accepted)'
  for (const name of ['api_key', 'apiKey', 'x-api-key', 'key']) {
    const res = await get({}, `/v1/cms/categories?${name}=${readKey}`)
    assert.is(res.status, 401, name)
    assert.equal(res.body.error, { code: 'UNAUTHORIZED', message: told }, name)
  }
  // A key under any other name is recognised by its shape; a list's own parameters are not keys.
  assert.is((await get({}, `/v1/cms/contents?category_code=news&k=${readKey}`)).body.error.message, told)
  assert.is((await get({}, '/v1/cms/contents?category_code=news&limit=5')).body.error.message, 'API key required')
  // With the header, the key in the URL changes nothing: the header's key is the one checked.
  assert.is((await get({ 'x-api-key': readKey }, `/v1/cms/categories?api_key=${readKey}`)).status, 200)
})

test('an unknown key is 401 "Invalid API key"', async () => {
  const res = await get({ 'x-api-key': 'fdk_00000000000000000000000000000000abcdef' })
  assert.is(res.status, 401)
  assert.equal(res.body, { error: { code: 'UNAUTHORIZED', message: 'Invalid API key' } })
})

test('a key with a bad checksum is 401 without any storage lookup', async () => {
  const store = server.store
  const original = store.findApiKeyByHash
  let lookups = 0
  store.findApiKeyByHash = (hash) => {
    lookups++
    return original.call(store, hash)
  }
  try {
    const last = readKey.at(-1) === 'a' ? 'b' : 'a'
    const res = await get({ 'x-api-key': readKey.slice(0, -1) + last })
    assert.is(res.status, 401)
    assert.is(res.body.error.message, 'Invalid API key')
    assert.is(lookups, 0)
    assert.is((await get({ 'x-api-key': readKey })).status, 200)
    assert.is(lookups, 1, 'the spy does see real lookups')
  } finally {
    store.findApiKeyByHash = original
  }
})

test('a personal key is 403 CREDENTIAL_NOT_ALLOWED', async () => {
  const personal = await server.key('acme', [], { personal: true })
  assert.ok(personal.startsWith('fdp_'))
  const res = await get({ 'x-api-key': personal })
  assert.is(res.status, 403)
  assert.equal(res.body, { error: { code: 'CREDENTIAL_NOT_ALLOWED', message: 'This credential type cannot access this API' } })
})

test('an Authorization header without X-API-Key is 403 CREDENTIAL_NOT_ALLOWED', async () => {
  const res = await get({ authorization: 'Bearer some-oauth-token' })
  assert.is(res.status, 403)
  assert.is(res.body.error.code, 'CREDENTIAL_NOT_ALLOWED')
})

test('a valid key alongside an Authorization header is served', async () => {
  assert.is((await get({ authorization: 'Bearer x', 'x-api-key': readKey })).status, 200)
})

test('a key lacking the permission is 403 FORBIDDEN "Insufficient permissions" naming what the endpoint needs, before the body is looked at', async () => {
  const res = await server.request('POST', '/v1/cms/search', { headers: { 'x-api-key': readKey, 'content-type': 'text/plain' }, body: 'not json' })
  assert.is(res.status, 403)
  assert.equal(res.body, { error: { code: 'FORBIDDEN', message: 'Insufficient permissions: this endpoint needs cms:search (or cms:*); this key has cms:read' } })
  const inquiry = await get({ 'x-api-key': readKey }, '/v1/inquiries/categories')
  assert.is(inquiry.status, 403)
  const inquiryKey = await server.key('acme', ['inquiry:create'])
  assert.is((await get({ 'x-api-key': inquiryKey })).status, 403)
  assert.is((await get({ 'x-api-key': inquiryKey }, '/v1/inquiries/categories')).status, 200)
})

test('cms:* grants reading; cms:search alone does not', async () => {
  assert.is((await get({ 'x-api-key': await server.key('acme', ['cms:*']) })).status, 200)
  assert.is((await get({ 'x-api-key': await server.key('acme', ['cms:search']) })).status, 403)
})

test('disabling a key takes effect on the next request, and enabling it again too', async () => {
  const key = await server.key('acme', ['cms:read'], { name: 'to disable' })
  assert.is((await get({ 'x-api-key': key })).status, 200)
  const id = await keyIdOf('to disable')
  await setApiKeyDisabled(server.frontdesk.context, id, true)
  const res = await get({ 'x-api-key': key })
  assert.is(res.status, 401)
  assert.equal(res.body, { error: { code: 'API_KEY_DISABLED', message: 'API key is disabled' } })
  await setApiKeyDisabled(server.frontdesk.context, id, false)
  assert.is((await get({ 'x-api-key': key })).status, 200)
})

test('a key disabled or deleted by another process (another store over the database) is refused on the next request (SQLite), within 1 s (PostgreSQL)', async () => {
  const key = await server.key('acme', ['cms:read'], { name: 'other process' })
  const gone = await server.key('acme', ['cms:read'], { name: 'other process, deleted' })
  assert.is((await get({ 'x-api-key': key })).status, 200)
  assert.is((await get({ 'x-api-key': gone })).status, 200)
  const other = await server.reopen()
  try {
    const ctx = createFrontdesk({ store: other }).context
    await setApiKeyDisabled(ctx, await keyIdOf('other process'), true)
    await deleteApiKey(ctx, await keyIdOf('other process, deleted'))
  } finally {
    await other.close()
  }
  await eventually(async () => (await get({ 'x-api-key': key })).body?.error?.code === 'API_KEY_DISABLED', propagationMs(kind), 'the disabled key refused')
  await eventually(async () => (await get({ 'x-api-key': gone })).body?.error?.message === 'Invalid API key', propagationMs(kind), 'the deleted key refused')
})

test('a deleted key is 401 "Invalid API key"', async () => {
  const key = await server.key('acme', ['cms:read'], { name: 'to delete' })
  assert.is((await get({ 'x-api-key': key })).status, 200)
  await deleteApiKey(server.frontdesk.context, await keyIdOf('to delete'))
  const res = await get({ 'x-api-key': key })
  assert.is(res.status, 401)
  assert.is(res.body.error.message, 'Invalid API key')
})

test('credentials are checked before the resource: an unknown key learns nothing about ids', async () => {
  const res = await get({ 'x-api-key': 'fdk_nope' }, '/v1/cms/contents/cnt_does_not_exist')
  assert.is(res.status, 401)
  assert.is((await get({}, '/v1/cms/categories/%ZZ')).status, 401)
})

test.run()
