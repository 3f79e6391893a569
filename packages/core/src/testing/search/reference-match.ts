import type { CategoryRecord } from '../../model/category.ts'
import type { SearchSourceItem } from '../../port/search-source.ts'
import { forEachIndexTerm } from '../../search/analyzer.ts'
import type { QueryTerm } from '../../search/query-terms.ts'
import { MATCH_WEIGHTS, wordMatchWeight } from '../../search/query-terms.ts'
import { stripHtml } from '../../search/strip-html.ts'

/** The fields a search looks in (CONTRACT §5). */
export type SearchedField = 'title' | 'summary' | 'body' | 'tags' | 'custom'

/**
 * The reference's weight of a matching term in each field: the title counts twice, as the
 * contract wants it weighted highest. Deliberately not the engine's BM25+ weights: the
 * reference promises which items match, not how an engine ranks them (see `createScanSearch`).
 */
export const REFERENCE_WEIGHTS: Readonly<Record<SearchedField, number>> = { title: 2, summary: 1, body: 1, tags: 1, custom: 1 }

/**
 * The text of each searched field of an item (CONTRACT §5): title, summary, body with its
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
 * How well an item matches `terms` by the contract's rules, in plain code: `0` when some term
 * does not match, else a positive score (see `referenceTermScores`).
 */
export function referenceScore(item: SearchSourceItem, category: CategoryRecord | undefined, terms: readonly QueryTerm[]): number {
  const scores = referenceTermScores(item, category, terms)
  return scores.length > 0 && scores.every((score) => score > 0) ? scores.reduce((sum, score) => sum + score, 0) : 0
}

/**
 * How well an item matches each of `terms`, in plain code (`0`: not at all). A `word` term
 * matches every word of the item that `wordMatches` accepts (a prefix, a form of its stem, its
 * compound joined, one edit away when fuzzy); a `cjk` term matches when each of its grams is
 * one of the item's CJK terms (a one-character term: a prefix of one). Terms need not match in
 * the same field. A term's score adds up each occurrence of what it matched times its field's
 * `REFERENCE_WEIGHTS` (for a word, also times the weight of its kind of match). A term with
 * synonyms also matches an item that matches every term of one of them (see `termScore`).
 */
export function referenceTermScores(item: SearchSourceItem, category: CategoryRecord | undefined, terms: readonly QueryTerm[]): number[] {
  if (terms.length === 0) return []
  const fields: FieldTerms[] = searchedTexts(item, category).map(({ field, text }) => {
    const analysed: FieldTerms = { weight: REFERENCE_WEIGHTS[field], words: [], cjk: [] }
    forEachIndexTerm(text, (term, cjk) => void (cjk ? analysed.cjk : analysed.words).push(term))
    return analysed
  })
  return terms.map((term) => termScore(fields, term))
}

/**
 * A term's score: its own matches, plus, for each of its synonyms (`QueryTerm.synonyms`) whose
 * every term the item matches, `MATCH_WEIGHTS.synonym` times their scores.
 */
function termScore(fields: FieldTerms[], term: QueryTerm): number {
  let score = term.kind === 'word' ? wordScore(fields, term) : cjkScore(fields, term)
  for (const synonym of term.synonyms ?? []) {
    const scores = synonym.map((t) => (t.kind === 'word' ? wordScore(fields, t) : cjkScore(fields, t)))
    if (scores.length > 0 && scores.every((s) => s > 0)) score += MATCH_WEIGHTS.synonym * scores.reduce((sum, s) => sum + s, 0)
  }
  return score
}

function wordScore(fields: FieldTerms[], term: Extract<QueryTerm, { kind: 'word' }>): number {
  // Each match counts its kind's weight (core's `wordMatchWeight`: exact, stem, typo, prefix), as an engine's scores do.
  return fields.reduce((sum, field) => sum + field.weight * field.words.reduce((n, word) => n + wordMatchWeight(term, word), 0), 0)
}

function cjkScore(fields: FieldTerms[], term: Extract<QueryTerm, { kind: 'cjk' }>): number {
  let score = 0
  for (const gram of new Set(term.grams)) {
    const matches = (found: string): boolean => (term.prefix ? found.startsWith(gram) : found === gram)
    const gramScore = fields.reduce((sum, field) => sum + field.weight * field.cjk.filter(matches).length, 0)
    if (gramScore === 0) return 0
    score += gramScore
  }
  return score
}
