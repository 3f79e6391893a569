import type { CategoryRecord } from '../../model/category.ts'
import type { SearchPort, SearchQuery, SearchResult, SearchSort } from '../../port/search.ts'
import type { SearchSource, SearchSourceItem } from '../../port/search-source.ts'
import type { ContentReader } from '../../port/store.ts'
import { matchesSearch } from '../../search/search-match.ts'
import type { ScoredDocument } from '../../search/search-order.ts'
import { newestFirst, searchComparator } from '../../search/search-order.ts'
import { hasPhrase, PHRASE_CANDIDATE_LIMIT } from '../../search/phrase.ts'
import { rankScale, termRank } from '../../search/match-rank.ts'
import { isVisibleAt, visibleSince } from '../../content/visibility.ts'
import type { ReferenceMatch, ShortPrefixes } from './reference-match.ts'
import { referenceMatches, searchedTexts, shortPrefixesOf } from './reference-match.ts'

/** What the scan reads of a store: its items for search and its categories. */
export type ScannedStore = SearchSource & Pick<ContentReader, 'listCategories'>

/** Items read per call while scanning a tenant. */
const PAGE = 1000

/**
 * A brute-force `SearchPort`: every search reads all of the tenant's items and categories
 * from the store (through the port, so it runs over any store) and keeps those core's rules
 * accept — `matchesSearch` for visibility, category, tags and filters, `referenceMatches`
 * for the terms (core's analyzer, `wordMatches` and `wordMatchKind`), `hasPhrase` for quoted
 * phrases (see `phraseHolders`) — sorted by `searchComparator`. Items
 * matching every term are the answer; when none does, those matching the most terms (no
 * dead ends: a question typed as a sentence still finds what has most of its words). No index, no
 * memo: what it answers follows from the store's state at the moment of the search, which
 * makes it the reference engines are compared with, and an engine for core's own tests.
 *
 * What it guarantees, and what it does not:
 * - exactly the matching items, so exact `total`s, and exact pages for every sort but
 *   relevance (`published_at`, custom fields: values, then ids);
 * - for relevance, core's rank score (`rankScale`) of each item: the kinds part
 *   (`matchRank`: how its words matched) exactly as an engine must compute it, the relevance
 *   part from its own simple measure (`REFERENCE_WEIGHTS`: weighted counts of matches). An
 *   engine's BM25+ relevance (field lengths, IDF, quantised weights) cannot be reproduced by a
 *   scan, so a relevance page of an engine is compared with the reference as a set (with the
 *   same `total`), each item's kinds part with the reference's, and its order on its own
 *   terms: scores never increase, equal scores come newest first, and every page is the
 *   slice of the full ranking (see `compareWithReference`).
 */
export function createScanSearch(store: ScannedStore, rules: ScanRules = CORE_RULES): SearchPort {
  return {
    async search(tenantId: string, query: SearchQuery): Promise<SearchResult> {
      if (query.terms.length === 0) return { total: 0, hits: [] }
      const categories = new Map<string, CategoryRecord>((await store.listCategories(tenantId)).map((c) => [c.id, c]))
      const items = await readAll(store, tenantId)
      // Hint: a one-character word matches as a prefix only the words the most items hold, counted over every item.
      const short = shortPrefixesOf(items, categories, [...query.terms, ...(query.excluded ?? []), ...(query.phrases ?? []).flatMap((phrase) => phrase.terms)])
      const phrased = phraseHolders(items, categories, query, short)
      // Each candidate with how many terms it matched; only those matching the most are kept (no dead ends).
      const found: (ScoredDocument & { matched: number })[] = []
      let most = 1
      for (const item of items) {
        const category = categories.get(item.doc.category_id)
        if (!matchesSearch(item.doc, category?.active === true, query)) continue
        if (phrased !== null && !phrased.has(item.doc.id)) continue
        // An item matching an excluded term (`-word`) is left out, whatever else it matches.
        if (referenceMatches(item, category, query.excluded ?? [], short).some((match) => match !== null)) continue
        const matches = referenceMatches(item, category, query.terms, short)
        const matched = matches.filter((match) => match !== null).length
        if (matched < most) continue
        most = matched
        found.push({ doc: item.doc, score: rules.score(matches), matched })
      }
      const kept = found.filter((hit) => hit.matched === most)
      kept.sort(rules.order(query.sort))
      const hits = kept.slice(query.from, query.from + query.size).map(({ doc, score }) => ({ id: doc.id, score }))
      return { total: kept.length, hits }
    },
  }
}

/** How the scan ranks: core's rules, or (to check that a differential test catches it) one of them broken. */
export interface ScanRules {
  /** An item's score from how it matches each query term (`null`: not at all). */
  score(matches: readonly (ReferenceMatch | null)[]): number
  /** The order of a sort. */
  order(sort: SearchSort): (a: ScoredDocument, b: ScoredDocument) => number
}

/** Core's rules: the rank score (`rankScale`, `termRank`) and `searchComparator`. */
export const CORE_RULES: ScanRules = {
  score(matches) {
    const scale = rankScale(matches.length)
    return matches.reduce((sum, match) => sum + (match === null ? 0 : termRank(scale, match.kind, match.relevance)), 0)
  },
  order: searchComparator,
}

/**
 * The ids of the items holding every phrase of the query (`null`: it has none), by the rule of
 * `SearchQuery.phrases` as it reads: of the items visible at `query.now` in the category asked
 * for (if any) that match every term of every phrase, the first `PHRASE_CANDIDATE_LIMIT` by `newestFirst`
 * are checked, each field apart.
 */
function phraseHolders(items: readonly SearchSourceItem[], categories: ReadonlyMap<string, CategoryRecord>, query: SearchQuery, short: ShortPrefixes): Set<string> | null {
  const phrases = query.phrases ?? []
  if (phrases.length === 0) return null
  const terms = phrases.flatMap((phrase) => phrase.terms)
  const now = Date.parse(query.now)
  const candidates = items.filter((item) => {
    const category = categories.get(item.doc.category_id)
    if (!isVisibleAt(visibleSince(item.doc), category?.active === true, now)) return false
    if (query.categoryId !== null && item.doc.category_id !== query.categoryId) return false
    return referenceMatches(item, category, terms, short).every((match) => match !== null)
  })
  candidates.sort((a, b) => newestFirst(a.doc, b.doc))
  const held = new Set<string>()
  for (const item of candidates.slice(0, PHRASE_CANDIDATE_LIMIT)) {
    const texts = searchedTexts(item, categories.get(item.doc.category_id)).map(({ text }) => text)
    if (phrases.every((phrase) => hasPhrase(texts, phrase))) held.add(item.doc.id)
  }
  return held
}

/** Every item of the tenant, page by page. */
async function readAll(store: SearchSource, tenantId: string): Promise<SearchSourceItem[]> {
  const items: SearchSourceItem[] = []
  for (;;) {
    const page = await store.readSearchItems(tenantId, { after: items.at(-1)?.doc.id ?? null }, PAGE)
    items.push(...page)
    if (page.length < PAGE) return items
  }
}
