import * as assert from 'uvu/assert'
import type { SearchSort } from '../../../port/search.ts'
import type { Store } from '../../../port/store.ts'
import { aCategory, aContent, at } from '../../fixtures.ts'
import { checkRelevanceOrder, compareWithReference } from '../compare-with-reference.ts'
import { aCondition, aSearchQuery, hitIds, seedSearch } from '../search-fixtures.ts'
import { searchSuite } from '../search-suite.ts'
import type { SearchPairing } from '../search-suite.ts'

const T = 'ten_a'
const RANK_1 = { id: 'fld_rank1', name: 'rank', type: 'number', required: false } as const
const RANK_2 = { id: 'fld_rank2', name: 'rank', type: 'number', required: false } as const
const BY_RANK = [RANK_1.id, RANK_2.id]

/**
 * Ties and gaps for every sort (`rank` is a field of both categories, with two ids):
 *   s1 c1 published -10 rank 3   s4 c1 published -5  no rank
 *   s2 c1 published -20 rank 1   s5 c2 published -30 rank 3
 *   s3 c2 published -20 rank 2   s6 c1 published -1  rank -1
 */
async function seedSortable(store: Store): Promise<void> {
  const item = (id: string, category: string, minutes: number, fields: Record<string, number>, over = {}) =>
    aContent(T, id, category, { title: `Sortable ${id}`, summary: '', body: '', published_at: at(minutes), fields, ...over })
  await seedSearch(store, T, [aCategory(T, 'c1', { fields: [RANK_1] }), aCategory(T, 'c2', { fields: [RANK_2] })], [
    item('s1', 'c1', -10, { fld_rank1: 3 }),
    item('s2', 'c1', -20, { fld_rank1: 1 }, { title: 'Other', body: '<p>sortable</p>' }),
    item('s3', 'c2', -20, { fld_rank2: 2 }),
    item('s4', 'c1', -5, {}),
    item('s5', 'c2', -30, { fld_rank2: 3 }),
    item('s6', 'c1', -1, { fld_rank1: -1 }),
  ])
}

const SORTS: [SearchSort, string[]][] = [
  [{ kind: 'published_at', direction: 'asc' }, ['s5', 's2', 's3', 's1', 's4', 's6']],
  [{ kind: 'published_at', direction: 'desc' }, ['s6', 's4', 's1', 's3', 's2', 's5']],
  [{ kind: 'field', fieldIds: BY_RANK, direction: 'asc' }, ['s6', 's2', 's3', 's1', 's5', 's4']],
  [{ kind: 'field', fieldIds: BY_RANK, direction: 'desc' }, ['s5', 's1', 's3', 's2', 's6', 's4']],
  [{ kind: 'field', fieldIds: [RANK_2.id], direction: 'asc' }, ['s3', 's5', 's1', 's2', 's4', 's6']],
]

/** Every sort, `from`/`size` pages, and exact totals. */
export function orderingCases<S extends Store>(name: string, pairing: SearchPairing<S>): void {
  const s = searchSuite(`${name}: search sorts, pages and totals`, pairing)

  s('every sort orders by its value, ties by id in the same direction, items lacking the field last', async ({ store, search }) => {
    await seedSortable(store)
    for (const [sort, expected] of SORTS) {
      assert.equal(hitIds(await search.search(T, aSearchQuery('sortable', { sort }))), expected, JSON.stringify(sort))
    }
  })

  s('relevance: highest score first, equal scores by id, a title match above a body-only one', async ({ store, search }) => {
    await seedSortable(store)
    const result = await search.search(T, aSearchQuery('sortable'))
    assert.is(result.total, 6)
    checkRelevanceOrder(result)
    assert.is(hitIds(result).at(-1), 's2', 'the only item without the word in its title comes last')
    assert.equal(hitIds(result).slice(0, 5).sort(), ['s1', 's3', 's4', 's5', 's6'])
  })

  s('every page of every sort is the slice of the whole ranking, with the exact total', async ({ store, search, reference }) => {
    await seedSortable(store)
    for (const sort of [{ kind: 'relevance' } as const, ...SORTS.map(([sort]) => sort)]) {
      for (const size of [1, 2, 4, 6]) {
        for (let from = 0; from <= 7; from++) await compareWithReference(search, reference, T, aSearchQuery('sortable', { sort, from, size }))
      }
    }
  })

  s('past the last hit a page is empty and still counts every match', async ({ store, search }) => {
    await seedSortable(store)
    assert.equal(await search.search(T, aSearchQuery('sortable', { from: 6, size: 5 })), { total: 6, hits: [] })
    assert.equal(await search.search(T, aSearchQuery('sortable', { from: 9_990, size: 10 })), { total: 6, hits: [] })
    assert.equal(await search.search(T, aSearchQuery('nothing')), { total: 0, hits: [] })
  })

  s('totals are exact over many matches, for every sort, filtered or not', async ({ store, search, reference }) => {
    const items = Array.from({ length: 1500 }, (_, i) => {
      const id = `b${String(i).padStart(4, '0')}`
      const words = i % 3 === 0 ? 'common rare' : 'common'
      return aContent(T, id, 'c1', { title: `${words} ${id}`, summary: '', body: i % 7 === 0 ? '<p>common common</p>' : '', published_at: at(-(i % 50)), fields: { fld_rank1: i % 11 } })
    })
    await seedSearch(store, T, [aCategory(T, 'c1', { fields: [RANK_1] })], items)
    const full = await search.search(T, aSearchQuery('common', { from: 1490, size: 20 }))
    assert.is(full.total, 1500)
    assert.is(full.hits.length, 10)
    assert.is((await search.search(T, aSearchQuery('common rare', { size: 5 }))).total, 500)
    const filters = [aCondition('custom_rank', { [RANK_1.id]: { gte: 5 } })]
    for (const sort of [{ kind: 'relevance' } as const, ...SORTS.map(([sort]) => sort)]) {
      await compareWithReference(search, reference, T, aSearchQuery('common', { sort, from: 40, size: 20 }))
      await compareWithReference(search, reference, T, aSearchQuery('common', { sort, filters, from: 0, size: 7 }))
      await compareWithReference(search, reference, T, aSearchQuery('rare', { sort, tags: null, from: 495, size: 10 }))
    }
  })

  s.run()
}
