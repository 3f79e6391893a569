import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { inquiryFixture } from '../../test/util/inquiry-fixture.ts'

test('active inquiry categories of the tenant only, by sort then code, never cached', async () => {
  const f = await inquiryFixture()
  try {
    const tenantId = f.principal.tenant.id
    await f.category(tenantId, { code: 'general', name: 'General', sort: 5 })
    await f.category(tenantId, { code: 'b-sales', name: '営業', description: 'Quotes and orders', sort: 1 })
    await f.category(tenantId, { code: 'a-press', name: 'Press', sort: 1 })
    await f.category(tenantId, { code: 'old', name: 'Old', sort: 0, active: false })
    const other = await f.otherTenant('globex')
    await f.category(other.tenant.id, { code: 'theirs', sort: -1 })

    const reply = await f.frontdesk.listInquiryCategories(f.principal)
    assert.is(reply.status, 200)
    assert.equal(reply.cache, { kind: 'no-store' })
    assert.equal(reply.body, {
      categories: [
        { code: 'a-press', name: 'Press', description: '' },
        { code: 'b-sales', name: '営業', description: 'Quotes and orders' },
        { code: 'general', name: 'General', description: '' },
      ],
    })
  } finally {
    await f.close()
  }
})

test('a tenant without categories gets an empty list', async () => {
  const f = await inquiryFixture()
  try {
    const other = await f.otherTenant('empty')
    assert.equal((await f.frontdesk.listInquiryCategories(other)).body, { categories: [] })
  } finally {
    await f.close()
  }
})

test.run()
