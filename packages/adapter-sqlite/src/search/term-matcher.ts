import type { QueryTerm } from '@frontdesk/core'
import type { InvertedIndex } from './inverted-index.ts'
import { WEIGHTS } from './inverted-index.ts'

// MiniSearch's weights of prefix and fuzzy matches (searchOptions.weights), so scores keep their shape.
const PREFIX_WEIGHT = 0.375
const FUZZY_WEIGHT = 0.45

/** One index term a query term matches, with the weight of that kind of match. */
interface Alternative {
  id: number
  factor: number
}

/** The documents matching every query term, and their scores (parallel arrays). */
export interface TermMatches {
  docs: Int32Array
  scores: Float64Array
  length: number
}

/**
 * Finds the documents matching every term of a query (CONTRACT §5) in an `InvertedIndex`,
 * with their scores. Each query term becomes one or more required groups of alternatives:
 * a word is one group (the term itself, the terms it is a prefix of, and with `fuzzy` the
 * terms one edit away); a CJK run is one group per bigram, matched exactly (a one-character
 * run: that character as a prefix). Groups are evaluated rarest first: the first one decides
 * the candidates, every later one only marks those it also holds, so the work is the sum of
 * the groups' posting lengths and never grows with the number of results. Scores add up, as
 * in MiniSearch: per alternative, IDF × the posting's weight × the match kind's weight.
 */
export class TermMatcher {
  readonly #index: InvertedIndex
  // Per document: how many groups it matched so far, and its score; reset after each query.
  #hits = new Uint16Array(0)
  #scores = new Float64Array(0)
  #candidates = new Int32Array(1024)

  constructor(index: InvertedIndex) {
    this.#index = index
  }

  /** Documents matching all `terms` among numbers below `docLimit` (dead ones included: the caller skips them). */
  match(terms: readonly QueryTerm[], docLimit: number, liveDocs: number): TermMatches {
    const groups = terms.flatMap((term) => this.#groups(term))
    const empty: TermMatches = { docs: new Int32Array(0), scores: new Float64Array(0), length: 0 }
    if (groups.length === 0 || groups.length >= 0xffff) return empty
    const sized = groups.map((group) => ({ group, size: group.reduce((n, alt) => n + this.#index.postings(alt.id).length, 0) }))
    if (sized.some((g) => g.size === 0)) return empty
    sized.sort((a, b) => a.size - b.size)
    this.#ensure(docLimit)
    const hits = this.#hits
    const scores = this.#scores
    let count = 0
    for (let g = 0; g < sized.length; g++) {
      for (const alt of sized[g]?.group ?? []) {
        const { list, length } = this.#index.postings(alt.id)
        const idf = Math.log(1 + (liveDocs - length + 0.5) / (length + 0.5))
        const factor = alt.factor * Math.max(idf, 0)
        for (let i = 0; i < length; i++) {
          const posting = list[i] ?? 0
          const doc = posting >>> 8
          const seen = hits[doc] ?? 0
          if (seen === g) {
            hits[doc] = g + 1
            if (g === 0) {
              if (count === this.#candidates.length) this.#growCandidates()
              this.#candidates[count++] = doc
            }
          } else if (seen !== g + 1) continue
          scores[doc] = (scores[doc] ?? 0) + (WEIGHTS[posting & 255] ?? 0) * factor
        }
      }
    }
    const docs = new Int32Array(count)
    const out = new Float64Array(count)
    let length = 0
    const all = sized.length
    for (let i = 0; i < count; i++) {
      const doc = this.#candidates[i] ?? 0
      if (hits[doc] === all) {
        docs[length] = doc
        out[length++] = scores[doc] ?? 0
      }
      hits[doc] = 0
      scores[doc] = 0
    }
    return { docs, scores: out, length }
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

  #growCandidates(): void {
    const grown = new Int32Array(this.#candidates.length * 2)
    grown.set(this.#candidates)
    this.#candidates = grown
  }
}
