import type { QueryTerm } from '@frontdesk/core'
import type { InvertedIndex } from './inverted-index.ts'
import { WEIGHTS } from './inverted-index.ts'
import { ScoreFloor } from './score-floor.ts'

// MiniSearch's weights of prefix and fuzzy matches (searchOptions.weights), so scores keep their shape.
const PREFIX_WEIGHT = 0.375
const FUZZY_WEIGHT = 0.45

/** At most this many query terms' expansions are remembered (then all are dropped: a simple bound). */
const MAX_EXPANSIONS = 2000
/** …holding at most this many alternatives in all (~40 bytes each): a one-letter prefix alone may expand to thousands. */
const MAX_REMEMBERED_ALTERNATIVES = 200_000
/**
 * A query term whose groups hold at least this many postings in all, and more than one
 * alternative, has its matches remembered (see `#part`): below it, merging them again is as
 * cheap as reading a remembered list. (4,096 remembered common words only; 256 also rare
 * words with prefixes and CJK words of two bigrams or more: the benchmark's rare-word classes
 * went from 0.026–0.061 to 0.012–0.036 ms in the engine at 20,000 items.)
 */
export const REMEMBER_TERM_FROM = 256
/** At most this many remembered term matches in all (12 bytes each: ~24 MB), then all are dropped. */
const MAX_REMEMBERED_MATCHES = 2_000_000

/** One index term a query term matches, with the weight of that kind of match. */
interface Alternative {
  id: number
  factor: number
}

/**
 * The documents matching every query term, and their scores (parallel arrays, `[0, length)`).
 * The arrays are the matcher's scratch space: valid until its next `match` (the caller may
 * shorten `length` after filtering them in place). Asked for the `top` best only, they hold
 * just the matches that may be among them by score (ties included), and `total` counts all.
 */
export interface TermMatches {
  docs: Int32Array
  scores: Float64Array
  length: number
  /** How many documents matched (`length` unless the matches were limited to the `top`). */
  total: number
  /** Limited to the `top`: the top-th best score, which every one of them reaches (else −∞). */
  floor: number
}

/** A query term's matches in the index as a whole (visible or not): documents and the term's scores, `[0, length)`. */
interface TermList {
  docs: Int32Array
  scores: Float64Array
  length: number
}

/**
 * What one query term contributes: one alternative's postings as they are (`alt`), or its
 * matches merged from several (`list`).
 */
type TermPart = { alt: Alternative; list: null; size: number } | { alt: null; list: TermList; size: number }

/**
 * Which documents a query may return (visible at its time, in a category it may search): bit
 * `doc & 31` of `bits[doc >>> 5]`. One bit a document keeps the set small enough to stay in
 * the CPU's caches while postings are read in document order (a typed array of dates and one
 * of categories, tested per posting, were a cache miss each at 100,000 items). The matcher
 * drops the others while it reads the rarest part's postings, so they cost nothing later.
 */
export interface Eligibility {
  bits: Uint32Array
  /** What else a document must pass (a query's custom-field filters), asked only of eligible documents; `null`: nothing. */
  filter: DocFilter | null
}

/** A per-document test beside the eligibility bits (see `Eligibility`). */
export interface DocFilter {
  passes(doc: number): boolean
}

/**
 * Finds the documents matching every query term (CONTRACT §5) in an `InvertedIndex`,
 * with their scores. Each query term becomes one or more required groups of alternatives:
 * a word is one group (the term itself, the terms it is a prefix of, and with `fuzzy` the
 * terms one edit away); a CJK run is one group per bigram, matched exactly (a one-character
 * run: that character as a prefix). A term's groups are evaluated rarest first: the first one
 * decides the candidates, every later one only marks those it also holds, so the work is the
 * sum of the groups' posting lengths and never grows with the number of results. Scores add
 * up, as in MiniSearch: per alternative, IDF × the posting's weight × the match kind's weight,
 * in the order of the groups and their alternatives; a query's score is the sum of its terms'.
 *
 * A term of one alternative is read straight from its postings. A term of several is merged
 * into one list of its matches first and, when that was much work (a common word expands to
 * hundreds of prefixes, a CJK word to several bigrams of thousands of postings each), the list
 * is remembered until the index changes (`version`): the word searched again costs one pass
 * over its matches instead of one per alternative. Then the terms are intersected, rarest
 * first, keeping only the eligible documents (see `Eligibility`).
 */
