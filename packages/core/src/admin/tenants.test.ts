import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { UsageError } from '../errors/frontdesk-error.ts'
import type { AdminFixture } from '../../test/util/admin-fixture.ts'
import { openAdminFixture, rejection, START } from '../../test/util/admin-fixture.ts'
import { createTenant } from './create-tenant.ts'
import { listTenants } from './list-tenants.ts'
import { requireTenant } from './require-tenant.ts'

const test = suite<{ f: AdminFixture }>('tenants', {} as { f: AdminFixture })
test.before.each(async (context) => {
  context.f = await openAdminFixture()
})
test.after.each(async (context) => {
  await context.f.close()
})

test('a tenant is created with a generated id, its name defaulting to the code', async ({ f }) => {
  const tenant = await createTenant(f.ctx, { code: 'acme' })
  assert.match(tenant.id, /^ten_[0-9a-z]{26}$/)
  assert.is(tenant.name, 'acme')
  assert.is(tenant.created_at, new Date(START).toISOString())
  assert.equal(await f.store.getTenantByCode('acme'), tenant)
})

test('a tenant keeps the name it is given, trimmed', async ({ f }) => {
  assert.is((await createTenant(f.ctx, { code: 'jp-shop', name: '  株式会社サンプル ' })).name, '株式会社サンプル')
})

test('a taken code is refused', async ({ f }) => {
  await createTenant(f.ctx, { code: 'acme' })
  const error = await rejection(createTenant(f.ctx, { code: 'acme' }))
  assert.instance(error, UsageError)
  assert.is(error.message, 'Tenant already exists: acme')
})

test('codes outside ^[a-z0-9][a-z0-9-]{0,62}$ are refused, naming the field', async ({ f }) => {
  for (const code of ['', 'Acme', '-acme', 'a_b', 'a'.repeat(64), 'ac me', 'äcme']) {
    const error = await rejection(createTenant(f.ctx, { code }))
    assert.instance(error, UsageError, code)
    assert.match(error.message, /^Invalid tenant: code: /)
  }
  assert.is((await createTenant(f.ctx, { code: 'a'.repeat(63) })).code.length, 63)
  assert.is((await createTenant(f.ctx, { code: '0-a' })).code, '0-a')
})

test('an empty name is refused', async ({ f }) => {
  assert.match((await rejection(createTenant(f.ctx, { code: 'acme', name: '  ' }))).message, /name: must not be empty/)
})

test('tenants are listed by code', async ({ f }) => {
  await createTenant(f.ctx, { code: 'zeta' })
  await createTenant(f.ctx, { code: 'alpha' })
  assert.equal((await listTenants(f.ctx)).map((t) => t.code), ['alpha', 'zeta'])
})

test('requireTenant finds a tenant by code and names an unknown one', async ({ f }) => {
  const tenant = await createTenant(f.ctx, { code: 'acme' })
  assert.equal(await requireTenant(f.ctx, 'acme'), tenant)
  const error = await rejection(requireTenant(f.ctx, 'nope'))
  assert.instance(error, UsageError)
  assert.is(error.message, 'Unknown tenant: nope')
})

test.run()
