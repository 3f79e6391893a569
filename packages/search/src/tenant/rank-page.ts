import type { ScoredDocument, SearchDocument, SearchQuery, SearchResult } from '@frontdesk/core'
import { compareIds, newestFirst, searchComparator } from '@frontdesk/core'
import type { TermMatches } from '../matching/term-matcher.ts'
import type { DocsByNumber } from './doc-table.ts'
import { KeyedTop } from './keyed-top.ts'
import { TopHits } from './top-hits.ts'

/** What ranking a page needs of the index: its items by number, how far numbers follow ids, and their dates as numbers. */
export interface RankedDocs {
  /** The items, and their ids and whether they are live without parsing an item a snapshot holds (see `DocTable`). */
  docs: DocsByNumber & { id(number: number): string; has(number: number): boolean }
  /** Whether a (live) document passes the query's narrowing (core's `matchesNarrowing`), asked when the page is `narrowed`. */
  narrows: (number: number) => boolean
  /** Documents numbered below this have strictly increasing ids: among them, number order is id order. */
  ordered: number
  /** Each document's `publishedKey` by number (see `PublishedKeys`), `null`: compare the items' dates. */
  published: Float64Array | null
}

/** A matching item as the index ranks it: with its document number. */
interface Hit {
  number: number
  score: number
}

/** `a` before `b` by id (negative), by number where numbers follow the ids (comparing strings is slower). */
export function idOrder(ranked: RankedDocs, a: number, b: number): number {
  return a < ranked.ordered && b < ranked.ordered ? a - b : compareIds(ranked.docs.id(a), ranked.docs.id(b))
}

/**
 * `a` before `b` (negative) by core's `newestFirst` (date descending, then id descending): by
 * the numeric dates when there are, and by number where numbers follow the ids.
 */
export function newerOrder(ranked: RankedDocs, a: number, b: number): number {
  const keys = ranked.published
  if (keys === null) return newestFirst(ranked.docs.at(a) ?? NO_DOC, ranked.docs.at(b) ?? NO_DOC)
  const x = keys[a] ?? 0
  const y = keys[b] ?? 0
  return x === y ? idOrder(ranked, b, a) : x < y ? 1 : -1
}

const NO_DOC = { id: '', published_at: null }

/**
 * The page of a relevance search: the matches by score (core's rank score), ties newest first
 * (`newerOrder`, asked only of equal scores). With `narrowed` (tag filters, or field filters
 * the columns could not take) each match is checked against its item; else the matches are
 * final and, when the matcher kept only those that may make the page (`matches.total` counts
 * all), no match below the page's lowest score is looked at.
 */
export function relevancePage(matches: TermMatches, ranked: RankedDocs, query: SearchQuery, narrowed: boolean, limited: boolean): SearchResult {
  const { docs } = ranked
  const numbers = matches.docs
  const scores = matches.scores
  const length = matches.length
  const compare = (a: Hit, b: Hit): number => b.score - a.score || newerOrder(ranked, a.number, b.number)
  const top = new TopHits<Hit>(query.from + query.size, compare)
  let total = 0
  if (!narrowed) {
    // The worst kept candidate once `k` are kept: a candidate must beat it to be offered (a tie, only when newer).
    let worst: Hit | undefined
    // Its score; below it, no match can make the page.
    let bar = matches.floor
    for (let i = 0; i < length; i++) {
      const score = scores[i] ?? 0
      if (score < bar) continue
      const number = numbers[i] ?? 0
      if (score === bar && worst !== undefined && newerOrder(ranked, number, worst.number) >= 0) continue
      if (!docs.has(number)) continue
      top.push({ score, number })
      worst = top.threshold
      if (worst !== undefined) bar = worst.score
    }
    return { total: limited ? matches.total : length, hits: top.sorted().slice(query.from).map(({ number, score }) => ({ id: docs.id(number), score })) }
  }
  // The worst kept candidate once `k` are kept: a candidate must beat it to be offered.
  let worst: Hit | undefined
  for (let i = 0; i < length; i++) {
    const number = numbers[i] ?? 0
    if (!ranked.narrows(number)) continue
    total++
    const score = scores[i] ?? 0
    if (worst !== undefined && score <= worst.score) {
      if (score < worst.score) continue
      if (newerOrder(ranked, number, worst.number) >= 0) continue
    }
    top.push({ score, number })
    worst = top.threshold
  }
  return { total, hits: top.sorted().slice(query.from).map(({ number, score }) => ({ id: docs.id(number), score })) }
}

/**
 * The page of a sorted search from numeric sort keys (`keyOf(doc)`: smaller first, the sort's
 * direction already applied; ties by id in the same direction, `sign`): every match is offered
 * to a `KeyedTop`, no object made per match. The matches are final (filters applied).
 */
export function keyedPage(matches: TermMatches, ranked: RankedDocs, query: SearchQuery, keyOf: (doc: number) => number, sign: number): SearchResult {
  const top = new KeyedTop(query.from + query.size, (a, b) => sign * idOrder(ranked, a, b))
  const numbers = matches.docs
  const scores = matches.scores
  const length = matches.length
  for (let i = 0; i < length; i++) {
    const number = numbers[i] ?? 0
    top.offer(number, keyOf(number), scores[i] ?? 0)
  }
  const hits = top.sorted().slice(query.from).map(({ doc, score }) => ({ id: ranked.docs.id(doc), score }))
  return { total: length, hits }
}

/** The page of a sorted search by core's `searchComparator` over the items: what `keyedPage` does where keys are not at hand. */
export function comparatorPage(matches: TermMatches, ranked: RankedDocs, query: SearchQuery, narrowed: boolean): SearchResult {
  const top = new TopHits<ScoredDocument>(query.from + query.size, searchComparator(query.sort))
  const numbers = matches.docs
  const scores = matches.scores
  let total = 0
  for (let i = 0; i < matches.length; i++) {
    const number = numbers[i] ?? 0
    if (narrowed && !ranked.narrows(number)) continue
    const doc = ranked.docs.at(number)
    if (doc === undefined) continue
    total++
    top.push({ doc, score: scores[i] ?? 0 })
  }
  return { total, hits: top.sorted().slice(query.from).map(({ doc, score }) => ({ id: doc.id, score })) }
}