export class TermMatcher {
  readonly #index: InvertedIndex
  readonly #memo: boolean
  // Per document: how many groups it matched so far, and its score; reset after each query.
  #hits = new Uint16Array(0)
  #scores = new Float64Array(0)
  #candidates = new Int32Array(1024)
  #out: TermMatches = { docs: new Int32Array(0), scores: new Float64Array(0), length: 0, total: 0, floor: Number.NEGATIVE_INFINITY }
  // Query term → its groups, valid for a vocabulary of `#cachedTerms` terms (see `#cachedGroups`).
  readonly #expansions = new Map<string, Alternative[][]>()
  #cachedTerms = -1
  #remembered = 0
  // Query term → its merged matches, valid for index version `#listsVersion` (see `#part`).
  readonly #lists = new Map<string, TermList>()
  #listsVersion = -1
  #rememberedMatches = 0

  /** A matcher over `index`; `memo: false` remembers neither expansions nor merged matches (see `TenantIndexOptions.memo`). */
  constructor(index: InvertedIndex, memo = true) {
    this.#index = index
    this.#memo = memo
  }

  /**
   * Eligible documents matching all `terms` among numbers below `docLimit`, in the order the
   * rarest term's postings list them (alternatives one after the other). `version` names the
   * index's state: its owner changes it whenever a document is added, removed or renumbered.
   * With `top` > 0 only the matches that may be among the `top` best by score are returned
   * (see `TermMatches`): a common word's thousands of matches are not all handed over.
   */
  match(terms: readonly QueryTerm[], docLimit: number, liveDocs: number, eligible: Eligibility, version = 0, top = 0): TermMatches {
    if (terms.length === 0 || terms.length >= 0xffff) return this.#result(0)
    if (version !== this.#listsVersion) {
      this.#lists.clear()
      this.#rememberedMatches = 0
      this.#listsVersion = version
    }
    this.#ensure(docLimit)
    const parts: TermPart[] = []
    for (const term of terms) {
      const part = this.#part(term, liveDocs, terms.length === 1 ? eligible : null)
      if (part === null || part.size === 0) return this.#result(0)
      parts.push(part)
    }
    parts.sort((a, b) => a.size - b.size)
    const [first] = parts
    if (first === undefined) return this.#result(0)
    if (parts.length === 1) return first.alt !== null ? this.#single(first.alt, liveDocs, eligible, top) : this.#eligibleOf(first.list, eligible, top)
    let count = 0
    for (let g = 0; g < parts.length; g++) {
      const part = parts[g]
      if (part === undefined) continue
      // Hint: one loop per kind of part, each over one kind of typed array, keeps V8's element access monomorphic.
      if (part.alt !== null) {
        const { list, length } = this.#index.postings(part.alt.id)
        count = this.#markPostings(g, list, length, part.alt.factor * idfOf(liveDocs, length), count, eligible)
      } else {
        count = this.#markList(g, part.list, count, eligible)
      }
    }
    return this.#gather(count, parts.length, top)
  }

