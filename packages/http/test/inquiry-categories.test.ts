import * as assert from 'uvu/assert'
import type { InquiryCategoryRecord } from '@frontdesk/core'
import { newId } from '@frontdesk/core'
import { behaviourSuite, startTestServer, storeOf } from './util/test-server.ts'

const test = await behaviourSuite('GET /v1/inquiries/categories', import.meta.url)

test('GET /v1/inquiries/categories lists active categories by sort, never cached; other keys get 403', async () => {
  const server = await startTestServer({ store: storeOf(import.meta.url) })
  try {
    const tenant = await server.tenant()
    const at = new Date().toISOString()
    const category = (fields: Partial<InquiryCategoryRecord> & { code: string }): InquiryCategoryRecord =>
      ({ tenant_id: tenant.id, id: newId('icat'), name: fields.code, description: '', sort: 0, active: true, message: '', created_at: at, updated_at: at, ...fields })
    await server.store.transaction(async (tx) => {
      await tx.putInquiryCategory(category({ code: 'support', name: 'サポート', description: '製品の使い方', sort: 2 }))
      await tx.putInquiryCategory(category({ code: 'sales', name: 'Sales', sort: 1 }))
      await tx.putInquiryCategory(category({ code: 'retired', sort: 0, active: false }))
    })
    const key = await server.key(tenant.code, ['inquiry:create'])
    const response = await server.request('GET', '/v1/inquiries/categories', { headers: { 'x-api-key': key } })
    assert.is(response.status, 200)
    assert.is(response.headers['cache-control'], 'no-store')
    assert.equal(response.body, {
      categories: [
        { code: 'sales', name: 'Sales', description: '' },
        { code: 'support', name: 'サポート', description: '製品の使い方' },
      ],
    })
    const reader = await server.key(tenant.code, ['cms:*'])
    const forbidden = await server.request('GET', '/v1/inquiries/categories', { headers: { 'x-api-key': reader } })
    assert.is(forbidden.status, 403)
    assert.is(forbidden.body.error.code, 'FORBIDDEN')
  } finally {
    await server.close()
  }
})

test.run()
