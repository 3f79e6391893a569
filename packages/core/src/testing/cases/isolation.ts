import * as assert from 'uvu/assert'
import type { ContentQuery } from '../../port/content-query.ts'
import { CAT, idSet, NOW, publicQuery, seedCatalogue } from '../catalogue.ts'
import { aCategory, aContent, anApiKey, anInquiry, anInquiryCategory, aPreviewToken, aTag, at, FIELDS } from '../fixtures.ts'
import { storeSuite } from '../store-suite.ts'
import type { OpenStore } from '../store-suite.ts'

/** Two tenants holding the very same ids, slugs, codes and tag names never see each other's rows. */
export function isolationCases(name: string, open: OpenStore): void {
  const s = storeSuite(`${name}: tenant isolation`, open)
  const A = 'ten_a'
  const B = 'ten_b'

  s('lookups by id, slug, code and name return the asking tenant’s record only', async ({ store }) => {
    await seedCatalogue(store, A)
    await seedCatalogue(store, B)
    await store.transaction(async (tx) => {
      await tx.putCategory(aCategory(B, CAT.news, { code: 'news', name: 'B news', fields: Object.values(FIELDS) }))
      await tx.putTag(aTag(B, 'tag_a', 'alpha'))
      await tx.putContent(aContent(B, 'cnt_01', CAT.news, { title: 'B one', published_at: at(-60) }))
      await tx.putInquiryCategory(anInquiryCategory(A, 'icat_1', { code: 'general', name: 'A general' }))
      await tx.putInquiryCategory(anInquiryCategory(B, 'icat_1', { code: 'general', name: 'B general' }))
    })
    assert.is((await store.getContent(A, 'cnt_01'))?.title, 'Title cnt_01')
    assert.is((await store.getContent(B, 'cnt_01'))?.title, 'B one')
    assert.is((await store.getContentBySlug(A, 'slug-cnt_01'))?.tenant_id, A)
    assert.is((await store.getContentBySlug(B, 'slug-cnt_01'))?.title, 'B one')
    assert.equal((await store.getContent(A, 'cnt_01'))?.tags.map((t) => t.name), ['alpha', 'beta'])
    assert.equal((await store.getContent(B, 'cnt_01'))?.tags, [])
    assert.equal((await store.getContent(B, 'cnt_01'))?.fields, {})
    assert.is((await store.getCategory(B, CAT.news))?.name, 'B news')
    assert.is((await store.getCategoryByCode(A, 'news'))?.name, `Category ${CAT.news}`)
    assert.is((await store.getTagByName(A, 'alpha'))?.tenant_id, A)
    assert.is((await store.getTag(B, 'tag_a'))?.tenant_id, B)
    assert.is((await store.getInquiryCategoryByCode(A, 'general'))?.name, 'A general')
    assert.is((await store.getInquiryCategory(B, 'icat_1'))?.name, 'B general')
    assert.equal((await store.listCategories(A)).map((c) => c.tenant_id), [A, A, A])
    assert.equal((await store.listTags(B)).map((t) => t.tenant_id), [B, B, B])
    assert.equal((await store.listInquiryCategories(A)).map((c) => c.name), ['A general'])
  })

  s('listContents with every filter and sort sees the asking tenant’s items only', async ({ store }) => {
    await seedCatalogue(store, A)
    await seedCatalogue(store, B)
    await store.transaction((tx) => tx.putContent(aContent(B, 'cnt_01', CAT.news, { tags: [], fields: {} })))
    const queries: ContentQuery[] = [
      publicQuery(),
      publicQuery({ visibility: { kind: 'all' } }),
      publicQuery({ visibility: { kind: 'public', now: NOW, previewCategoryId: CAT.prev } }),
      publicQuery({ categoryIds: [CAT.news] }),
      publicQuery({ tagNames: ['alpha', 'beta'] }),
      publicQuery({ tagIds: ['tag_a', 'tag_b'] }),
      publicQuery({ fieldEquals: [{ field: FIELDS.number, value: 10 }] }),
      publicQuery({ sort: { key: { field: FIELDS.number }, direction: 'asc' } }),
      publicQuery({ sort: { key: 'title', direction: 'asc' }, after: { value: 'A', id: 'cnt_00' } }),
    ]
    for (const query of queries) {
      for (const item of await store.listContents(A, query)) assert.is(item.tenant_id, A)
      for (const item of await store.listContents(B, query)) assert.is(item.tenant_id, B)
    }
    assert.equal(await idSet(store.listContents(A, publicQuery({ tagNames: ['alpha', 'beta'] }))), ['cnt_01'])
    assert.equal(await idSet(store.listContents(B, publicQuery({ tagNames: ['alpha', 'beta'] }))), [])
    assert.equal(await idSet(store.listContents(B, publicQuery({ fieldEquals: [{ field: FIELDS.number, value: 10 }] }))), ['cnt_08'])
  })

  s('writes, deletes and revisions of one tenant leave the other untouched', async ({ store }) => {
    await seedCatalogue(store, A)
    await seedCatalogue(store, B)
    const revisionB = await store.revision(B)
    await store.transaction(async (tx) => {
      await tx.deleteContent(A, 'cnt_01')
      await tx.putTag(aTag(A, 'tag_a', 'renamed'))
      await tx.putCategory(aCategory(A, CAT.news, { code: 'news', active: false }))
    })
    assert.is(await store.getContent(A, 'cnt_01'), null)
    assert.ok(await store.getContent(B, 'cnt_01'))
    assert.is((await store.getTag(B, 'tag_a'))?.name, 'alpha')
    assert.is((await store.getCategory(B, CAT.news))?.active, true)
    assert.is(await store.revision(B), revisionB)
  })

  s('inquiries, idempotency keys, API keys and preview tokens stay with their tenant', async ({ store }) => {
    await seedCatalogue(store, A)
    await seedCatalogue(store, B)
    await store.insertInquiry(anInquiry(A, 'inq_1', { title: 'for A' }))
    await store.insertInquiry(anInquiry(B, 'inq_1', { title: 'for B' }))
    assert.is((await store.getInquiry(A, 'inq_1'))?.title, 'for A')
    assert.equal((await store.listInquiries(B, { limit: 10 })).map((i) => i.title), ['for B'])
    const t = { holder: 'h', now: at(0), expiredBefore: at(-1440), staleBefore: at(-5) }
    assert.is((await store.claimIdempotencyKey(A, 'same', 'h', t)).state, 'claimed')
    assert.is((await store.claimIdempotencyKey(B, 'same', 'h', t)).state, 'claimed')
    await store.insertInquiry(anInquiry(A, 'inq_2'), { key: 'same', holder: 'h', response: { status: 201, body: 'A' } })
    assert.is((await store.claimIdempotencyKey(B, 'same', 'h', t)).state, 'in_flight')
    await store.releaseIdempotencyKey(B, 'same', 'h')
    assert.is((await store.claimIdempotencyKey(A, 'same', 'h', t)).state, 'completed')
    await store.createApiKey(anApiKey(A, 'key_a'))
    await store.createApiKey(anApiKey(B, 'key_b'))
    assert.equal((await store.listApiKeys(A)).map((k) => k.id), ['key_a'])
    assert.is((await store.findApiKeyByHash('hash-key_b'))?.tenant.id, B)
    await store.createPreviewToken(aPreviewToken(B, 'prv_b'))
    assert.is((await store.findPreviewTokenByHash('phash-prv_b'))?.tenant_id, B)
  })

  s.run()
}
