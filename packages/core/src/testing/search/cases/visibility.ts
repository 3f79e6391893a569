import * as assert from 'uvu/assert'
import type { Store } from '../../../port/store.ts'
import { aCategory, aContent, at } from '../../fixtures.ts'
import { aSearchQuery, hitSet, seedSearch } from '../search-fixtures.ts'
import { searchSuite } from '../search-suite.ts'
import type { SearchPairing } from '../search-suite.ts'

const T = 'ten_a'

/**
 *   v1 news  published -60 min        v4 news  draft with a past published_at
 *   v2 news  published at NOW exactly v5 old   published -60 min (inactive category)
 *   v3 news  published +30 min        v6 news  draft, never published
 */
async function seedVisibility(store: Store): Promise<void> {
  await seedSearch(store, T, [aCategory(T, 'cat_news'), aCategory(T, 'cat_old', { active: false })], [
    aContent(T, 'v1', 'cat_news', { title: 'Visible notice', published_at: at(-60) }),
    aContent(T, 'v2', 'cat_news', { title: 'Visible notice', published_at: at(0) }),
    aContent(T, 'v3', 'cat_news', { title: 'Scheduled notice', published_at: at(30) }),
    aContent(T, 'v4', 'cat_news', { title: 'Draft notice', status: 'draft', published_at: at(-100) }),
    aContent(T, 'v5', 'cat_old', { title: 'Retired notice', published_at: at(-60) }),
    aContent(T, 'v6', 'cat_news', { title: 'Unpublished notice', status: 'draft', published_at: null }),
  ])
}

/** Visibility (README "Content list", `matchesSearch`): published, its time come, in an active category; as time and categories change. */
export function visibilityCases<S extends Store>(name: string, pairing: SearchPairing<S>): void {
  const s = searchSuite(`${name}: search visibility and scheduling`, pairing)
  const at0 = aSearchQuery('notice')

  s('only published items whose time has come, in active categories, are hits and counted', async ({ store, search }) => {
    await seedVisibility(store)
    const result = await search.search(T, at0)
    assert.equal(hitSet(result), ['v1', 'v2'])
    assert.is(result.total, 2)
  })

  s('a scheduled item appears by itself once now reaches its published_at, with nothing written', async ({ store, search }) => {
    await seedVisibility(store)
    assert.equal(hitSet(await search.search(T, { ...at0, now: at(29) })), ['v1', 'v2'])
    assert.equal(hitSet(await search.search(T, { ...at0, now: at(30) })), ['v1', 'v2', 'v3'])
    assert.equal(hitSet(await search.search(T, { ...at0, now: at(-30) })), ['v1'], 'and is gone again at an earlier now')
    assert.equal(hitSet(await search.search(T, { ...at0, now: at(-61) })), [])
  })

  s('a category turning inactive hides its items, and turning active again shows them', async ({ store, search }) => {
    await seedVisibility(store)
    const news = await store.getCategory(T, 'cat_news')
    const old = await store.getCategory(T, 'cat_old')
    assert.ok(news && old)
    await store.transaction((tx) => tx.putCategory({ ...news, active: false }))
    assert.equal(hitSet(await search.search(T, at0)), [])
    await store.transaction(async (tx) => {
      await tx.putCategory({ ...news, active: true })
      await tx.putCategory({ ...old, active: true })
    })
    assert.equal(hitSet(await search.search(T, at0)), ['v1', 'v2', 'v5'])
    assert.equal(hitSet(await search.search(T, { ...at0, categoryId: 'cat_old' })), ['v5'])
  })

  s('an item moved to an inactive category, or back to draft, is no hit; published again, it is', async ({ store, search }) => {
    await seedVisibility(store)
    const v1 = await store.getContent(T, 'v1')
    const v2 = await store.getContent(T, 'v2')
    assert.ok(v1 && v2)
    await store.transaction(async (tx) => {
      await tx.putContent({ ...v1, category_id: 'cat_old', version: 2 })
      await tx.putContent({ ...v2, status: 'draft', version: 2 })
    })
    assert.equal(hitSet(await search.search(T, at0)), [])
    await store.transaction((tx) => tx.putContent({ ...v2, status: 'published', published_at: at(-1), version: 3 }))
    assert.equal(hitSet(await search.search(T, at0)), ['v2'])
  })

  s('a category filter keeps its own items; an unknown or inactive category finds nothing', async ({ store, search }) => {
    await seedVisibility(store)
    assert.equal(hitSet(await search.search(T, { ...at0, categoryId: 'cat_news' })), ['v1', 'v2'])
    assert.equal(hitSet(await search.search(T, { ...at0, categoryId: 'cat_old' })), [])
    const none = await search.search(T, { ...at0, categoryId: 'cat_nope' })
    assert.equal(none, { total: 0, hits: [] })
  })

  s.run()
}
