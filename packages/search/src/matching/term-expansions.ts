import type { QueryTerm } from '@frontdesk/core'
import { MATCH_KIND, MATCH_KINDS, MATCH_WEIGHTS, prefixWeight, shortPrefixWords, stemOf, stemRoot } from '@frontdesk/core'
import type { InvertedIndex } from './inverted-index.ts'

/** At most this many words' stems are remembered (then all are dropped): the words under a short root recur across searches. */
const MAX_STEMS = 50_000

/** At most this many query terms' expansions are remembered (then all are dropped: a simple bound). */
const MAX_EXPANSIONS = 2000
/** …holding at most this many alternatives in all (~40 bytes each): a one-letter prefix alone may expand to thousands. */
const MAX_REMEMBERED_ALTERNATIVES = 200_000

/** How many items hold an index term (its postings less those of dead documents). */
export type HeldBy = (id: number) => number

/** One index term a query term matches, with its kind of match (core's `MATCH_KIND` code) and that kind's weight in its relevance. */
export interface Alternative {
  id: number
  factor: number
  kind: number
}

/**
 * What a query term matches in the vocabulary (README "Search"): required groups of alternatives,
 * each group matched when any of its alternatives is. A word is one group (core's
 * `wordMatches`): the term itself, the terms it or its compound's joined form is a prefix of,
 * the words of its stem (found among those beginning with the stem's root), and with `fuzzy`
 * the words one typo away (the index's `withinOneEdit`, core's rule), each weighted by its
 * best kind of match (`wordMatchKind`, weighted by `wordMatchWeight`); a CJK run is one group per
 * distinct bigram, matched exactly (a one-character run: that character as a prefix), of the
 * kind `exact`. The order of groups is deterministic for a vocabulary (the matcher sums scores
 * in it), and a group's alternatives come best kind first (the matcher takes a document's kind
 * from the first alternative it is found in).
 *
 * A term with `prefixWords` (one character typed outside quotes) matches as a prefix only
 * that many of the words beginning with it, those the most items hold (core's
 * `shortPrefixWords`, counted by `heldBy`), so that its postings cost what a common word's do.
 *
 * Remembered while the vocabulary keeps its size (with `memo`): a word's prefix and typo
 * expansions walk the radix tree, and the same words come back. Terms are only ever added to
 * the vocabulary, never removed, so an unchanged count means an unchanged vocabulary; a term
 * whose postings all died keeps its id (the matcher sizes groups by their postings anyway).
 * A short prefix's words, chosen by how many items hold them, are remembered for one version
 * of the index (`validate`).
 */
export class TermExpansions {
  readonly #index: InvertedIndex
  readonly #memo: boolean
  readonly #expansions = new Map<string, Alternative[][]>()
  readonly #stems = new Map<string, string | null>()
  readonly #heldBy: HeldBy
  /** The groups of terms with `prefixWords`, for index version `#version`. */
  readonly #short = new Map<string, Alternative[][]>()
  #version = -1
  #vocabularySize = -1
  #remembered = 0

  /** Expansions in `index`, whose terms `heldBy` items hold (default: as many as its postings, for an index without dead documents). */
  constructor(index: InvertedIndex, memo: boolean, heldBy: HeldBy = (id) => index.postings(id).length) {
    this.#index = index
    this.#memo = memo
    this.#heldBy = heldBy
  }

