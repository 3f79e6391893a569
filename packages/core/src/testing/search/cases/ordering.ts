import * as assert from 'uvu/assert'
import type { SearchSort } from '../../../port/search.ts'
import type { Store } from '../../../port/store.ts'
import { synonymSetOf, withSynonyms as withSynonymsOf } from '../../../search/synonyms.ts'
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

const TIES = 'ten_ties'
const KIND_SYNONYMS = synonymSetOf(['car, automobile'])

/** One item per kind of match of a few words, the weaker kind always in the title (weighted highest); and, in tenant `TIES`, four items alike of three dates. */
async function seedKinds(store: Store): Promise<void> {
  const item = (id: string, title: string, body: string, minutes = -60) => aContent(T, id, 'c1', { title, summary: '', body, published_at: at(minutes) })
  await seedSearch(store, T, [aCategory(T, 'c1')], [
    item('k_title_typo', 'Auorra over the bay', ''),
    item('k_body_exact', 'Night sky', '<p>The aurora tonight</p>'),
    item('k_title_learned', 'Lessons learned', ''),
    item('k_body_learning', 'Notes', '<p>Machine learning</p>'),
    item('k_title_cars', 'Cars for sale', ''),
    item('k_body_synonym', 'Garage', '<p>an automobile</p>'),
    item('k_title_gardenia', 'Gardenia guide', ''),
    item('k_body_garten', 'Flowers', '<p>Der garten</p>'),
  ])
  const alike = (id: string, minutes: number) => aContent(TIES, id, 'c1', { title: 'Office hours', summary: '', body: '', published_at: at(minutes) })
  await seedSearch(store, TIES, [aCategory(TIES, 'c1')], [alike('k_oldest_a', -20), alike('k_old', -10), alike('k_new', -5), alike('k_oldest_b', -20)])
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

  s('relevance: highest score first, equal scores newest first, a title match above a body-only one', async ({ store, search }) => {
    await seedSortable(store)
    const result = await search.search(T, aSearchQuery('sortable'))
    assert.is(result.total, 6)
    checkRelevanceOrder(result)
    assert.is(hitIds(result).at(-1), 's2', 'the only item without the word in its title comes last')
    assert.equal(hitIds(result).slice(0, 5).sort(), ['s1', 's3', 's4', 's5', 's6'])
  })

  s('relevance ranks kinds of match strictly: as typed, synonym, stem, typo, prefix, whatever the fields; then newest first', async ({ store, search, reference }) => {
    await seedKinds(store)
    const order = async (text: string): Promise<string[]> => {
      const query = aSearchQuery(text)
      const withSynonyms = { ...query, terms: withSynonymsOf(query.terms, KIND_SYNONYMS) }
      await compareWithReference(search, reference, T, withSynonyms, text)
      return hitIds(await search.search(T, withSynonyms))
    }
    assert.equal(await order('aurora'), ['k_body_exact', 'k_title_typo'], 'a body match as typed above a title typo')
    assert.equal(await order('learning'), ['k_body_learning', 'k_title_learned'], 'as typed above another form of the stem')
    assert.equal(await order('car'), ['k_body_synonym', 'k_title_cars'], 'a synonym above another form of the stem')
    assert.equal(await order('garden'), ['k_body_garten', 'k_title_gardenia'], 'a typo above a longer word it begins')
    // Items alike (an engine's BM25+ weighs field lengths against the average of the items indexed before: those of another tenant, all alike, score alike).
    const alike = await search.search(TIES, aSearchQuery('office'))
    await compareWithReference(search, reference, TIES, aSearchQuery('office'), 'office')
    assert.equal(hitIds(alike), ['k_new', 'k_old', 'k_oldest_b', 'k_oldest_a'], 'matched alike: newest first, then by id descending')
    // No item has both words: those with one, the best kind first.
    const most = await order('aurora learning')
    assert.equal(most.slice(0, 2).sort(), ['k_body_exact', 'k_body_learning'])
    assert.equal(most.slice(2), ['k_title_learned', 'k_title_typo'])
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
