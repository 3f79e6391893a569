import type { QueryTerm } from '@frontdesk/core'
import type { InvertedIndex } from './inverted-index.ts'
import { WEIGHTS } from './inverted-index.ts'

// MiniSearch's weights of prefix and fuzzy matches (searchOptions.weights), so scores keep their shape.
const PREFIX_WEIGHT = 0.375
const FUZZY_WEIGHT = 0.45

/** At most this many query terms' expansions are remembered (then all are dropped: a simple bound). */
const MAX_EXPANSIONS = 2000
/** …holding at most this many alternatives in all (~40 bytes each): a one-letter prefix alone may expand to thousands. */
const MAX_REMEMBERED_ALTERNATIVES = 200_000

/** One index term a query term matches, with the weight of that kind of match. */
interface Alternative {
  id: number
  factor: number
}

/**
 * The documents matching every query term, and their scores (parallel arrays, `[0, length)`).
 * The arrays are the matcher's scratch space: valid until its next `match` (the caller may
 * shorten `length` after filtering them in place).
 */
export interface TermMatches {
  docs: Int32Array
  scores: Float64Array
  length: number
}

/**
 * Which documents a query may return, from typed arrays by document number: visible at
 * `now` (`visibleFrom[doc] <= now`; NaN never is) and in a category whose number `allowed`
 * marks with 1. The matcher drops the others while it reads the rarest group's postings, so
 * they cost nothing in the later groups or the caller's loop.
 */
export interface Eligibility {
  visibleFrom: Float64Array
  now: number
  categoryOf: Uint32Array
  allowed: Uint8Array
}

/**
 * Finds the documents matching every term of a query (CONTRACT §5) in an `InvertedIndex`,
 * with their scores. Each query term becomes one or more required groups of alternatives:
 * a word is one group (the term itself, the terms it is a prefix of, and with `fuzzy` the
 * terms one edit away); a CJK run is one group per bigram, matched exactly (a one-character
 * run: that character as a prefix). Groups are evaluated rarest first: the first one decides
 * the candidates (only eligible documents: see `Eligibility`), every later one only marks those
 * it also holds, so the work is the sum of the groups' posting lengths and never grows with the
 * number of results. Scores add up, as in MiniSearch: per alternative, IDF × the posting's
 * weight × the match kind's weight, in the order of the groups and their alternatives.
 */
export class TermMatcher {
  readonly #index: InvertedIndex
  // Per document: how many groups it matched so far, and its score; reset after each query.
  #hits = new Uint16Array(0)
  #scores = new Float64Array(0)
  #candidates = new Int32Array(1024)
  #out: TermMatches = { docs: new Int32Array(0), scores: new Float64Array(0), length: 0 }
  // Query term → its groups, valid for a vocabulary of `#cachedTerms` terms (see `#cachedGroups`).
  readonly #expansions = new Map<string, Alternative[][]>()
  #cachedTerms = -1
  #remembered = 0

  constructor(index: InvertedIndex) {
    this.#index = index
  }

