import type { QueryTerm } from '@frontdesk/core'
import type { InvertedIndex } from './inverted-index.ts'

// MiniSearch's weights of prefix and fuzzy matches (searchOptions.weights), so scores keep their shape.
const PREFIX_WEIGHT = 0.375
const FUZZY_WEIGHT = 0.45

/** At most this many query terms' expansions are remembered (then all are dropped: a simple bound). */
const MAX_EXPANSIONS = 2000
/** …holding at most this many alternatives in all (~40 bytes each): a one-letter prefix alone may expand to thousands. */
const MAX_REMEMBERED_ALTERNATIVES = 200_000

/** One index term a query term matches, with the weight of that kind of match. */
export interface Alternative {
  id: number
  factor: number
}

/**
 * What a query term matches in the vocabulary (CONTRACT §5): required groups of alternatives,
 * each group matched when any of its alternatives is. A word is one group: the term itself,
 * the terms it is a prefix of, and with `fuzzy` the words one typo away (the index's
 * `withinOneEdit`, core's rule); a CJK run is one group per distinct bigram, matched exactly
 * (a one-character run: that character as a prefix). The order of groups and alternatives
 * is deterministic for a vocabulary: the matcher sums scores in it.
 *
 * Remembered while the vocabulary keeps its size (with `memo`): a word's prefix and typo
 * expansions walk the radix tree, and the same words come back. Terms are only ever added to
 * the vocabulary, never removed, so an unchanged count means an unchanged vocabulary; a term
 * whose postings all died keeps its id (the matcher sizes groups by their postings anyway).
 */
export class TermExpansions {
  readonly #index: InvertedIndex
  readonly #memo: boolean
  readonly #expansions = new Map<string, Alternative[][]>()
  #vocabularySize = -1
  #remembered = 0

  constructor(index: InvertedIndex, memo: boolean) {
    this.#index = index
    this.#memo = memo
  }

  /** The required groups of `term` (an empty group: the term matches nothing). */
  groupsOf(term: QueryTerm): Alternative[][] {
    if (!this.#memo) return this.#groups(term)
    if (this.#index.termCount !== this.#vocabularySize) {
      this.#expansions.clear()
      this.#remembered = 0
      this.#vocabularySize = this.#index.termCount
    }
    const key = termKey(term)
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

  #groups(term: QueryTerm): Alternative[][] {
    if (term.kind === 'word') {
      const group = new Map<number, number>()
      for (const [key, id] of this.#index.withPrefix(term.term, false)) {
        const distance = key.length - term.term.length
        group.set(id, distance === 0 ? 1 : (PREFIX_WEIGHT * key.length) / (key.length + 0.3 * distance))
      }
      if (term.fuzzy > 0) {
        for (const [key, id, distance] of this.#index.withinOneEdit(term.term)) {
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
}

/** A query term's key: equal keys, equal groups. */
export function termKey(term: QueryTerm): string {
  return term.kind === 'word' ? `w${term.fuzzy}${term.term}` : `c${term.prefix ? 1 : 0}${term.grams.join('\u0000')}`
}
