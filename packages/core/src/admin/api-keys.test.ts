import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { parseApiKey } from '../auth/api-key.ts'
import { AuthError, UsageError } from '../errors/frontdesk-error.ts'
import type { AdminFixture } from '../../test/util/admin-fixture.ts'
import { openAdminFixture, rejection, START } from '../../test/util/admin-fixture.ts'
import { createApiKey } from './create-api-key.ts'
import { deleteApiKey } from './delete-api-key.ts'
import { listApiKeys } from './list-api-keys.ts'
import { setApiKeyDisabled } from './set-api-key-disabled.ts'

const test = suite<{ f: AdminFixture }>('api keys', {} as { f: AdminFixture })
test.before.each(async (context) => {
  context.f = await openAdminFixture()
  await context.f.tenant('acme')
})
test.after.each(async (context) => {
  await context.f.close()
})

const read = { tenantCode: 'acme', name: 'web', permissions: ['cms:read'] }

test('a created key is returned once; only its hash and prefix are stored', async ({ f }) => {
  const { record, key } = await createApiKey(f.ctx, { ...read, permissions: ['cms:read', 'cms:search'] })
  assert.match(key, /^fdk_[0-9A-Za-z]{38}$/)
  assert.match(record.id, /^key_/)
  assert.is(record.kind, 'tenant')
  assert.equal(record.permissions, ['cms:read', 'cms:search'])
  assert.is(record.hash, parseApiKey(key)?.hash)
  assert.is(record.prefix, key.slice(0, 8))
  assert.is(record.created_at, new Date(START).toISOString())
  assert.is(record.rate_limit, null)
  const stored = await f.store.getApiKey(record.id)
  assert.equal(stored, record)
  assert.not.ok(JSON.stringify(stored).includes(key))
})

test('a created key authenticates for its permissions only', async ({ f }) => {
  const { key } = await createApiKey(f.ctx, read)
  const principal = await f.frontdesk.authenticate({ apiKey: key, authorization: false }, 'cms:read')
  assert.is(principal.tenant.code, 'acme')
  const error = await rejection(f.frontdesk.authenticate({ apiKey: key, authorization: false }, 'cms:search'))
  assert.is((error as AuthError).code, 'FORBIDDEN')
})

test('unknown permission names are refused, all of them named', async ({ f }) => {
  const error = await rejection(createApiKey(f.ctx, { ...read, permissions: ['cms:read', 'cms:write', 'admin'] }))
  assert.instance(error, UsageError)
  assert.match(error.message, /Unknown permissions: cms:write, admin/)
  assert.equal(await listApiKeys(f.ctx, 'acme'), [])
})

test('a tenant key needs at least one permission; repeats are kept once', async ({ f }) => {
  assert.match((await rejection(createApiKey(f.ctx, { ...read, permissions: [] }))).message, /at least one permission/)
  assert.match((await rejection(createApiKey(f.ctx, { ...read, permissions: [' ', ''] }))).message, /at least one permission/)
  const { record } = await createApiKey(f.ctx, { ...read, permissions: ['cms:*', ' cms:*', 'inquiry:create'] })
  assert.equal(record.permissions, ['cms:*', 'inquiry:create'])
})

test('a personal key holds no permission, and asking for one with it is refused', async ({ f }) => {
  const error = await rejection(createApiKey(f.ctx, { ...read, personal: true }))
  assert.instance(error, UsageError)
  assert.match(error.message, /personal key holds no permission/)
  const { record, key } = await createApiKey(f.ctx, { ...read, permissions: [], personal: true })
  assert.match(key, /^fdp_/)
  assert.is(record.kind, 'personal')
  assert.equal(record.permissions, [])
  const refused = await rejection(f.frontdesk.authenticate({ apiKey: key, authorization: false }, 'cms:read'))
  assert.is((refused as AuthError).code, 'CREDENTIAL_NOT_ALLOWED')
})

test('the rate limit is an integer ≥ 0 or the default', async ({ f }) => {
  for (const rateLimit of [-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
    assert.match((await rejection(createApiKey(f.ctx, { ...read, rateLimit }))).message, /Rate limit must be an integer/, String(rateLimit))
  }
  assert.is((await createApiKey(f.ctx, { ...read, rateLimit: 0 })).record.rate_limit, 0)
  assert.is((await createApiKey(f.ctx, { ...read, rateLimit: 25 })).record.rate_limit, 25)
  assert.is((await createApiKey(f.ctx, { ...read, rateLimit: null })).record.rate_limit, null)
})

test('the name must be 1 to 100 characters; the tenant must exist', async ({ f }) => {
  assert.match((await rejection(createApiKey(f.ctx, { ...read, name: '  ' }))).message, /Key name/)
  assert.match((await rejection(createApiKey(f.ctx, { ...read, name: 'x'.repeat(101) }))).message, /Key name/)
  assert.is((await rejection(createApiKey(f.ctx, { ...read, tenantCode: 'nope' }))).message, 'Unknown tenant: nope')
})

test("keys are listed per tenant, oldest first; other tenants' keys are not", async ({ f }) => {
  await f.tenant('other')
  const first = await createApiKey(f.ctx, { ...read, name: 'first' })
  f.clock.advance(1000)
  const second = await createApiKey(f.ctx, { ...read, name: 'second' })
  await createApiKey(f.ctx, { ...read, tenantCode: 'other' })
  assert.equal((await listApiKeys(f.ctx, 'acme')).map((k) => k.id), [first.record.id, second.record.id])
})

test('a disabled key is refused with API_KEY_DISABLED until enabled again', async ({ f }) => {
  const { record, key } = await createApiKey(f.ctx, read)
  const creds = { apiKey: key, authorization: false }
  f.clock.advance(5000)
  const disabled = await setApiKeyDisabled(f.ctx, record.id, true)
  assert.is(disabled.disabled_at, new Date(START + 5000).toISOString())
  assert.is(((await rejection(f.frontdesk.authenticate(creds, 'cms:read'))) as AuthError).code, 'API_KEY_DISABLED')
  f.clock.advance(5000)
  assert.is((await setApiKeyDisabled(f.ctx, record.id, true)).disabled_at, disabled.disabled_at, 'disabling twice keeps the first time')
  assert.is((await setApiKeyDisabled(f.ctx, record.id, false)).disabled_at, null)
  assert.is((await f.frontdesk.authenticate(creds, 'cms:read')).key.id, record.id)
})

test('a deleted key is gone and no longer authenticates', async ({ f }) => {
  const { record, key } = await createApiKey(f.ctx, read)
  assert.is((await deleteApiKey(f.ctx, record.id)).id, record.id)
  assert.is(await f.store.getApiKey(record.id), null)
  assert.is(((await rejection(f.frontdesk.authenticate({ apiKey: key, authorization: false }, 'cms:read'))) as AuthError).code, 'UNAUTHORIZED')
})

test('unknown key ids are named', async ({ f }) => {
  assert.is((await rejection(setApiKeyDisabled(f.ctx, 'key_nope', true))).message, 'Unknown API key: key_nope')
  assert.is((await rejection(deleteApiKey(f.ctx, 'key_nope'))).message, 'Unknown API key: key_nope')
})

test.run()
