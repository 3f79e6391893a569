import * as assert from 'uvu/assert'
import { aCategory, aContent, aTag, aTenant, FIELDS } from '../fixtures.ts'
import { storeSuite } from '../store-suite.ts'
import type { OpenStore } from '../store-suite.ts'

/** `getContents`: items of many ids at once, as `getContent` gives each. */
export function batchReadCases(name: string, open: OpenStore): void {
  const s = storeSuite(`${name}: batch reads`, open)

  s('getContents gives getContent of each id, in the order asked, null where there is none', async ({ store }) => {
    await store.createTenant(aTenant('ten_a'))
    await store.createTenant(aTenant('ten_b'))
    const first = aContent('ten_a', 'cnt_1', 'cat_1', {
      tags: [{ id: 'tag_2', name: 'zebra' }, { id: 'tag_1', name: 'apple' }],
      fields: { fld_text: 'red', fld_num: 12.5, fld_date: '2025-06-20', fld_bool: false, fld_sel: 'm' },
      meta: { og_title: 'OG', og_description: 'Desc', extra: { n: [1, true, null] } },
    })
    const draft = aContent('ten_a', 'cnt_2', 'cat_1', { status: 'draft', published_at: null, version: 4 })
    const third = aContent('ten_a', 'cnt_3', 'cat_1', { tags: [{ id: 'tag_1', name: 'apple' }], fields: { fld_bool: true } })
    await store.transaction(async (tx) => {
      await tx.putCategory(aCategory('ten_a', 'cat_1', { fields: Object.values(FIELDS) }))
      await tx.putTag(aTag('ten_a', 'tag_1', 'apple'))
      await tx.putTag(aTag('ten_a', 'tag_2', 'zebra'))
      for (const item of [first, draft, third]) await tx.putContent(item)
      await tx.putCategory(aCategory('ten_b', 'cat_b'))
      await tx.putContent(aContent('ten_b', 'cnt_9', 'cat_b'))
    })
    const ids = ['cnt_3', 'cnt_x', 'cnt_1', 'cnt_9', 'cnt_2', 'cnt_3']
    const got = await store.getContents('ten_a', ids)
    assert.equal(got, [third, null, first, null, draft, third])
    assert.equal(got, await Promise.all(ids.map((id) => store.getContent('ten_a', id))))
    // The other tenant's item is its own, and an unknown tenant has none.
    assert.equal((await store.getContents('ten_b', ['cnt_1', 'cnt_9'])).map((item) => item?.id ?? null), [null, 'cnt_9'])
    assert.equal(await store.getContents('ten_x', ['cnt_1']), [null])
    assert.equal(await store.getContents('ten_a', []), [])
  })

  s('getContents in a transaction sees its own writes, and a tag rename shows in every item', async ({ store }) => {
    await store.createTenant(aTenant('ten_a'))
    await store.transaction(async (tx) => {
      await tx.putCategory(aCategory('ten_a', 'cat_1'))
      await tx.putTag(aTag('ten_a', 'tag_1', 'one'))
      await tx.putContent(aContent('ten_a', 'cnt_1', 'cat_1', { tags: [{ id: 'tag_1', name: 'one' }] }))
    })
    await store.transaction(async (tx) => {
      await tx.putContent(aContent('ten_a', 'cnt_2', 'cat_1', { title: 'Second' }))
      await tx.putTag(aTag('ten_a', 'tag_1', 'uno'))
      const inside = await tx.getContents('ten_a', ['cnt_2', 'cnt_1'])
      assert.equal(inside.map((item) => item?.title), ['Second', aContent('ten_a', 'cnt_1', 'cat_1').title])
      assert.equal(inside[1]?.tags, [{ id: 'tag_1', name: 'uno' }])
    })
    assert.equal((await store.getContents('ten_a', ['cnt_1']))[0]?.tags, [{ id: 'tag_1', name: 'uno' }])
  })

  s('getContents reads many ids at once', async ({ store }) => {
    await store.createTenant(aTenant('ten_a'))
    const ids = Array.from({ length: 150 }, (_, i) => `cnt_${String(i).padStart(3, '0')}`)
    await store.transaction(async (tx) => {
      await tx.putCategory(aCategory('ten_a', 'cat_1'))
      for (const id of ids) await tx.putContent(aContent('ten_a', id, 'cat_1'))
    })
    const reversed = [...ids].reverse()
    assert.equal((await store.getContents('ten_a', reversed)).map((item) => item?.id), reversed)
  })

  s.run()
}
