import * as assert from 'uvu/assert'
import { aCategory, aContent, aTag, aTenant, FIELDS } from '../fixtures.ts'
import { storeSuite } from '../store-suite.ts'
import type { OpenStore } from '../store-suite.ts'

/** `readSearchItems` and `countItems`: what a search index is built from. */
export function searchSourceCases(name: string, open: OpenStore): void {
  const s = storeSuite(`${name}: search source`, open)
  const A = 'ten_a'
  const B = 'ten_b'

  s('items come in id order, any status, with tag names in their order and field values by field id', async ({ store }) => {
    await store.createTenant(aTenant(A))
    await store.createTenant(aTenant(B))
    await store.transaction(async (tx) => {
      await tx.putCategory(aCategory(A, 'cat_1', { fields: [FIELDS.text, FIELDS.number, FIELDS.boolean] }))
      await tx.putTag(aTag(A, 'tag_z', 'zeta'))
      await tx.putTag(aTag(A, 'tag_a', 'alpha'))
      await tx.putContent(aContent(A, 'cnt_2', 'cat_1', { status: 'draft', title: 'Second', summary: 'S2', body: '<p>B2</p>' }))
      await tx.putContent(aContent(A, 'cnt_1', 'cat_1', {
        title: 'First', tags: [{ id: 'tag_z', name: 'zeta' }, { id: 'tag_a', name: 'alpha' }],
        fields: { fld_text: 'red', fld_num: 12.5, fld_bool: false },
      }))
      await tx.putCategory(aCategory(B, 'cat_b'))
      await tx.putContent(aContent(B, 'cnt_0', 'cat_b'))
    })
    const items = await store.readSearchItems(A, { after: null }, 10)
    assert.equal(items.map((i) => i.doc.id), ['cnt_1', 'cnt_2'])
    const [first, second] = items
    assert.equal(first?.doc.tags, ['zeta', 'alpha'])
    assert.equal(first?.doc.fields, { fld_bool: false, fld_num: 12.5, fld_text: 'red' })
    assert.is(first?.title, 'First')
    assert.is(second?.doc.status, 'draft')
    assert.is(second?.body, '<p>B2</p>')
    assert.is(second?.summary, 'S2')
    const record = await store.getContent(A, 'cnt_1')
    assert.equal(first?.doc, {
      id: 'cnt_1', category_id: 'cat_1', status: record?.status, published_at: record?.published_at ?? null,
      tags: record?.tags.map((t) => t.name), fields: record?.fields,
    })
    assert.is(await store.countItems(A), 2)
    assert.is(await store.countItems(B), 1)
    assert.is(await store.countItems('ten_none'), 0)
  })

  s('ranges are exclusive at both ends and pages follow one another', async ({ store }) => {
    await store.createTenant(aTenant(A))
    await store.transaction(async (tx) => {
      await tx.putCategory(aCategory(A, 'cat_1'))
      for (let i = 0; i < 9; i++) await tx.putContent(aContent(A, `cnt_${i}`, 'cat_1'))
    })
    const ids = async (after: string | null, before: string | null, limit: number) =>
      (await store.readSearchItems(A, { after, before }, limit)).map((i) => i.doc.id)
    assert.equal(await ids(null, null, 4), ['cnt_0', 'cnt_1', 'cnt_2', 'cnt_3'])
    assert.equal(await ids('cnt_3', null, 4), ['cnt_4', 'cnt_5', 'cnt_6', 'cnt_7'])
    assert.equal(await ids('cnt_7', null, 4), ['cnt_8'])
    assert.equal(await ids('cnt_2', 'cnt_5', 10), ['cnt_3', 'cnt_4'])
    assert.equal(await ids(null, 'cnt_0', 10), [])
  })
  s.run()
}
