import type { CategoryRecord } from '../../model/category.ts'
import type { SearchSourceItem } from '../../port/search-source.ts'
import { forEachIndexTerm } from '../../search/analyzer.ts'
import type { QueryTerm } from '../../search/query-terms.ts'
import { MATCH_KIND, rankScale, termRank } from '../../search/match-rank.ts'
import { MATCH_WEIGHTS, wordMatchKind, wordMatchWeight } from '../../search/query-terms.ts'
import { shortPrefixWords } from '../../search/short-prefix.ts'
import { stripHtml } from '../../search/strip-html.ts'

/** The fields a search looks in (README "Search"). */
export type SearchedField = 'title' | 'summary' | 'body' | 'tags' | 'custom'

/**
 * The reference's weight of a matching term in each field: the title counts twice, as the
 * contract wants it weighted highest. Deliberately not the engine's BM25+ weights: the
 * reference promises which items match and how their words matched (core's kinds), not an
 * engine's relevance among items matched alike (see `createScanSearch`).
 */
export const REFERENCE_WEIGHTS: Readonly<Record<SearchedField, number>> = { title: 2, summary: 1, body: 1, tags: 1, custom: 1 }

/**
 * The text of each searched field of an item (README "Search"): title, summary, body with its
 * HTML stripped, tag names, and the values of the category's custom fields of type text and
 * select (a value of another type is not text, whatever the definition says).
 */
export function searchedTexts(item: SearchSourceItem, category: CategoryRecord | undefined): { field: SearchedField; text: string }[] {
  const custom: string[] = []
  for (const field of category?.fields ?? []) {
    if (field.type !== 'text' && field.type !== 'select') continue
    const value = Object.hasOwn(item.doc.fields, field.id) ? item.doc.fields[field.id] : undefined
    if (typeof value === 'string') custom.push(value)
  }
  return [
    { field: 'title', text: item.title },
    { field: 'summary', text: item.summary },
    { field: 'body', text: stripHtml(item.body) },
    ...item.doc.tags.map((tag) => ({ field: 'tags' as const, text: tag })),
    ...custom.map((text) => ({ field: 'custom' as const, text })),
  ]
}

/** The terms of one field as core's analyzer gives them: whole words and CJK grams apart. */
interface FieldTerms {
  weight: number
  words: string[]
  cjk: string[]
}

/**
 * The longer words each query term with `prefixWords` (`QueryTerm.prefixWords`: one character
 * typed outside quotes) matches as a prefix, by `shortKey`: the few the most items hold.
 */
export type ShortPrefixes = ReadonlyMap<string, ReadonlySet<string>>

const NO_SHORT_PREFIXES: ShortPrefixes = new Map()

/** The key of a term with `prefixWords` in `ShortPrefixes` (words and CJK terms apart). */
function shortKey(prefix: string, cjk: boolean, limit: number): string {
  return `${cjk ? 'c' : 'w'}${limit}:${prefix}`
}

/**
 * `ShortPrefixes` of `terms` (their synonyms included), the items holding each word counted
 * over `items` (all of the tenant's, any status: what an engine indexes), in plain code.
 */
export function shortPrefixesOf(items: readonly SearchSourceItem[], categories: ReadonlyMap<string, CategoryRecord>, terms: readonly QueryTerm[]): ShortPrefixes {
  // Of each prefix (`w` or `c`, then the character): the words beginning with it and how many items hold each.
  const counts = new Map<string, Map<string, number>>()
  const limited: { key: string; counted: string; limit: number }[] = []
  const visit = (term: QueryTerm): void => {
    for (const synonym of term.synonyms ?? []) synonym.forEach(visit)
    if (term.prefixWords === undefined) return
    const cjk = term.kind === 'cjk'
    const prefix = term.kind === 'word' ? term.term : (term.grams[0] ?? '')
    const counted = `${cjk ? 'c' : 'w'}${prefix}`
    counts.set(counted, new Map())
    limited.push({ key: shortKey(prefix, cjk, term.prefixWords), counted, limit: term.prefixWords })
  }
  terms.forEach(visit)
  if (limited.length === 0) return NO_SHORT_PREFIXES
  for (const item of items) {
    const held = new Set<string>()
    for (const { text } of searchedTexts(item, categories.get(item.doc.category_id))) forEachIndexTerm(text, (term, cjk) => held.add(`${cjk ? 'c' : 'w'}${term}`))
    for (const key of held) {
      const first = String.fromCodePoint(key.codePointAt(1) ?? 0)
      const words = counts.get(`${key.charAt(0)}${first}`)
      const term = key.slice(1)
      if (words !== undefined && term !== first) words.set(term, (words.get(term) ?? 0) + 1)
    }
  }
  return new Map(limited.map(({ key, counted, limit }) => [key, new Set(limit === 0 ? [] : shortPrefixWords(counts.get(counted) ?? [], limit))]))
}

/** How an item matches one query word: its best kind of match (a `MATCH_KIND` code) and the reference's relevance (> 0). */
export interface ReferenceMatch {
  kind: number
  relevance: number
}

/**
 * How well an item matches `terms` by the contract's rules, in plain code: `0` when some term
 * does not match, else its rank score over them (core's `termRank` of each `referenceMatches`).
 */