  /** Forgets what depends on how many items hold each term when the index changed since (`version`, as the matcher's). */
  validate(version: number): void {
    if (version === this.#version) return
    this.#short.clear()
    this.#version = version
  }

  /** The required groups of `term` (an empty group: the term matches nothing). */
  groupsOf(term: QueryTerm): Alternative[][] {
    if (!this.#memo) return this.#groups(term)
    if (term.prefixWords !== undefined) {
      const key = termKey(term)
      let groups = this.#short.get(key)
      if (groups === undefined) {
        if (this.#short.size >= MAX_EXPANSIONS) this.#short.clear()
        groups = this.#groups(term)
        this.#short.set(key, groups)
      }
      return groups
    }
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

  /** Core's `stemOf` of a vocabulary word (which begins with the stem's root: `stemMatches` holds when it gives the stem), remembered with `memo`. */
  #stemOf(word: string): string | null {
    if (!this.#memo) return stemOf(word)
    let stem = this.#stems.get(word)
    if (stem === undefined) {
      if (this.#stems.size >= MAX_STEMS) this.#stems.clear()
      stem = stemOf(word)
      this.#stems.set(word, stem)
    }
    return stem
  }

  #groups(term: QueryTerm): Alternative[][] {
    if (term.kind === 'word') {
      // Each alternative with its best kind of match (core's `wordMatchKind`) and that kind's weight (`wordMatchWeight`).
      const group = new Map<number, Alternative>()
      const offer = (id: number, kind: number, factor: number): void => {
        const known = group.get(id)
        if (known === undefined) group.set(id, { id, factor, kind })
        else if (kind < known.kind || (kind === known.kind && factor > known.factor)) {
          known.kind = kind
          known.factor = factor
        }
      }
      const stem = term.stem
      const root = stem === null ? null : stemRoot(stem)
      if (stem !== null && root !== null && term.term.startsWith(root)) {
        // Hint: the words beginning with the stem's root hold those beginning with the word (it begins with its root, as most do): one walk finds both.
        for (const [key, id] of this.#index.withPrefix(root, false)) {
          if (key.startsWith(term.term)) offerPrefix(offer, id, key, term.term)
          if (key !== term.term && this.#stemOf(key) === stem) offer(id, MATCH_KIND.stem, MATCH_WEIGHTS.stem)
        }
      } else {
        for (const [key, id] of this.#prefixed(term.term, false, term.prefixWords)) offerPrefix(offer, id, key, term.term)
        if (stem !== null && root !== null) for (const [key, id] of this.#index.withPrefix(root, false)) if (key !== term.term && this.#stemOf(key) === stem) offer(id, MATCH_KIND.stem, MATCH_WEIGHTS.stem)
      }
      if (term.joined !== null) for (const [key, id] of this.#index.withPrefix(term.joined, false)) offerPrefix(offer, id, key, term.joined)
      if (term.fuzzy > 0) for (const [, id, distance] of this.#index.withinOneEdit(term.term)) offer(id, distance === 0 ? MATCH_KIND.exact : MATCH_KIND.typo, distance === 0 ? MATCH_WEIGHTS.exact : MATCH_WEIGHTS.typo)
      // Best kind first, in one pass (a short prefix expands to thousands).
      const byKind: Alternative[][] = MATCH_KINDS.map(() => [])
      for (const alt of group.values()) byKind[alt.kind]?.push(alt)
      return [byKind.flat()]
    }
    return [...new Set(term.grams)].map((gram) => {
      if (term.prefix) {
        return this.#prefixed(gram, true, term.prefixWords).map(([key, id]) => ({ id, factor: prefixWeight(key.length, key.length - gram.length), kind: MATCH_KIND.exact }))
      }
      const id = this.#index.termId(gram)
      return id === undefined ? [] : [{ id, factor: 1, kind: MATCH_KIND.exact }]
    })
  }

  /** The terms `prefix` begins (itself included): all of them, or with `limit` (`QueryTerm.prefixWords`) itself and the words core's `shortPrefixWords` keeps. */
  #prefixed(prefix: string, cjk: boolean, limit: number | undefined): [term: string, id: number][] {
    if (limit === undefined) return this.#index.withPrefix(prefix, cjk)
    const own = this.#index.vocabularyId(prefix, cjk)
    const terms: [string, number][] = own === undefined ? [] : [[prefix, own]]
    // Hint: no walk for a limit of 0 (a query's third one-letter word and on), and none gathered for the others: under one letter are a vocabulary's tens of thousands of words.
    if (limit === 0) return terms
    for (const key of shortPrefixWords(this.#longerHeld(prefix, cjk), limit)) terms.push([key, this.#index.vocabularyId(key, cjk) ?? 0])
    return terms
  }

  /** The words (CJK terms) longer than `prefix` that begin with it, each with how many live items hold it. */
  *#longerHeld(prefix: string, cjk: boolean): Generator<readonly [string, number]> {
    for (const [key, id] of this.#index.prefixEntries(prefix, cjk)) if (key !== prefix) yield [key, this.#heldBy(id)]
  }
}

/** Offers index term `id` (`key`), which begins with `start`: as typed when it is `start`, else as a prefix. */
function offerPrefix(offer: (id: number, kind: number, factor: number) => void, id: number, key: string, start: string): void {
  offer(id, key.length === start.length ? MATCH_KIND.exact : MATCH_KIND.prefix, prefixWeight(key.length, key.length - start.length))
}

/** A query term's key: equal keys, equal groups. */
export function termKey(term: QueryTerm): string {
  const limit = `${term.prefixWords ?? ''}\u0001`
  return term.kind === 'word' ? `w${term.fuzzy}${limit}${term.term}\u0000${term.stem ?? ''}\u0000${term.joined ?? ''}` : `c${term.prefix ? 1 : 0}${limit}${term.grams.join('\u0000')}`
}
