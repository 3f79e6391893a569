import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import type { SearchPort, SearchQuery } from '../../port/search.ts'
import { searchQueryKey } from '../../search/search-query-key.ts'
import { MATCH_KIND, rankScale, termRank } from '../../search/match-rank.ts'
import { compareIds, searchComparator } from '../../search/search-order.ts'
import { createMemoryStore } from '../memory/memory-store.ts'
import type { MemoryStore } from '../memory/memory-store.ts'
import { differentialCheck, differentialOptions } from './cases/differential.ts'
import { CORE_RULES, createScanSearch } from './scan-search.ts'
import { SEARCH_NOW } from './search-fixtures.ts'

/*
 * The differential check must fail an engine that is wrong the ways engines go wrong: each
 * engine below is the reference with one planted bug, and the check (CI's runs and seed)
 * must catch it. A check that passes them all would pass anything.
 */

type Planted = (store: MemoryStore, reference: SearchPort) => SearchPort

const test = suite('the differential check catches planted bugs')

/** A memo of pages, keyed by `key` (the bug is in what the key leaves out). */
function memo(reference: SearchPort, key: (tenantId: string, query: SearchQuery) => Promise<string>): SearchPort {
  const pages = new Map<string, Awaited<ReturnType<SearchPort['search']>>>()
  return {
    async search(tenantId, query) {
      const k = await key(tenantId, query)
      const known = pages.get(k)
      if (known !== undefined) return known
      const result = await reference.search(tenantId, query)
      pages.set(k, result)
      return result
    },
  }
}

const planted: Record<string, Planted> = {
  'a memo whose key drops filter values (issue 16)': (store, reference) =>
    memo(reference, async (tenantId, q) =>
      JSON.stringify([tenantId, await store.revision(tenantId), q.now, q.terms, q.categoryId, q.tags, q.filters.map((c) => [c.key, [...c.byFieldId.keys()]]), q.sort, q.from, q.size]),
    ),
  'a memo that forgets nothing when items change': (_store, reference) => memo(reference, async (tenantId, q) => `${tenantId} ${q.now} ${searchQueryKey(q)}`),
  'a memo that ignores the time of the search': (store, reference) =>
    memo(reference, async (tenantId, q) => `${tenantId} ${await store.revision(tenantId)} ${searchQueryKey(q)}`),
  'visibility frozen at the first moment': (_store, reference) => ({ search: (tenantId, q) => reference.search(tenantId, { ...q, now: SEARCH_NOW }) }),
  'relevance ties in the wrong order': (_store, reference) => ({
    async search(tenantId, q) {
      const result = await reference.search(tenantId, q)
      return q.sort.kind === 'relevance' ? { ...result, hits: result.hits.map((hit) => ({ ...hit, score: 1 })).reverse() } : result
    },
  }),
  'kinds of match weighing on the relevance instead of ranking first (a title typo above a body match as typed)': (store) =>
    createScanSearch(store, {
      ...CORE_RULES,
      score: (matches) => {
        const scale = rankScale(matches.length)
        return matches.reduce((sum, match) => sum + (match === null ? 0 : termRank(scale, MATCH_KIND.exact, match.relevance)), 0)
      },
    }),
  'relevance ties by id instead of newest first': (store) =>
    createScanSearch(store, {
      ...CORE_RULES,
      order: (sort) => (sort.kind === 'relevance' ? (a, b) => b.score - a.score || compareIds(a.doc.id, b.doc.id) : searchComparator(sort)),
    }),
  'a total that counts the page only': (_store, reference) => ({
    async search(tenantId, q) {
      const result = await reference.search(tenantId, q)
      return { ...result, total: Math.min(result.total, q.from + q.size) }
    },
  }),
  'English word forms ignored (no stems)': (_store, reference) => ({
    search: (tenantId, q) => reference.search(tenantId, { ...q, terms: q.terms.map((term) => (term.kind === 'word' ? { ...term, stem: null } : term)) }),
  }),
  'synonyms ignored': (_store, reference) => ({
    search: (tenantId, q) => reference.search(tenantId, { ...q, terms: q.terms.map(({ synonyms: _dropped, ...term }) => term) }),
  }),
  'excluded words (-word) ignored': (_store, reference) => ({ search: (tenantId, q) => reference.search(tenantId, { ...q, excluded: [] }) }),
  'quoted phrases ignored (their words anywhere)': (_store, reference) => ({ search: (tenantId, q) => reference.search(tenantId, { ...q, phrases: [] }) }),
  'phrases matched in any order': (_store, reference) => ({
    search: (tenantId, q) => reference.search(tenantId, { ...q, phrases: (q.phrases ?? []).map((phrase) => ({ ...phrase, units: [...phrase.units].reverse() })) }),
  }),
  'tags all required instead of any': (_store, reference) => ({
    async search(tenantId, q) {
      if (q.tags === null || q.tags.length < 2) return reference.search(tenantId, q)
      return { total: 0, hits: [] }
    },
  }),
}

for (const [bug, plant] of Object.entries(planted)) {
  test(bug, async () => {
    const store = createMemoryStore()
    const reference = createScanSearch(store)
    const failure = await differentialCheck({ store, search: plant(store, reference), reference }, { ...differentialOptions(), shrink: false }).then(
      () => null,
      (error: unknown) => error,
    )
    assert.instance(failure, Error, `${bug}: not caught`)
    await store.close()
  })
}

test('and passes the reference itself', async () => {
  const store = createMemoryStore()
  const reference = createScanSearch(store)
  await differentialCheck({ store, search: createScanSearch(store), reference }, differentialOptions())
  await store.close()
})

test.run()
