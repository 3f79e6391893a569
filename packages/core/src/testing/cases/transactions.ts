import * as assert from 'uvu/assert'
import { aCategory, aContent, anInquiryCategory, aTag, aTenant } from '../fixtures.ts'
import { storeSuite } from '../store-suite.ts'
import type { OpenStore } from '../store-suite.ts'

/** `transaction` (all or nothing, own writes visible, queued) and `revision`. */
export function transactionCases(name: string, open: OpenStore): void {
  const s = storeSuite(`${name}: transactions and revision`, open)
  const T = 'ten_a'

  s('a transaction commits all its writes together and resolves to what work returned', async ({ store }) => {
    await store.createTenant(aTenant(T))
    const result = await store.transaction(async (tx) => {
      await tx.putCategory(aCategory(T, 'cat_1'))
      await tx.putTag(aTag(T, 'tag_1'))
      await tx.putContent(aContent(T, 'cnt_1', 'cat_1', { tags: [{ id: 'tag_1', name: '1' }] }))
      return 'done'
    })
    assert.is(result, 'done')
    assert.ok(await store.getCategory(T, 'cat_1'))
    assert.equal((await store.getContent(T, 'cnt_1'))?.tags, [{ id: 'tag_1', name: '1' }])
  })

  s('a throw inside a transaction writes nothing and passes the error on', async ({ store }) => {
    await store.createTenant(aTenant(T))
    await store.transaction((tx) => tx.putCategory(aCategory(T, 'cat_1', { name: 'Before' })))
    const boom = new Error('boom')
    let caught: unknown
    await store
      .transaction(async (tx) => {
        await tx.putCategory(aCategory(T, 'cat_1', { name: 'After' }))
        await tx.putCategory(aCategory(T, 'cat_2'))
        await tx.putTag(aTag(T, 'tag_1'))
        await tx.putContent(aContent(T, 'cnt_1', 'cat_2'))
        await tx.putInquiryCategory(anInquiryCategory(T, 'icat_1'))
        await tx.deleteContent(T, 'cnt_1')
        await tx.putContent(aContent(T, 'cnt_2', 'cat_2'))
        throw boom
      })
      .catch((error: unknown) => (caught = error))
    assert.is(caught, boom)
    assert.is((await store.getCategory(T, 'cat_1'))?.name, 'Before')
    assert.is(await store.getCategory(T, 'cat_2'), null)
    assert.is(await store.getTag(T, 'tag_1'), null)
    assert.is(await store.getContent(T, 'cnt_2'), null)
    assert.is(await store.getInquiryCategory(T, 'icat_1'), null)
  })

  s('reads through the transaction see its own writes; reads outside see them only after commit', async ({ store }) => {
    await store.createTenant(aTenant(T))
    await store.transaction(async (tx) => {
      await tx.putCategory(aCategory(T, 'cat_1', { code: 'news' }))
      await tx.putTag(aTag(T, 'tag_1', 'one'))
      await tx.putContent(aContent(T, 'cnt_1', 'cat_1', { tags: [{ id: 'tag_1', name: 'one' }] }))
      await tx.putInquiryCategory(anInquiryCategory(T, 'icat_1', { code: 'general' }))
      assert.is((await tx.getCategoryByCode(T, 'news'))?.id, 'cat_1')
      assert.is((await tx.getTagByName(T, 'one'))?.id, 'tag_1')
      assert.is((await tx.getContentBySlug(T, 'slug-cnt_1'))?.id, 'cnt_1')
      assert.is((await tx.getInquiryCategoryByCode(T, 'general'))?.id, 'icat_1')
      assert.equal((await tx.listContents(T, { visibility: { kind: 'all' }, sort: { key: 'id', direction: 'asc' }, limit: 10 })).map((i) => i.id), ['cnt_1'])
      assert.is((await tx.listCategories(T)).length, 1)
      assert.is((await tx.listTags(T)).length, 1)
      assert.is((await tx.listInquiryCategories(T)).length, 1)
      assert.ok(await tx.getCategory(T, 'cat_1'))
      assert.ok(await tx.getTag(T, 'tag_1'))
      assert.ok(await tx.getContent(T, 'cnt_1'))
      assert.ok(await tx.getInquiryCategory(T, 'icat_1'))
      assert.is(await store.getContent(T, 'cnt_1'), null, 'not visible outside before commit')
    })
    assert.ok(await store.getContent(T, 'cnt_1'))
  })

  s('concurrent transactions run one after another: no write is lost', async ({ store }) => {
    await store.createTenant(aTenant(T))
    await store.transaction(async (tx) => {
      await tx.putCategory(aCategory(T, 'cat_1'))
      await tx.putContent(aContent(T, 'cnt_1', 'cat_1', { version: 1 }))
    })
    const bump = () =>
      store.transaction(async (tx) => {
        const item = await tx.getContent(T, 'cnt_1')
        assert.ok(item)
        await new Promise((resolve) => setTimeout(resolve, 2))
        await tx.putContent({ ...item, version: item.version + 1 })
      })
    await Promise.all([bump(), bump(), bump(), bump()])
    assert.is((await store.getContent(T, 'cnt_1'))?.version, 5)
  })

  s('revision changes after every content, category or tag write, and only for that tenant', async ({ store }) => {
    await store.createTenant(aTenant(T))
    await store.createTenant(aTenant('ten_b'))
    const other = await store.revision('ten_b')
    let last = await store.revision(T)
    assert.is(typeof last, 'number')
    assert.is(await store.revision(T), last, 'stable without writes')
    const writes = [
      () => store.transaction((tx) => tx.putCategory(aCategory(T, 'cat_1'))),
      () => store.transaction((tx) => tx.putTag(aTag(T, 'tag_1'))),
      () => store.transaction((tx) => tx.putContent(aContent(T, 'cnt_1', 'cat_1'))),
      () => store.transaction((tx) => tx.putContent(aContent(T, 'cnt_1', 'cat_1', { tags: [{ id: 'tag_1', name: '1' }] }))),
      () => store.transaction((tx) => tx.putContent(aContent(T, 'cnt_1', 'cat_1', { tags: [{ id: 'tag_1', name: '1' }], fields: { f: 1 } }))),
      () => store.transaction((tx) => tx.putCategory(aCategory(T, 'cat_1', { active: false }))),
      () => store.transaction((tx) => tx.putTag(aTag(T, 'tag_1', 'renamed'))),
      () => store.transaction((tx) => tx.deleteContent(T, 'cnt_1')),
    ]
    for (const [i, write] of writes.entries()) {
      await write()
      const now = await store.revision(T)
      assert.is.not(now, last, `write ${i} changed the revision`)
      last = now
    }
    assert.is(await store.revision('ten_b'), other, 'the other tenant kept its revision')
  })

  s('a rolled-back transaction leaves the revision as it was', async ({ store }) => {
    await store.createTenant(aTenant(T))
    const before = await store.revision(T)
    await store
      .transaction(async (tx) => {
        await tx.putCategory(aCategory(T, 'cat_1'))
        throw new Error('no')
      })
      .catch(() => undefined)
    assert.is(await store.revision(T), before)
  })

  s.run()
}