  /**
   * Part `g` of a query, as postings: with `g` 0 its eligible documents become the candidates
   * (`count` so far; returns the new count), later parts mark the candidates they hold too.
   */
  #markPostings(g: number, list: Uint32Array, length: number, factor: number, count: number, eligible: Eligibility): number {
    const hits = this.#hits
    const scores = this.#scores
    if (g > 0) {
      for (let i = 0; i < length; i++) {
        const posting = list[i] ?? 0
        const doc = posting >>> 8
        if (hits[doc] !== g) continue
        hits[doc] = g + 1
        scores[doc] = (scores[doc] ?? 0) + (WEIGHTS[posting & 255] ?? 0) * factor
      }
      return count
    }
    const bits = eligible.bits
    const filter = eligible.filter
    let candidates = this.#candidates
    for (let i = 0; i < length; i++) {
      const posting = list[i] ?? 0
      const doc = posting >>> 8
      if ((((bits[doc >>> 5] ?? 0) >>> (doc & 31)) & 1) === 0) continue
      if (filter !== null && !filter.passes(doc)) continue
      if (count === candidates.length) candidates = this.#growCandidates()
      candidates[count++] = doc
      hits[doc] = 1
      scores[doc] = (WEIGHTS[posting & 255] ?? 0) * factor
    }
    return count
  }

  /** `#markPostings` for a term's merged matches. */
  #markList(g: number, list: TermList, count: number, eligible: Eligibility): number {
    const hits = this.#hits
    const scores = this.#scores
    const docs = list.docs
    const listScores = list.scores
    const length = list.length
    if (g > 0) {
      for (let i = 0; i < length; i++) {
        const doc = docs[i] ?? 0
        if (hits[doc] !== g) continue
        hits[doc] = g + 1
        scores[doc] = (scores[doc] ?? 0) + (listScores[i] ?? 0)
      }
      return count
    }
    const bits = eligible.bits
    const filter = eligible.filter
    let candidates = this.#candidates
    for (let i = 0; i < length; i++) {
      const doc = docs[i] ?? 0
      if ((((bits[doc >>> 5] ?? 0) >>> (doc & 31)) & 1) === 0) continue
      if (filter !== null && !filter.passes(doc)) continue
      if (count === candidates.length) candidates = this.#growCandidates()
      candidates[count++] = doc
      hits[doc] = 1
      scores[doc] = listScores[i] ?? 0
    }
    return count
  }

  /**
   * What a query term contributes (`null`: it matches nothing): its one alternative, or its
   * merged matches, remembered when merging them was much work. With `eligible` (the query's
   * only term, a list not worth remembering) the list holds only eligible documents.
   */
  #part(term: QueryTerm, liveDocs: number, eligible: Eligibility | null): TermPart | null {
    const groups = this.#cachedGroups(term)
    if (groups.length === 0) return null
    const only = groups[0]?.[0]
    if (groups.length === 1 && groups[0]?.length === 1 && only !== undefined) return { alt: only, list: null, size: this.#index.postings(only.id).length }
    const key = termKey(term)
    const remembered = this.#memo ? this.#lists.get(key) : undefined
    if (remembered !== undefined) return { alt: null, list: remembered, size: remembered.length }
    const sized = groups.map((group) => ({ group, size: group.reduce((n, alt) => n + this.#index.postings(alt.id).length, 0) }))
    if (sized.some((g) => g.size === 0)) return null
    sized.sort((a, b) => a.size - b.size)
    const remember = this.#memo && sized.reduce((n, g) => n + g.size, 0) >= REMEMBER_TERM_FROM
    const list = this.#termList(sized.map((g) => g.group), liveDocs, remember ? null : eligible)
    if (remember && list.length <= MAX_REMEMBERED_MATCHES) {
      if (this.#rememberedMatches + list.length > MAX_REMEMBERED_MATCHES) {
        this.#lists.clear()
        this.#rememberedMatches = 0
      }
      this.#lists.set(key, list)
      this.#rememberedMatches += list.length
    }
    return { alt: null, list, size: list.length }
  }

  /** The documents matching every group (rarest first), with their summed scores; only eligible ones with `eligible`. */
  #termList(groups: readonly Alternative[][], liveDocs: number, eligible: Eligibility | null): TermList {
    const hits = this.#hits
    const scores = this.#scores
    let count = 0
    let candidates = this.#candidates
    for (let g = 0; g < groups.length; g++) {
      for (const alt of groups[g] ?? []) {
        const { list, length } = this.#index.postings(alt.id)
        const factor = alt.factor * idfOf(liveDocs, length)
        if (g === 0) {
          // The first group: a document seen for the first time (0) becomes a candidate (if eligible).
          for (let i = 0; i < length; i++) {
            const posting = list[i] ?? 0
            const doc = posting >>> 8
            if (hits[doc] === 0) {
              if (eligible !== null && ((((eligible.bits[doc >>> 5] ?? 0) >>> (doc & 31)) & 1) === 0 || (eligible.filter !== null && !eligible.filter.passes(doc)))) continue
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
    const all = groups.length
    let length = 0
    for (let i = 0; i < count; i++) if (hits[candidates[i] ?? 0] === all) length++
    const out: TermList = { docs: new Int32Array(length), scores: new Float64Array(length), length }
    length = 0
    for (let i = 0; i < count; i++) {
      const doc = candidates[i] ?? 0
      if (hits[doc] === all) {
        out.docs[length] = doc
        out.scores[length++] = scores[doc] ?? 0
      }
      hits[doc] = 0
      scores[doc] = 0
    }
    return out
  }

  /** The first `count` candidates that all `parts` marked, with their scores, into the scratch result; clears the marks. */
  #gather(count: number, parts: number, top: number): TermMatches {
    const hits = this.#hits
    const scores = this.#scores
    const candidates = this.#candidates
    const out = this.#result(count)
    const { docs, scores: outScores } = out
    const floor = top > 0 ? new ScoreFloor(top) : null
    let bar = Number.NEGATIVE_INFINITY
    let total = 0
    let length = 0
    for (let i = 0; i < count; i++) {
      const doc = candidates[i] ?? 0
      if (hits[doc] === parts) {
        total++
        const score = scores[doc] ?? 0
        if (floor === null || score >= bar) {
          if (floor !== null) bar = floor.offer(score)
          docs[length] = doc
          outScores[length++] = score
        }
      }
      hits[doc] = 0
      scores[doc] = 0
    }
    out.length = length
    out.total = total
    out.floor = bar
    return out
  }

  /** The eligible documents of a term's merged matches, into the scratch result. */
  #eligibleOf(list: TermList, eligible: Eligibility, top: number): TermMatches {
    const out = this.#result(list.length)
    const { docs, scores } = out
    const bits = eligible.bits
    const filter = eligible.filter
    const from = list.docs
    const fromScores = list.scores
    const floor = top > 0 ? new ScoreFloor(top) : null
    let bar = Number.NEGATIVE_INFINITY
    let total = 0
    let count = 0
    for (let i = 0; i < list.length; i++) {
      const doc = from[i] ?? 0
      if ((((bits[doc >>> 5] ?? 0) >>> (doc & 31)) & 1) === 0) continue
      if (filter !== null && !filter.passes(doc)) continue
      total++
      const score = fromScores[i] ?? 0
      if (score < bar) continue
      if (floor !== null) bar = floor.offer(score)
      docs[count] = doc
      scores[count++] = score
    }
    out.length = count
    out.total = total
    out.floor = bar
    return out
  }

  /** The eligible documents of one term's postings, scored. */
  #single(alt: Alternative, liveDocs: number, eligible: Eligibility, top: number): TermMatches {
    const { list, length } = this.#index.postings(alt.id)
    const factor = alt.factor * idfOf(liveDocs, length)
    const out = this.#result(length)
    const { docs, scores } = out
    const bits = eligible.bits
    const filter = eligible.filter
    const floor = top > 0 ? new ScoreFloor(top) : null
    let bar = Number.NEGATIVE_INFINITY
    let total = 0
    let count = 0
    for (let i = 0; i < length; i++) {
      const posting = list[i] ?? 0
      const doc = posting >>> 8
      if ((((bits[doc >>> 5] ?? 0) >>> (doc & 31)) & 1) === 0) continue
      if (filter !== null && !filter.passes(doc)) continue
      total++
      const score = (WEIGHTS[posting & 255] ?? 0) * factor
      if (score < bar) continue
      if (floor !== null) bar = floor.offer(score)
      docs[count] = doc
      scores[count++] = score
    }
    out.length = count
    out.total = total
    out.floor = bar
    return out
  }

  /** The scratch result, with room for `capacity` documents. */
  #result(capacity: number): TermMatches {
    if (this.#out.docs.length < capacity) {
      const size = Math.max(1024, capacity + (capacity >> 2))
      this.#out = { docs: new Int32Array(size), scores: new Float64Array(size), length: 0, total: 0, floor: Number.NEGATIVE_INFINITY }
    }
    this.#out.length = 0
    this.#out.total = 0
    this.#out.floor = Number.NEGATIVE_INFINITY
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
    if (!this.#memo) return this.#groups(term)
    if (this.#index.termCount !== this.#cachedTerms) {
      this.#expansions.clear()
      this.#remembered = 0
      this.#cachedTerms = this.#index.termCount
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

  /** The required groups of a query term. */
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

/** A query term's key: equal keys, equal groups. */
function termKey(term: QueryTerm): string {
  return term.kind === 'word' ? `w${term.fuzzy}${term.term}` : `c${term.prefix ? 1 : 0}${term.grams.join('\u0000')}`
}

/** BM25's IDF of a term in `length` of `liveDocs` documents, as MiniSearch computes it (never negative). */
function idfOf(liveDocs: number, length: number): number {
  return Math.max(Math.log(1 + (liveDocs - length + 0.5) / (length + 0.5)), 0)
}
