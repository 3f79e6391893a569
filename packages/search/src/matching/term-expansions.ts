import type { QueryTerm } from '@frontdesk/core'
import { MATCH_KIND, MATCH_KINDS, MATCH_WEIGHTS, prefixWeight, shortPrefixWords, stemOf, stemRoot } from '@frontdesk/core'
import type { InvertedIndex } from './inverted-index.ts'

/** `TermExpansions`' stem number of a word not stemmed yet, and of a word without a stem. */
const UNSTEMMED = -1
const NO_STEM = -2

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
  /**
   * Per vocabulary word, by term id (ids are never reused, terms only added): its stem's number
   * in `#stemNumbers`, `UNSTEMMED` until first needed, `NO_STEM` for a word without one.
   * Words under a short root recur across searches: each is stemmed once, and compared by number.
   */
  #stemOfTerm = new Int32Array(0)
  readonly #stemNumbers = new Map<string, number>()
  /** A word's group while it is gathered, by term id: its best kind of match plus 1 (0: not offered), that kind's weight, and the ids in the order first offered. */
  #offeredKind = new Uint8Array(0)
  #offeredFactor = new Float64Array(0)
  readonly #offered: number[] = []
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
      // Hint: a word without typos nor stem matching nothing was one failed walk down the tree, cheaper than the entry it would take (most forms core gives a query's words, `iphone 15` as `iphone15`, are such).
      if (term.kind === 'word' && term.fuzzy === 0 && term.stem === null && groups.every((group) => group.length === 0)) return groups
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

  /**
   * Offers the vocabulary words beginning with `root` (word `key`, term `id`) whose stem is
   * `stem` (core's `stemMatches`: the word's `stemOf` gives it), `term` itself left out, as
   * stem matches; and with `prefixOf`, those beginning with it as its prefix matches (one walk:
   * see `#groups`). With `memo` each word's stem is computed once (`#stemOfTerm`).
   */
  #offerStems(root: string, stem: string, term: string, prefixOf: string | null): void {
    if (!this.#memo) {
      for (const [key, id] of this.#index.withPrefix(root, false)) {
        if (prefixOf !== null && key.startsWith(prefixOf)) this.#offerPrefix(id, key, prefixOf)
        if (key !== term && stemOf(key) === stem) this.#offer(id, MATCH_KIND.stem, MATCH_WEIGHTS.stem)
      }
      return
    }
    if (this.#stemOfTerm.length < this.#index.termCount) {
      const grown = new Int32Array(Math.max(1024, this.#index.termCount + (this.#index.termCount >> 2))).fill(UNSTEMMED)
      grown.set(this.#stemOfTerm)
      this.#stemOfTerm = grown
    }
    const numbers = this.#stemNumbers
    const stemOfTerm = this.#stemOfTerm
    // Hint: a stem no word has is numbered only for this walk, so that visitors' made-up words do not grow the numbers.
    let wanted = numbers.get(stem)
    const numbered = wanted === undefined
    if (wanted === undefined) {
      wanted = numbers.size
      numbers.set(stem, wanted)
    }
    let found = false
    for (const [key, id] of this.#index.prefixEntries(root, false)) {
      if (prefixOf !== null && key.startsWith(prefixOf)) this.#offerPrefix(id, key, prefixOf)
      if (key === term) continue
      let number = stemOfTerm[id] ?? NO_STEM
      if (number === UNSTEMMED) {
        const its = stemOf(key)
        if (its === null) number = NO_STEM
        else {
          number = numbers.get(its) ?? numbers.size
          if (number === numbers.size) numbers.set(its, number)
        }
        stemOfTerm[id] = number
      }
      if (number === wanted) {
        found = true
        this.#offer(id, MATCH_KIND.stem, MATCH_WEIGHTS.stem)
      }
    }
    if (numbered && !found && numbers.size === wanted + 1) numbers.delete(stem)
  }

  /** Offers term `id` of the word's group with a kind of match and its weight: a term offered again keeps its best kind (and that kind's best weight). */
  #offer(id: number, kind: number, factor: number): void {
    const known = this.#offeredKind[id] ?? 0
    if (known === 0) {
      this.#offeredKind[id] = kind + 1
      this.#offeredFactor[id] = factor
      this.#offered.push(id)
    } else if (kind + 1 < known || (kind + 1 === known && factor > (this.#offeredFactor[id] ?? 0))) {
      this.#offeredKind[id] = kind + 1
      this.#offeredFactor[id] = factor
    }
  }

  /** Offers index term `id` (`key`), which begins with `start`: as typed when it is `start`, else as a prefix. */
  #offerPrefix(id: number, key: string, start: string): void {
    this.#offer(id, key.length === start.length ? MATCH_KIND.exact : MATCH_KIND.prefix, prefixWeight(key.length, key.length - start.length))
  }

  #groups(term: QueryTerm): Alternative[][] {
    if (term.kind === 'word') {
      // Each alternative with its best kind of match (core's `wordMatchKind`) and that kind's weight (`wordMatchWeight`), gathered by term id (`#offer`).
      if (this.#offeredKind.length < this.#index.termCount) {
        const size = Math.max(1024, this.#index.termCount + (this.#index.termCount >> 2))
        this.#offeredKind = new Uint8Array(size)
        this.#offeredFactor = new Float64Array(size)
      }
      const stem = term.stem
      const root = stem === null ? null : stemRoot(stem)
      if (stem !== null && root !== null && term.term.startsWith(root)) {
        // Hint: the words beginning with the stem's root hold those beginning with the word (it begins with its root, as most do): one walk finds both.
        this.#offerStems(root, stem, term.term, term.term)
      } else {
        for (const [key, id] of this.#prefixed(term.term, false, term.prefixWords)) this.#offerPrefix(id, key, term.term)
        if (stem !== null && root !== null) this.#offerStems(root, stem, term.term, null)
      }
      if (term.joined !== null) for (const [key, id] of this.#index.prefixEntries(term.joined, false)) this.#offerPrefix(id, key, term.joined)
      if (term.fuzzy > 0) for (const [, id, distance] of this.#index.withinOneEdit(term.term)) this.#offer(id, distance === 0 ? MATCH_KIND.exact : MATCH_KIND.typo, distance === 0 ? MATCH_WEIGHTS.exact : MATCH_WEIGHTS.typo)
      // Best kind first, in the order first offered (a short prefix expands to thousands), the scratch cleared.
      const byKind: Alternative[][] = MATCH_KINDS.map(() => [])
      const offered = this.#offered
      for (let i = 0; i < offered.length; i++) {
        const id = offered[i] ?? 0
        const kind = (this.#offeredKind[id] ?? 1) - 1
        byKind[kind]?.push({ id, factor: this.#offeredFactor[id] ?? 0, kind })
        this.#offeredKind[id] = 0
      }
      offered.length = 0
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

/** A query term's key: equal keys, equal groups. */
export function termKey(term: QueryTerm): string {
  const limit = `${term.prefixWords ?? ''}\u0001`
  return term.kind === 'word' ? `w${term.fuzzy}${limit}${term.term}\u0000${term.stem ?? ''}\u0000${term.joined ?? ''}` : `c${term.prefix ? 1 : 0}${limit}${term.grams.join('\u0000')}`
}
