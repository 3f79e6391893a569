import * as assert from 'uvu/assert'
import type { SearchPort } from '../../../port/search.ts'
import type { Store } from '../../../port/store.ts'
import { parseQuery } from '../../../search/query-terms.ts'
import { synonymSetOf, withSynonyms } from '../../../search/synonyms.ts'
import { aCategory, aContent } from '../../fixtures.ts'
import { aSearchQuery, hitIds, hitSet, seedSearch } from '../search-fixtures.ts'
import { searchSuite } from '../search-suite.ts'
import type { SearchPairing } from '../search-suite.ts'

const T = 'ten_syn'
const blank = { summary: '', body: '', author_name: 'Ann Author' }

const SYNONYMS = synonymSetOf(['car, automobile', 'nyc => new york', 'パソコン, コンピュータ, pc', 'tv => テレビ'])

/** A search of `text` with the tenant's synonyms, as core hands it to an engine. */
function withTheSynonyms(text: string) {
  const query = aSearchQuery(text)
  return { ...query, terms: withSynonyms(parseQuery(text).terms, SYNONYMS) }
}

/**
 * Synonyms (core's `QueryTerm.synonyms`): a query word also matches every term of one of its
 * synonyms, English and Japanese, a multi-word synonym only with all its words; an item with
 * the word as typed ranks above one with only a synonym of it.
 */
export function synonymCases<S extends Store>(name: string, pairing: SearchPairing<S>): void {
  const s = searchSuite(`${name}: search with synonyms`, pairing)
  const find = async (search: SearchPort, text: string): Promise<string[]> => hitSet(await search.search(T, withTheSynonyms(text)))

  s('a word finds its synonyms, a multi-word one only with all its words, and only one step', async ({ store, search }) => {
    await seedSearch(store, T, [aCategory(T, 'cat_news')], [
      aContent(T, 's1', 'cat_news', { ...blank, title: 'Buying an automobile' }),
      aContent(T, 's2', 'cat_news', { ...blank, title: 'The car park is closed' }),
      aContent(T, 's3', 'cat_news', { ...blank, title: 'Flights to New York' }),
      aContent(T, 's4', 'cat_news', { ...blank, title: 'A new yoga class' }),
      aContent(T, 's5', 'cat_news', { ...blank, title: 'ノートパソコンの選び方' }),
      aContent(T, 's6', 'cat_news', { ...blank, title: 'コンピューターの使い方' }),
      aContent(T, 's7', 'cat_news', { ...blank, title: 'テレビ番組', summary: 'PC support' }),
    ])
    assert.equal(await find(search, 'car'), ['s1', 's2'])
    assert.equal(await find(search, 'automobile'), ['s1', 's2'])
    assert.equal(await find(search, 'nyc'), ['s3'])
    assert.equal(await find(search, 'york'), ['s3'], 'one-way: a target finds no source')
    assert.equal(await find(search, 'ぱそこん'), ['s5', 's6', 's7'])
    assert.equal(await find(search, 'pc'), ['s5', 's6', 's7'])
    assert.equal(await find(search, 'tv'), ['s7'])
    assert.equal(await find(search, 'テレビ'), ['s7'])
    assert.equal(await find(search, 'car park'), ['s2'], 'every query word must still match')
    assert.equal(await find(search, 'automobile park'), ['s2'])
    // Without synonyms in the query, nothing of them is found.
    assert.equal(hitSet(await search.search(T, aSearchQuery('nyc'))), [])
  })

  s('the word as typed ranks above its synonyms', async ({ store, search }) => {
    await seedSearch(store, T, [aCategory(T, 'cat_news')], [
      aContent(T, 's1', 'cat_news', { ...blank, title: 'automobile news' }),
      aContent(T, 's2', 'cat_news', { ...blank, title: 'car news' }),
    ])
    assert.equal(hitIds(await search.search(T, withTheSynonyms('car'))), ['s2', 's1'])
    assert.equal(hitIds(await search.search(T, withTheSynonyms('automobile'))), ['s1', 's2'])
  })

  s.run()
}