export function referenceScore(item: SearchSourceItem, category: CategoryRecord | undefined, terms: readonly QueryTerm[]): number {
  const matches = referenceMatches(item, category, terms)
  if (matches.length === 0 || matches.some((match) => match === null)) return 0
  const scale = rankScale(terms.length)
  return matches.reduce((sum, match) => sum + (match === null ? 0 : termRank(scale, match.kind, match.relevance)), 0)
}

/** `referenceMatches` as numbers: each term's relevance, `0` where it does not match. */
export function referenceTermScores(item: SearchSourceItem, category: CategoryRecord | undefined, terms: readonly QueryTerm[]): number[] {
  return referenceMatches(item, category, terms).map((match) => match?.relevance ?? 0)
}

/**
 * How an item matches each of `terms`, in plain code (`null`: not at all). A `word` term
 * matches every word of the item that `wordMatches` accepts (a prefix, a form of its stem, its
 * compound joined, one edit away when fuzzy), its kind the best of core's `wordMatchKind` over
 * them; a `cjk` term matches, as typed, when each of its grams is one of the item's CJK terms
 * (a one-character term: a prefix of one). Terms need not match in the same field. A term's
 * relevance adds up each occurrence of what it matched times its field's `REFERENCE_WEIGHTS`
 * (for a word, also times the weight of its kind of match). A term with synonyms also matches
 * an item that matches every term of one of them (see `termMatch`).
 */
export function referenceMatches(item: SearchSourceItem, category: CategoryRecord | undefined, terms: readonly QueryTerm[], short: ShortPrefixes = NO_SHORT_PREFIXES): (ReferenceMatch | null)[] {
  if (terms.length === 0) return []
  const fields: FieldTerms[] = searchedTexts(item, category).map(({ field, text }) => {
    const analysed: FieldTerms = { weight: REFERENCE_WEIGHTS[field], words: [], cjk: [] }
    forEachIndexTerm(text, (term, cjk) => void (cjk ? analysed.cjk : analysed.words).push(term))
    return analysed
  })
  return terms.map((term) => termMatch(fields, term, short))
}

/**
 * A term's match: its own, plus, for each of its synonyms (`QueryTerm.synonyms`) whose every
 * term the item matches, `MATCH_WEIGHTS.synonym` times their relevance; its kind the best of
 * its own and its synonyms' (a synonym whose every word matched as typed is of kind
 * `synonym`, else `prefix`: synonyms have neither stems nor typos).
 */
function termMatch(fields: FieldTerms[], term: QueryTerm, short: ShortPrefixes): ReferenceMatch | null {
  let best = ownMatch(fields, term, short)
  let relevance = best?.relevance ?? 0
  for (const synonym of term.synonyms ?? []) {
    const matches = synonym.map((t) => ownMatch(fields, t, short))
    if (matches.length === 0 || matches.some((match) => match === null)) continue
    relevance += MATCH_WEIGHTS.synonym * matches.reduce((sum, match) => sum + (match?.relevance ?? 0), 0)
    const kind = matches.every((match) => match?.kind === MATCH_KIND.exact) ? MATCH_KIND.synonym : MATCH_KIND.prefix
    if (best === null || kind < best.kind) best = { kind, relevance: 0 }
  }
  return best === null ? null : { kind: best.kind, relevance }
}

function ownMatch(fields: FieldTerms[], term: QueryTerm, short: ShortPrefixes): ReferenceMatch | null {
  const limit = term.prefixWords
  if (term.kind === 'word') return wordMatch(fields, term, limit === undefined ? undefined : short.get(shortKey(term.term, false, limit)))
  return cjkMatch(fields, term, limit === undefined ? undefined : short.get(shortKey(term.grams[0] ?? '', true, limit)))
}

/** A word's match; `kept`: with `prefixWords`, the longer words it matches as a prefix (`ShortPrefixes`). */
function wordMatch(fields: FieldTerms[], term: Extract<QueryTerm, { kind: 'word' }>, kept: ReadonlySet<string> | undefined): ReferenceMatch | null {
  // Each match counts its kind's weight (core's `wordMatchWeight`: exact, stem, typo, prefix), as an engine's scores do.
  let kind: number | null = null
  let relevance = 0
  for (const field of fields) {
    for (const word of field.words) {
      const found = wordMatchKind(term, word)
      if (found === null) continue
      // A short prefix's other words do not match; the joined form of its compound still does.
      if (kept !== undefined && found === MATCH_KIND.prefix && !kept.has(word) && !(term.joined !== null && word.startsWith(term.joined))) continue
      if (kind === null || found < kind) kind = found
      relevance += field.weight * wordMatchWeight(term, word)
    }
  }
  return kind === null ? null : { kind, relevance }
}

/** A CJK run's match; `kept`: with `prefixWords`, the longer terms it matches as a prefix (`ShortPrefixes`). */
function cjkMatch(fields: FieldTerms[], term: Extract<QueryTerm, { kind: 'cjk' }>, kept: ReadonlySet<string> | undefined): ReferenceMatch | null {
  let relevance = 0
  for (const gram of new Set(term.grams)) {
    const matches = (found: string): boolean => (term.prefix ? found === gram || (found.startsWith(gram) && (kept === undefined || kept.has(found))) : found === gram)
    const gramScore = fields.reduce((sum, field) => sum + field.weight * field.cjk.filter(matches).length, 0)
    if (gramScore === 0) return null
    relevance += gramScore
  }
  return { kind: MATCH_KIND.exact, relevance }
}