  /**
   * Eligible documents matching all `terms` among numbers below `docLimit`, in the order the
   * rarest group's postings list them (alternatives one after the other).
   */
  match(terms: readonly QueryTerm[], docLimit: number, liveDocs: number, eligible: Eligibility): TermMatches {
    const groups = terms.flatMap((term) => this.#cachedGroups(term))
    if (groups.length === 0 || groups.length >= 0xffff) return this.#result(0)
    const sized = groups.map((group) => ({ group, size: group.reduce((n, alt) => n + this.#index.postings(alt.id).length, 0) }))
    if (sized.some((g) => g.size === 0)) return this.#result(0)
    sized.sort((a, b) => a.size - b.size)
    const first = sized[0]?.group ?? []
    const only = first[0]
    // One group of one term (a word with no prefix or typo alternatives, one CJK bigram): its
    // postings are the answer; no per-document bookkeeping (the score is the same one-addend sum).
    if (sized.length === 1 && first.length === 1 && only !== undefined) return this.#single(only, liveDocs, eligible)
    this.#ensure(docLimit)
    const hits = this.#hits
    const scores = this.#scores
    const { visibleFrom, now, categoryOf, allowed } = eligible
    let count = 0
    let candidates = this.#candidates
    for (let g = 0; g < sized.length; g++) {
      for (const alt of sized[g]?.group ?? []) {
        const { list, length } = this.#index.postings(alt.id)
        const idf = Math.log(1 + (liveDocs - length + 0.5) / (length + 0.5))
        const factor = alt.factor * Math.max(idf, 0)
        if (g === 0) {
          // The first group: a document seen for the first time (0) becomes a candidate if eligible.
          for (let i = 0; i < length; i++) {
            const posting = list[i] ?? 0
            const doc = posting >>> 8
            if (hits[doc] === 0) {
              // NaN (never visible, dead) fails the comparison too.
              if (!((visibleFrom[doc] ?? Number.NaN) <= now) || allowed[categoryOf[doc] ?? 0] !== 1) continue
              if (count === candidates.length) candidates = this.#growCandidates()
              candidates[count++] = doc
              hits[doc] = 1
            }
            scores[doc] = (scores[doc] ?? 0) + (WEIGHTS[posting & 255] ?? 0) * factor
          }
          continue
        }
        for (let i = 0; i < length; i++) {
          const posting = list[i] ?? 0
          const doc = posting >>> 8
          const seen = hits[doc] ?? 0
          if (seen === g) hits[doc] = g + 1
          else if (seen !== g + 1) continue
          scores[doc] = (scores[doc] ?? 0) + (WEIGHTS[posting & 255] ?? 0) * factor
        }
      }
    }
    const out = this.#result(count)
    const { docs, scores: outScores } = out
    let length = 0
    const all = sized.length
    for (let i = 0; i < count; i++) {
      const doc = candidates[i] ?? 0
      if (hits[doc] === all) {
        docs[length] = doc
        outScores[length++] = scores[doc] ?? 0
      }
      hits[doc] = 0
      scores[doc] = 0
    }
    out.length = length
    return out
  }

  /** The eligible documents of one term's postings, scored. */
  #single(alt: Alternative, liveDocs: number, eligible: Eligibility): TermMatches {
    const { list, length } = this.#index.postings(alt.id)
    const idf = Math.log(1 + (liveDocs - length + 0.5) / (length + 0.5))
    const factor = alt.factor * Math.max(idf, 0)
    const out = this.#result(length)
    const { docs, scores } = out
    const { visibleFrom, now, categoryOf, allowed } = eligible
    let count = 0
    for (let i = 0; i < length; i++) {
      const posting = list[i] ?? 0
      const doc = posting >>> 8
      if (!((visibleFrom[doc] ?? Number.NaN) <= now) || allowed[categoryOf[doc] ?? 0] !== 1) continue
      docs[count] = doc
      scores[count++] = (WEIGHTS[posting & 255] ?? 0) * factor
    }
    out.length = count
    return out
  }

  /** The scratch result, with room for `capacity` documents. */
  #result(capacity: number): TermMatches {
    if (this.#out.docs.length < capacity) {
      const size = Math.max(1024, capacity + (capacity >> 2))
      this.#out = { docs: new Int32Array(size), scores: new Float64Array(size), length: 0 }
    }
    this.#out.length = 0
    return this.#out
  }

  /**
   * `#groups(term)`, remembered while the vocabulary keeps its size: a word's prefix and typo
   * expansions walk the radix tree (~3 % of a search mix), and the same words come back. Terms
   * are only ever added to the vocabulary, never removed, so an unchanged count means an
   * unchanged vocabulary; a term whose postings all died keeps its id (the caller sizes
   * groups by their postings anyway).
   */
  #cachedGroups(term: QueryTerm): Alternative[][] {
    if (this.#index.termCount !== this.#cachedTerms) {
      this.#expansions.clear()
      this.#remembered = 0
      this.#cachedTerms = this.#index.termCount
    }
    const key = term.kind === 'word' ? `w${term.fuzzy}${term.term}` : `c${term.prefix ? 1 : 0}${term.grams.join('\u0000')}`
    let groups = this.#expansions.get(key)
    if (groups === undefined) {
      groups = this.#groups(term)
      const alternatives = groups.reduce((n, group) => n + group.length, 0)
      if (this.#expansions.size >= MAX_EXPANSIONS || this.#remembered + alternatives > MAX_REMEMBERED_ALTERNATIVES) {
        this.#expansions.clear()
        this.#remembered = 0
      }
      this.#expansions.set(key, groups)
      this.#remembered += alternatives
    }
    return groups
  }

  /** The required groups of a query term. */
  #groups(term: QueryTerm): Alternative[][] {
    if (term.kind === 'word') {
      const group = new Map<number, number>()
      for (const [key, id] of this.#index.withPrefix(term.term, false)) {
        const distance = key.length - term.term.length
        group.set(id, distance === 0 ? 1 : (PREFIX_WEIGHT * key.length) / (key.length + 0.3 * distance))
      }
      if (term.fuzzy > 0) {
        for (const [key, id, distance] of this.#index.withinEdits(term.term, term.fuzzy)) {
          if (!group.has(id)) group.set(id, distance === 0 ? 1 : (FUZZY_WEIGHT * key.length) / (key.length + distance))
        }
      }
      return [[...group].map(([id, factor]) => ({ id, factor }))]
    }
    return [...new Set(term.grams)].map((gram) => {
      if (term.prefix) {
        return this.#index.withPrefix(gram, true).map(([key, id]) => {
          const distance = key.length - gram.length
          return { id, factor: distance === 0 ? 1 : (PREFIX_WEIGHT * key.length) / (key.length + 0.3 * distance) }
        })
      }
      const id = this.#index.termId(gram)
      return id === undefined ? [] : [{ id, factor: 1 }]
    })
  }

  #ensure(docLimit: number): void {
    if (this.#hits.length >= docLimit) return
    const size = Math.max(1024, docLimit + (docLimit >> 2))
    this.#hits = new Uint16Array(size)
    this.#scores = new Float64Array(size)
  }

  #growCandidates(): Int32Array<ArrayBuffer> {
    const grown = new Int32Array(this.#candidates.length * 2)
    grown.set(this.#candidates)
    this.#candidates = grown
    return grown
  }
}
