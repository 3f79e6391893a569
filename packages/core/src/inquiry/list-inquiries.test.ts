import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { FrontdeskError, UsageError } from '../errors/frontdesk-error.ts'
import { getInquiryForTenant } from './get-inquiry-for-tenant.ts'
import type { InquiryFixture } from '../../test/util/inquiry-fixture.ts'
import { inquiryFixture, VALID_BODY } from '../../test/util/inquiry-fixture.ts'
import { listInquiries } from './list-inquiries.ts'

async function message(promise: Promise<unknown>): Promise<string> {
  try {
    await promise
  } catch (error) {
    assert.instance(error, UsageError)
    return (error as FrontdeskError).message
  }
  throw new Error('expected a UsageError')
}

const admin = suite<{ f: InquiryFixture; ids: string[] }>('listInquiries and getInquiryForTenant')
admin.before.each(async (context) => {
  context.f = await inquiryFixture()
  context.ids = []
  for (let i = 0; i < 5; i++) {
    context.f.clock.advance(1000)
    context.ids.push((await context.f.frontdesk.createInquiry(context.f.principal, { ...VALID_BODY, title: `#${i}` })).body.id)
  }
})
admin.after.each(async ({ f }) => {
  await f.close()
})

admin('lists newest first, pages with limit and before, filters by status', async ({ f, ids }) => {
  const ctx = f.frontdesk.context
  const all = await listInquiries(ctx, { tenantCode: 'acme' })
  assert.equal(all.map((i) => i.id), ids.slice().reverse())
  const first = await listInquiries(ctx, { tenantCode: 'acme', limit: 2 })
  assert.equal(first.map((i) => i.title), ['#4', '#3'])
  const next = await listInquiries(ctx, { tenantCode: 'acme', limit: 2, before: first[1]?.id ?? '' })
  assert.equal(next.map((i) => i.title), ['#2', '#1'])
  assert.is((await listInquiries(ctx, { tenantCode: 'acme', status: 'open' })).length, 5)
})

admin('another tenant sees none of them', async ({ f }) => {
  await f.otherTenant('globex')
  assert.equal(await listInquiries(f.frontdesk.context, { tenantCode: 'globex' }), [])
})

admin('an unknown tenant, status, limit or before is a usage error', async ({ f }) => {
  const ctx = f.frontdesk.context
  assert.is(await message(listInquiries(ctx, { tenantCode: 'nope' })), 'Unknown tenant: nope')
  assert.is(await message(listInquiries(ctx, { tenantCode: 'acme', status: 'closed' })), 'Unknown status: closed (expected: open)')
  for (const limit of [0, 1001, 1.5]) {
    assert.match(await message(listInquiries(ctx, { tenantCode: 'acme', limit })), /^Invalid limit/)
  }
  for (const before of ['a b', 'nope', 'inq_nope', 'cnt_01k0aaaaaaaaaaaaaaaaaaaaaa']) {
    assert.is(await message(listInquiries(ctx, { tenantCode: 'acme', before })), `Invalid inquiry id: ${before} (expected an id such as inq_01k0…, as inquiry list prints)`)
  }
})

admin('shows one inquiry of the tenant, and refuses unknown ids and other tenants', async ({ f, ids }) => {
  const ctx = f.frontdesk.context
  const id = ids[0] ?? ''
  const inquiry = await getInquiryForTenant(ctx, 'acme', id)
  assert.is(inquiry.title, '#0')
  assert.is(await message(getInquiryForTenant(ctx, 'acme', 'inq_missing')), 'Unknown inquiry: inq_missing')
  await f.otherTenant('globex')
  assert.is(await message(getInquiryForTenant(ctx, 'globex', id)), `Unknown inquiry: ${id}`)
  assert.is(await message(getInquiryForTenant(ctx, 'nope', id)), 'Unknown tenant: nope')
})

admin.run()
