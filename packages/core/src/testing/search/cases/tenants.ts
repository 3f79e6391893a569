import * as assert from 'uvu/assert'
import type { Store } from '../../../port/store.ts'
import { aCategory, aContent, FIELDS } from '../../fixtures.ts'
import { aCondition, aSearchQuery, hitSet, seedSearch } from '../search-fixtures.ts'
import { searchSuite } from '../search-suite.ts'
import type { SearchPairing } from '../search-suite.ts'

const A = 'ten_a'
const B = 'ten_b'

/** Tenants sealed: one tenant's search never matches, counts or scores with another's items. */
export function tenantCases<S extends Store>(name: string, pairing: SearchPairing<S>): void {
  const s = searchSuite(`${name}: search tenants sealed`, pairing)

  s('two tenants with the same ids, categories, tags and words find their own items only', async ({ store, search }) => {
    const category = (tenant: string, active: boolean) => aCategory(tenant, 'cat_1', { active, fields: [FIELDS.number] })
    const item = (tenant: string, id: string, title: string, price: number) =>
      aContent(tenant, id, 'cat_1', { title, tags: [{ id: 'tag_1', name: 'shared' }], fields: { fld_num: price } })
    await seedSearch(store, A, [category(A, true)], [item(A, 'x1', 'Harbour lights', 1), item(A, 'x2', 'Harbour tour', 2)])
    await seedSearch(store, B, [category(B, true)], [item(B, 'x1', 'Harbour market', 3), item(B, 'x3', 'Mountain harbour', 4), item(B, 'x4', 'Lights', 5)])
    const a = await search.search(A, aSearchQuery('harbour'))
    assert.equal(hitSet(a), ['x1', 'x2'])
    assert.is(a.total, 2)
    assert.equal(hitSet(await search.search(B, aSearchQuery('harbour'))), ['x1', 'x3'])
    assert.equal(hitSet(await search.search(A, aSearchQuery('market'))), [], 'B’s text of the same id')
    assert.equal(hitSet(await search.search(A, aSearchQuery('mountain'))), [])
    assert.equal(hitSet(await search.search(A, aSearchQuery('harbour', { tags: ['shared'], categoryId: 'cat_1' }))), ['x1', 'x2'])
    const cheap = [aCondition('custom_price', { fld_num: { gte: 3 } })]
    assert.equal(hitSet(await search.search(A, aSearchQuery('harbour', { filters: cheap }))), [])
    assert.equal(await search.search('ten_unknown', aSearchQuery('harbour')), { total: 0, hits: [] })
  })

  s('a category switched off in one tenant leaves the other’s category of the same id alone', async ({ store, search }) => {
    await seedSearch(store, A, [aCategory(A, 'cat_1')], [aContent(A, 'x1', 'cat_1', { title: 'Harbour' })])
    await seedSearch(store, B, [aCategory(B, 'cat_1')], [aContent(B, 'x1', 'cat_1', { title: 'Harbour' })])
    await search.search(A, aSearchQuery('harbour'))
    await store.transaction((tx) => tx.putCategory(aCategory(B, 'cat_1', { active: false })))
    assert.equal(hitSet(await search.search(A, aSearchQuery('harbour'))), ['x1'])
    assert.equal(hitSet(await search.search(B, aSearchQuery('harbour'))), [])
  })

  s('scores do not move when another tenant adds, changes or deletes items', async ({ store, search }) => {
    await seedSearch(store, A, [aCategory(A, 'cat_1')], [
      aContent(A, 'x1', 'cat_1', { title: 'Harbour lights', summary: 'Evening by the harbour' }),
      aContent(A, 'x2', 'cat_1', { title: 'Harbour', body: '<p>A long walk along the quay and the harbour wall.</p>' }),
      aContent(A, 'x3', 'cat_1', { title: 'Lighthouse' }),
    ])
    const before = await search.search(A, aSearchQuery('harbour light'))
    const many = Array.from({ length: 60 }, (_, i) => aContent(B, `y${i}`, 'cat_1', { title: i % 2 === 0 ? 'Harbour harbour' : 'Lights', body: '' }))
    await seedSearch(store, B, [aCategory(B, 'cat_1')], many)
    await store.transaction(async (tx) => {
      await tx.deleteContent(B, 'y0')
      await tx.putContent(aContent(B, 'y1', 'cat_1', { title: 'harbour lights harbour' }))
    })
    assert.ok((await search.search(B, aSearchQuery('harbour'))).total > 0)
    assert.equal(await search.search(A, aSearchQuery('harbour light')), before)
  })

  s.run()
}
