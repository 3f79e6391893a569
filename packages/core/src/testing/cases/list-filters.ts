import * as assert from 'uvu/assert'
import { CAT, idSet, ids, NOW, publicQuery, seedCatalogue } from '../catalogue.ts'
import { at, FIELDS } from '../fixtures.ts'
import { storeSuite } from '../store-suite.ts'
import type { OpenStore } from '../store-suite.ts'

/** `listContents`: visibility at a given moment, the preview category, every filter, limit. */
export function listFilterCases(name: string, open: OpenStore): void {
  const s = storeSuite(`${name}: listContents visibility and filters`, open)
  const T = 'ten_a'

  s('the public sees published items whose time has come, in active categories only', async ({ store }) => {
    const items = await seedCatalogue(store, T)
    const page = await store.listContents(T, publicQuery())
    assert.equal(page.map((i) => i.id), ['cnt_08', 'cnt_02', 'cnt_01'])
    assert.equal(page[0], items.get('cnt_08'), 'list items are whole records')
  })

  s('a scheduled item becomes visible once now passes its published_at', async ({ store }) => {
    await seedCatalogue(store, T)
    const before = publicQuery({ visibility: { kind: 'public', now: at(59) } })
    const exactly = publicQuery({ visibility: { kind: 'public', now: at(60) } })
    assert.not.ok((await ids(store.listContents(T, before))).includes('cnt_03'))
    assert.equal(await ids(store.listContents(T, exactly)), ['cnt_03', 'cnt_08', 'cnt_02', 'cnt_01'])
  })

  s('visibility all returns every item whatever its status or category', async ({ store }) => {
    const items = await seedCatalogue(store, T)
    const all = await idSet(store.listContents(T, publicQuery({ visibility: { kind: 'all' } })))
    assert.equal(all, [...items.keys()].sort())
  })

  s('a preview category shows all its items, drafts and inactive alike, besides the public ones', async ({ store }) => {
    await seedCatalogue(store, T)
    const visibility = { kind: 'public', now: NOW, previewCategoryId: CAT.prev } as const
    assert.equal(await idSet(store.listContents(T, publicQuery({ visibility }))), ['cnt_01', 'cnt_02', 'cnt_06', 'cnt_07', 'cnt_08'])
    const onlyPreview = publicQuery({ visibility, categoryIds: [CAT.prev] })
    assert.equal(await idSet(store.listContents(T, onlyPreview)), ['cnt_06', 'cnt_07'])
  })

  s('categoryIds keeps items of the listed categories only', async ({ store }) => {
    await seedCatalogue(store, T)
    assert.equal(await idSet(store.listContents(T, publicQuery({ categoryIds: [CAT.news] }))), ['cnt_01', 'cnt_02', 'cnt_08'])
    assert.equal(await ids(store.listContents(T, publicQuery({ categoryIds: [CAT.old] }))), [])
    const all = publicQuery({ visibility: { kind: 'all' }, categoryIds: [CAT.old, CAT.prev] })
    assert.equal(await idSet(store.listContents(T, all)), ['cnt_05', 'cnt_06', 'cnt_07'])
    assert.equal(await ids(store.listContents(T, publicQuery({ categoryIds: [] }))), [])
  })

  s('tagNames and tagIds keep items carrying every listed tag', async ({ store }) => {
    await seedCatalogue(store, T)
    const list = (q: Parameters<typeof publicQuery>[0]) => idSet(store.listContents(T, publicQuery(q)))
    assert.equal(await list({ tagNames: ['alpha'] }), ['cnt_01', 'cnt_02'])
    assert.equal(await list({ tagNames: ['alpha', 'beta'] }), ['cnt_01'])
    assert.equal(await list({ tagIds: ['tag_b'] }), ['cnt_01', 'cnt_08'])
    assert.equal(await list({ tagIds: ['tag_b', 'tag_c'] }), ['cnt_08'])
    assert.equal(await list({ tagNames: ['alpha'], tagIds: ['tag_b'] }), ['cnt_01'])
    assert.equal(await list({ tagNames: ['unknown'] }), [])
    assert.equal(await list({ visibility: { kind: 'all' }, tagNames: ['beta', 'alpha'] }), ['cnt_01', 'cnt_03'])
  })

  s('fieldEquals matches the typed value exactly, all pairs together', async ({ store }) => {
    await seedCatalogue(store, T)
    const list = (fieldEquals: NonNullable<Parameters<typeof publicQuery>[0]>['fieldEquals']) =>
      idSet(store.listContents(T, publicQuery({ fieldEquals })))
    assert.equal(await list([{ field: FIELDS.number, value: 10 }]), ['cnt_01', 'cnt_08'])
    assert.equal(await list([{ field: FIELDS.number, value: 10 }, { field: FIELDS.boolean, value: true }]), ['cnt_01'])
    assert.equal(await list([{ field: FIELDS.boolean, value: false }]), ['cnt_02'])
    assert.equal(await list([{ field: FIELDS.text, value: 'red' }]), ['cnt_01', 'cnt_08'])
    assert.equal(await list([{ field: FIELDS.text, value: 'Red' }]), [])
    assert.equal(await list([{ field: FIELDS.date, value: '2025-01-01' }]), ['cnt_01'])
    assert.equal(await list([{ field: FIELDS.select, value: 's' }]), ['cnt_01'])
    assert.equal(await list([{ field: FIELDS.number, value: 10.5 }]), [])
    assert.equal(await list([{ field: { ...FIELDS.text, id: 'fld_num' }, value: '10' }]), [], 'a number is not its text')
  })

  s('limit caps the page, and filters combine with sort and limit', async ({ store }) => {
    await seedCatalogue(store, T)
    assert.equal(await ids(store.listContents(T, publicQuery({ limit: 2 }))), ['cnt_08', 'cnt_02'])
    assert.equal(await ids(store.listContents(T, publicQuery({ limit: 0 }))), [])
    const q = publicQuery({ tagNames: ['alpha'], sort: { key: 'published_at', direction: 'asc' }, limit: 1 })
    assert.equal(await ids(store.listContents(T, q)), ['cnt_01'])
  })

  s.run()
}
