import * as assert from 'uvu/assert'
import { aCategory, aContent, anApiKey, anInquiry, anInquiryCategory, aPreviewToken, aTag, aTenant, at, FIELDS } from '../fixtures.ts'
import { storeSuite } from '../store-suite.ts'
import type { OpenStore } from '../store-suite.ts'

/** Round-trips of every record type, `null` for what is absent, upserts, key and token lookups. */
export function recordCases(name: string, open: OpenStore): void {
  const s = storeSuite(`${name}: records`, open)

  s('a tenant round-trips by id and by code, and tenants list by code', async ({ store }) => {
    await store.createTenant(aTenant('ten_b', 'beta'))
    await store.createTenant(aTenant('ten_a', 'alpha'))
    assert.equal(await store.getTenant('ten_b'), aTenant('ten_b', 'beta'))
    assert.equal(await store.getTenantByCode('alpha'), aTenant('ten_a', 'alpha'))
    assert.equal((await store.listTenants()).map((t) => t.code), ['alpha', 'beta'])
  })

  s('creating a tenant whose code is taken fails', async ({ store }) => {
    await store.createTenant(aTenant('ten_a', 'alpha'))
    let failed = false
    await store.createTenant(aTenant('ten_b', 'alpha')).catch(() => (failed = true))
    assert.ok(failed)
    assert.is(await store.getTenant('ten_b'), null)
  })

  s('what does not exist is null, never an exception', async ({ store }) => {
    await store.createTenant(aTenant('ten_a'))
    assert.is(await store.getTenant('ten_x'), null)
    assert.is(await store.getTenantByCode('nope'), null)
    assert.is(await store.findApiKeyByHash('nope'), null)
    assert.is(await store.getApiKey('key_x'), null)
    assert.is(await store.findPreviewTokenByHash('nope'), null)
    assert.is(await store.getPreviewToken('prv_x'), null)
    assert.is(await store.getCategory('ten_a', 'cat_x'), null)
    assert.is(await store.getCategoryByCode('ten_a', 'x'), null)
    assert.is(await store.getTag('ten_a', 'tag_x'), null)
    assert.is(await store.getTagByName('ten_a', 'x'), null)
    assert.is(await store.getContent('ten_a', 'cnt_x'), null)
    assert.is(await store.getContentBySlug('ten_a', 'x'), null)
    assert.is(await store.getInquiryCategory('ten_a', 'icat_x'), null)
    assert.is(await store.getInquiryCategoryByCode('ten_a', 'x'), null)
    assert.is(await store.getInquiry('ten_a', 'inq_x'), null)
    assert.is(await store.getContent('ten_unknown', 'cnt_x'), null)
    assert.equal(await store.listCategories('ten_a'), [])
    assert.equal(await store.listTags('ten_a'), [])
    assert.equal(await store.listApiKeys('ten_a'), [])
    assert.equal(await store.listInquiryCategories('ten_a'), [])
    assert.equal(await store.listInquiries('ten_a', { limit: 10 }), [])
    assert.is(await store.updateApiKey('key_x', { disabled_at: at(1) }), false)
    assert.is(await store.deleteApiKey('key_x'), false)
    assert.is(await store.revokePreviewToken('prv_x', at(1)), false)
    assert.is(await store.transaction((tx) => tx.deleteContent('ten_a', 'cnt_x')), false)
  })

  s('API keys round-trip, are found by hash with their tenant, disabled or personal alike', async ({ store }) => {
    await store.createTenant(aTenant('ten_a'))
    const key = anApiKey('ten_a', 'key_1', { rate_limit: 5, last_used_at: at(1) })
    const personal = anApiKey('ten_a', 'key_2', { kind: 'personal', permissions: [], disabled_at: at(2), created_at: at(1) })
    await store.createApiKey(key)
    await store.createApiKey(personal)
    assert.equal(await store.getApiKey('key_1'), key)
    assert.equal(await store.findApiKeyByHash(key.hash), { key, tenant: aTenant('ten_a') })
    assert.equal(await store.findApiKeyByHash(personal.hash), { key: personal, tenant: aTenant('ten_a') })
    assert.equal(await store.listApiKeys('ten_a'), [key, personal])
  })

  s('updateApiKey sets only the given columns; deleteApiKey removes the key', async ({ store }) => {
    await store.createTenant(aTenant('ten_a'))
    const key = anApiKey('ten_a', 'key_1', { rate_limit: 7 })
    await store.createApiKey(key)
    assert.is(await store.updateApiKey('key_1', { disabled_at: at(5) }), true)
    assert.equal(await store.getApiKey('key_1'), { ...key, disabled_at: at(5) })
    assert.is(await store.updateApiKey('key_1', { disabled_at: null, last_used_at: at(6), rate_limit: 0 }), true)
    assert.equal(await store.getApiKey('key_1'), { ...key, last_used_at: at(6), rate_limit: 0 })
    assert.is(await store.updateApiKey('key_1', { rate_limit: null }), true)
    assert.is((await store.getApiKey('key_1'))?.rate_limit, null)
    assert.is(await store.deleteApiKey('key_1'), true)
    assert.is(await store.getApiKey('key_1'), null)
    assert.is(await store.findApiKeyByHash(key.hash), null)
  })

  s('preview tokens round-trip by id and by hash, and revoking sets revoked_at', async ({ store }) => {
    await store.createTenant(aTenant('ten_a'))
    const token = aPreviewToken('ten_a', 'prv_1')
    const categoryToken = aPreviewToken('ten_a', 'prv_2', { target: { kind: 'category', id: 'cat_1' } })
    await store.createPreviewToken(token)
    await store.createPreviewToken(categoryToken)
    assert.equal(await store.getPreviewToken('prv_1'), token)
    assert.equal(await store.findPreviewTokenByHash(categoryToken.hash), categoryToken)
    assert.is(await store.revokePreviewToken('prv_1', at(3)), true)
    assert.equal(await store.findPreviewTokenByHash(token.hash), { ...token, revoked_at: at(3) })
  })

  s('categories with custom fields round-trip and list by sort, then code, active or not', async ({ store }) => {
    await store.createTenant(aTenant('ten_a'))
    const withFields = aCategory('ten_a', 'cat_1', { code: 'zeta', sort: 1, fields: Object.values(FIELDS) })
    const inactive = aCategory('ten_a', 'cat_2', { code: 'beta', sort: 1, active: false })
    const first = aCategory('ten_a', 'cat_3', { code: 'omega', sort: -2 })
    await store.transaction(async (tx) => {
      for (const c of [withFields, inactive, first]) await tx.putCategory(c)
    })
    assert.equal(await store.getCategory('ten_a', 'cat_1'), withFields)
    assert.equal(await store.getCategoryByCode('ten_a', 'beta'), inactive)
    assert.equal((await store.listCategories('ten_a')).map((c) => c.code), ['omega', 'beta', 'zeta'])
  })

  s('tags round-trip by id and by name, and list by name', async ({ store }) => {
    await store.createTenant(aTenant('ten_a'))
    await store.transaction(async (tx) => {
      await tx.putTag(aTag('ten_a', 'tag_1', 'news'))
      await tx.putTag(aTag('ten_a', 'tag_2', 'art'))
    })
    assert.equal(await store.getTag('ten_a', 'tag_1'), aTag('ten_a', 'tag_1', 'news'))
    assert.equal(await store.getTagByName('ten_a', 'art'), aTag('ten_a', 'tag_2', 'art'))
    assert.equal((await store.listTags('ten_a')).map((t) => t.name), ['art', 'news'])
  })

  s('content round-trips by id and slug with tags in order, typed field values and meta', async ({ store }) => {
    await store.createTenant(aTenant('ten_a'))
    const item = aContent('ten_a', 'cnt_1', 'cat_1', {
      status: 'draft', published_at: null, version: 3, updated_at: at(9),
      tags: [{ id: 'tag_2', name: 'zebra' }, { id: 'tag_1', name: 'apple' }],
      fields: { fld_text: 'red', fld_num: 12.5, fld_date: '2025-06-20', fld_bool: false, fld_sel: 'm' },
      meta: { og_title: 'OG', og_description: 'Desc', robots: 'noindex', extra: { n: [1, true, null] } },
    })
    await store.transaction(async (tx) => {
      await tx.putCategory(aCategory('ten_a', 'cat_1', { fields: Object.values(FIELDS) }))
      await tx.putTag(aTag('ten_a', 'tag_1', 'apple'))
      await tx.putTag(aTag('ten_a', 'tag_2', 'zebra'))
      await tx.putContent(item)
    })
    assert.equal(await store.getContent('ten_a', 'cnt_1'), item)
    assert.equal(await store.getContentBySlug('ten_a', item.slug), item)
  })

  s('put replaces: categories, tags and content come back as last given', async ({ store }) => {
    await store.createTenant(aTenant('ten_a'))
    const item = aContent('ten_a', 'cnt_1', 'cat_1', { tags: [{ id: 'tag_1', name: 'one' }], fields: { fld_num: 1, fld_text: 'x' } })
    const changed = aContent('ten_a', 'cnt_1', 'cat_2', {
      slug: 'renamed', title: 'New', version: 2, tags: [{ id: 'tag_2', name: 'two' }], fields: { fld_num: 2 }, meta: { og_title: '', og_description: '' },
    })
    await store.transaction(async (tx) => {
      await tx.putCategory(aCategory('ten_a', 'cat_1'))
      await tx.putCategory(aCategory('ten_a', 'cat_2'))
      await tx.putTag(aTag('ten_a', 'tag_1', 'one'))
      await tx.putTag(aTag('ten_a', 'tag_2', 'two'))
      await tx.putContent(item)
    })
    await store.transaction(async (tx) => {
      await tx.putCategory(aCategory('ten_a', 'cat_1', { code: 'recoded', active: false, fields: [FIELDS.number] }))
      await tx.putTag(aTag('ten_a', 'tag_1', 'uno'))
      await tx.putContent(changed)
    })
    assert.equal(await store.getCategory('ten_a', 'cat_1'), aCategory('ten_a', 'cat_1', { code: 'recoded', active: false, fields: [FIELDS.number] }))
    assert.is(await store.getCategoryByCode('ten_a', 'cat-1'), null)
    assert.equal(await store.getTagByName('ten_a', 'uno'), aTag('ten_a', 'tag_1', 'uno'))
    assert.is(await store.getTagByName('ten_a', 'one'), null)
    assert.equal(await store.getContent('ten_a', 'cnt_1'), changed)
    assert.is(await store.getContentBySlug('ten_a', item.slug), null)
  })

  s('deleteContent removes the item and says whether it existed', async ({ store }) => {
    await store.createTenant(aTenant('ten_a'))
    await store.transaction(async (tx) => {
      await tx.putCategory(aCategory('ten_a', 'cat_1'))
      await tx.putTag(aTag('ten_a', 'tag_1'))
      await tx.putContent(aContent('ten_a', 'cnt_1', 'cat_1', { tags: [{ id: 'tag_1', name: '1' }], fields: { fld_num: 1 } }))
    })
    assert.is(await store.transaction((tx) => tx.deleteContent('ten_a', 'cnt_1')), true)
    assert.is(await store.getContent('ten_a', 'cnt_1'), null)
    assert.is(await store.transaction((tx) => tx.deleteContent('ten_a', 'cnt_1')), false)
    assert.ok(await store.getTag('ten_a', 'tag_1'), 'tags outlive the items carrying them')
  })

  s('inquiry categories round-trip and list by sort, then code, active or not', async ({ store }) => {
    await store.createTenant(aTenant('ten_a'))
    const general = anInquiryCategory('ten_a', 'icat_1', { code: 'general', sort: 2, message: 'Thanks!' })
    const sales = anInquiryCategory('ten_a', 'icat_2', { code: 'sales', sort: 1, active: false })
    const billing = anInquiryCategory('ten_a', 'icat_3', { code: 'billing', sort: 2 })
    await store.transaction(async (tx) => {
      for (const c of [general, sales, billing]) await tx.putInquiryCategory(c)
    })
    assert.equal(await store.getInquiryCategory('ten_a', 'icat_1'), general)
    assert.equal(await store.getInquiryCategoryByCode('ten_a', 'sales'), sales)
    assert.equal((await store.listInquiryCategories('ten_a')).map((c) => c.code), ['sales', 'billing', 'general'])
    await store.transaction((tx) => tx.putInquiryCategory({ ...general, active: false, message: 'Changed' }))
    assert.equal(await store.getInquiryCategory('ten_a', 'icat_1'), { ...general, active: false, message: 'Changed' })
  })

  s('inquiries round-trip and list newest first, by status, paged by before', async ({ store }) => {
    await store.createTenant(aTenant('ten_a'))
    const full = anInquiry('ten_a', 'inq_01')
    const bare = anInquiry('ten_a', 'inq_02', { inquirer_phone: null, inquirer_company: null, inquirer_department: null, api_key_id: null, priority: 3 })
    const third = anInquiry('ten_a', 'inq_03', { priority: 1 })
    for (const inquiry of [full, bare, third]) await store.insertInquiry(inquiry)
    assert.equal(await store.getInquiry('ten_a', 'inq_01'), full)
    assert.equal(await store.getInquiry('ten_a', 'inq_02'), bare)
    assert.equal((await store.listInquiries('ten_a', { limit: 10 })).map((i) => i.id), ['inq_03', 'inq_02', 'inq_01'])
    assert.equal((await store.listInquiries('ten_a', { limit: 1 })).map((i) => i.id), ['inq_03'])
    assert.equal((await store.listInquiries('ten_a', { before: 'inq_03', limit: 10 })).map((i) => i.id), ['inq_02', 'inq_01'])
    assert.equal((await store.listInquiries('ten_a', { status: 'open', before: 'inq_02', limit: 10 })), [full])
  })

  s.run()
}
