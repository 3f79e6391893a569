import type { QueryTerm } from '@frontdesk/core'
import type { RankScale } from '@frontdesk/core'
import { cappedRelevance, MATCH_KIND, MATCH_WEIGHTS, rankScale, synonymsKey } from '@frontdesk/core'
import type { InvertedIndex } from './inverted-index.ts'
import { WEIGHTS } from './inverted-index.ts'
import type { TermList } from './merged-terms.ts'
import { DocScratch, idfOf, MergedTerms } from './merged-terms.ts'
import { ScoreFloor } from './score-floor.ts'
import type { Alternative, HeldBy } from './term-expansions.ts'
import { termKey, TermExpansions } from './term-expansions.ts'

export { REMEMBER_TERM_FROM } from './merged-terms.ts'

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
 * Finds the documents matching every query term (README "Search") in an `InvertedIndex`,
 * with their scores. Each query term becomes one or more required groups of alternatives:
 * a word is one group (the term itself, the terms it is a prefix of, and with `fuzzy` the
 * terms one edit away); a CJK run is one group per bigram, matched exactly (a one-character
 * run: that character as a prefix). A term's groups are evaluated rarest first: the first one
 * decides the candidates, every later one only marks those it also holds, so the work is the
 * sum of the groups' posting lengths and never grows with the number of results. A term's
 * relevance adds up, as in MiniSearch: per alternative, IDF × the posting's weight × the match
 * kind's weight, in the order of the groups and their alternatives; a query's score is core's
 * rank score (`rankScale`): per term, the base of its best kind of match plus its share of
 * that relevance (capped). For one alternative's postings that is a table by weight code
 * (`postingRanks`), which grows with the code as the weights do.
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
  readonly #expansions: TermExpansions
  readonly #merged: MergedTerms
  // Per document: how many groups it matched so far, and its score; reset after each query.
  readonly #scratch = new DocScratch()
  // What a posting of the part being read adds, by weight code (`postingRanks`).
  readonly #ranks = new Float64Array(256)
  #out: TermMatches = { docs: new Int32Array(0), scores: new Float64Array(0), length: 0, total: 0, floor: Number.NEGATIVE_INFINITY }

  /**
   * A matcher over `index`; `memo: false` remembers neither expansions nor merged matches (see
   * `TenantIndexOptions.memo`). `heldBy`: how many items hold a term, when some of the index's
   * documents are dead (see `TermExpansions`).
   */
  constructor(index: InvertedIndex, memo = true, heldBy?: HeldBy) {
    this.#index = index
    this.#expansions = new TermExpansions(index, memo, heldBy)
    this.#merged = new MergedTerms(index, memo)
  }

  /**
   * Eligible documents matching all `terms` among numbers below `docLimit`, in the order the
   * rarest term's postings list them (alternatives one after the other). `version` names the
   * index's state: its owner changes it whenever a document is added, removed or renumbered.
   * With `top` > 0 only the matches that may be among the `top` best by score are returned
   * (see `TermMatches`): a common word's thousands of matches are not all handed over.
   */
  match(terms: readonly QueryTerm[], docLimit: number, numberedDocs: number, eligible: Eligibility, version = 0, top = 0): TermMatches {
    if (terms.length === 0 || terms.length >= 0xffff) return this.#result(0)
    this.#merged.validate(version)
    this.#expansions.validate(version)
    this.#scratch.ensure(docLimit)
    const parts: TermPart[] = []
    for (const term of terms) {
      const part = this.#part(term, numberedDocs, terms.length === 1 ? eligible : null)
      if (part === null || part.size === 0) return this.#result(0)
      parts.push(part)
    }
    parts.sort((a, b) => a.size - b.size)
    const [first] = parts
    if (first === undefined) return this.#result(0)
    const scale = rankScale(terms.length)
    if (parts.length === 1) return first.alt !== null ? this.#single(first.alt, numberedDocs, eligible, top, scale) : this.#eligibleOf(first.list, eligible, top, scale)
    let count = 0
    for (let g = 0; g < parts.length; g++) {
      const part = parts[g]
      if (part === undefined) continue
      // Hint: one loop per kind of part, each over one kind of typed array, keeps V8's element access monomorphic.
      if (part.alt !== null) {
        const { list, length } = this.#index.postings(part.alt.id)
        count = this.#markPostings(g, list, length, postingRanks(scale, part.alt, idfOf(numberedDocs, length), this.#ranks), count, eligible)
      } else {
        count = this.#markList(g, part.list, scale, count, eligible)
      }
    }
    return this.#gather(count, parts.length, top)
  }

  /**
   * No dead ends (core's rule, see the scan search): when no eligible document matches every
   * term, the eligible documents matching the most of them (at least one), scored as `match`
   * scores them over the terms they matched — a rare word's IDF weighs most. Read only after
   * `match` found nothing: every term's postings once, whatever their sizes.
   */
  matchMost(terms: readonly QueryTerm[], docLimit: number, numberedDocs: number, eligible: Eligibility, version = 0, top = 0): TermMatches {
    if (terms.length === 0 || terms.length >= 0xffff) return this.#result(0)
    this.#merged.validate(version)
    this.#expansions.validate(version)
    this.#scratch.ensure(docLimit)
    // Hint: every part first: merging a term's alternatives uses the scratch space.
    const parts: TermPart[] = []
    for (const term of terms) {
      const part = this.#part(term, numberedDocs, null)
      if (part !== null) parts.push(part)
    }
    const hits = this.#scratch.hits
    const scores = this.#scratch.scores
    const bits = eligible.bits
    const filter = eligible.filter
    let candidates = this.#scratch.docs
    let count = 0
    let most = 0
    const scale = rankScale(terms.length)
    const { bases, share } = scale
    // Hint: no closure for a visit: the variables it would capture live in a context, read again on every posting. Each loop counts an eligible document's parts (the first one makes it a candidate) and adds up its score.
    for (const part of parts) {
      if (part.alt !== null) {
        const { list, length } = this.#index.postings(part.alt.id)
        const ranks = postingRanks(scale, part.alt, idfOf(numberedDocs, length), this.#ranks)
        for (let i = 0; i < length; i++) {
          const posting = list[i] ?? 0
          const doc = posting >>> 8
          if ((((bits[doc >>> 5] ?? 0) >>> (doc & 31)) & 1) === 0) continue
          const seen = hits[doc] ?? 0
          if (seen === 0) {
            if (filter !== null && !filter.passes(doc)) continue
            if (count === candidates.length) candidates = this.#scratch.growDocs()
            candidates[count++] = doc
          }
          hits[doc] = seen + 1
          if (seen + 1 > most) most = seen + 1
          scores[doc] = (scores[doc] ?? 0) + (ranks[posting & 255] ?? 0)
        }
      } else {
        const { docs, scores: listScores, runEnds } = part.list
        for (let kind = 0, i = 0; kind < runEnds.length; kind++) {
          const base = bases[kind] ?? 0
          for (const end = runEnds[kind] ?? 0; i < end; i++) {
            const doc = docs[i] ?? 0
            if ((((bits[doc >>> 5] ?? 0) >>> (doc & 31)) & 1) === 0) continue
            const seen = hits[doc] ?? 0
            if (seen === 0) {
              if (filter !== null && !filter.passes(doc)) continue
              if (count === candidates.length) candidates = this.#scratch.growDocs()
              candidates[count++] = doc
            }
            hits[doc] = seen + 1
            if (seen + 1 > most) most = seen + 1
            scores[doc] = (scores[doc] ?? 0) + (base + share * (listScores[i] ?? 0))
          }
        }
      }
    }
    return this.#gather(count, most, top)
  }

  /**
   * Part `g` of a query, as postings: with `g` 0 its eligible documents become the candidates
   * (`count` so far; returns the new count), later parts mark the candidates they hold too.
   * `ranks`: what a posting adds to the score, by weight code (`postingRanks`).
   */
  #markPostings(g: number, list: Uint32Array, length: number, ranks: Float64Array, count: number, eligible: Eligibility): number {
    const hits = this.#scratch.hits
    const scores = this.#scratch.scores
    if (g > 0) {
      for (let i = 0; i < length; i++) {
        const posting = list[i] ?? 0
        const doc = posting >>> 8
        if (hits[doc] !== g) continue
        hits[doc] = g + 1
        scores[doc] = (scores[doc] ?? 0) + (ranks[posting & 255] ?? 0)
      }
      return count
    }
    const bits = eligible.bits
    const filter = eligible.filter
    let candidates = this.#scratch.docs
    for (let i = 0; i < length; i++) {
      const posting = list[i] ?? 0
      const doc = posting >>> 8
      if ((((bits[doc >>> 5] ?? 0) >>> (doc & 31)) & 1) === 0) continue
      if (filter !== null && !filter.passes(doc)) continue
      if (count === candidates.length) candidates = this.#scratch.growDocs()
      candidates[count++] = doc
      hits[doc] = 1
      scores[doc] = ranks[posting & 255] ?? 0
    }
    return count
  }

  /** `#markPostings` for a term's merged matches, one run of a kind of match at a time (one base each). */
  #markList(g: number, list: TermList, scale: RankScale, count: number, eligible: Eligibility): number {
    const hits = this.#scratch.hits
    const scores = this.#scratch.scores
    const { bases, share } = scale
    const docs = list.docs
    const listScores = list.scores
    const runEnds = list.runEnds
    if (g > 0) {
      for (let kind = 0, i = 0; kind < runEnds.length; kind++) {
        const base = bases[kind] ?? 0
        for (const end = runEnds[kind] ?? 0; i < end; i++) {
          const doc = docs[i] ?? 0
          if (hits[doc] !== g) continue
          hits[doc] = g + 1
          scores[doc] = (scores[doc] ?? 0) + base + share * (listScores[i] ?? 0)
        }
      }
      return count
    }
    const bits = eligible.bits
    const filter = eligible.filter
    let candidates = this.#scratch.docs
    for (let kind = 0, i = 0; kind < runEnds.length; kind++) {
      const base = bases[kind] ?? 0
      for (const end = runEnds[kind] ?? 0; i < end; i++) {
        const doc = docs[i] ?? 0
        if ((((bits[doc >>> 5] ?? 0) >>> (doc & 31)) & 1) === 0) continue
        if (filter !== null && !filter.passes(doc)) continue
        if (count === candidates.length) candidates = this.#scratch.growDocs()
        candidates[count++] = doc
        hits[doc] = 1
        scores[doc] = base + share * (listScores[i] ?? 0)
      }
    }
    return count
  }

  /**
   * What a query term contributes (`null`: it matches nothing): its one alternative, or its
   * merged matches, remembered when merging them was much work. With `eligible` (the query's
   * only term, a list not worth remembering) the list holds only eligible documents.
   */
  #part(term: QueryTerm, numberedDocs: number, eligible: Eligibility | null): TermPart | null {
    if (term.synonyms !== undefined && term.synonyms.length > 0) {
      const part = this.#partWithSynonyms(term, term.synonyms, numberedDocs, eligible)
      if (part !== undefined) return part
    }
    const groups = this.#expansions.groupsOf(term)
    if (groups.length === 0) return null
    const only = groups[0]?.[0]
    if (groups.length === 1 && groups[0]?.length === 1 && only !== undefined) return { alt: only, list: null, size: this.#index.postings(only.id).length }
    const key = termKey(term)
    const remembered = this.#merged.remembered(key)
    if (remembered !== undefined) return { alt: null, list: remembered, size: remembered.length }
    const sized = groups.map((group) => ({ group, size: group.reduce((n, alt) => n + this.#index.postings(alt.id).length, 0) }))
    if (sized.some((g) => g.size === 0)) return null
    sized.sort((a, b) => a.size - b.size)
    const postings = sized.reduce((n, g) => n + g.size, 0)
    const list = this.#merged.merge(key, sized.map((g) => g.group), postings, numberedDocs, eligible, this.#scratch)
    return { alt: null, list, size: list.length }
  }

  /**
   * `#part` of a term with synonyms (core's rule, `QueryTerm.synonyms`): the documents matching
   * the term itself or every term of one of its synonyms, a synonym's matches weighted
   * `MATCH_WEIGHTS.synonym` times their own and of the kind `synonym` when matched as typed,
   * else `prefix` (core's rule); a document's relevance adds up every way it matched.
   * Merged into one list (remembered as any merged term is); `undefined` when no synonym
   * matches anything, so that the term is matched as one without (most of the forms core
   * gives a query's words, `iphone 15` as `iphone15`, are in no item).
   */
  #partWithSynonyms(term: QueryTerm, synonyms: readonly (readonly QueryTerm[])[], numberedDocs: number, eligible: Eligibility | null): TermPart | undefined {
    const key = `${termKey(term)}\u0005${synonymsKey(term)}`
    const remembered = this.#merged.remembered(key)
    if (remembered !== undefined) return { alt: null, list: remembered, size: remembered.length }
    const choices: Alternative[][][] = []
    for (const alternative of synonyms) {
      const groups = alternative.flatMap((synonym) => this.#expansions.groupsOf(synonym))
      if (groups.length === 0 || groups.some((group) => group.length === 0)) continue
      choices.push(groups.map((group) => group.map((alt) => ({ id: alt.id, factor: alt.factor * MATCH_WEIGHTS.synonym, kind: alt.kind === MATCH_KIND.exact ? MATCH_KIND.synonym : MATCH_KIND.prefix }))))
    }
    if (choices.length === 0) return undefined
    const own = this.#expansions.groupsOf(term)
    if (own.length > 0 && own.every((group) => group.length > 0)) choices.unshift(own)
    let postings = 0
    const sized = choices.map((groups) =>
      groups
        .map((group) => ({ group, size: group.reduce((n, alt) => n + this.#index.postings(alt.id).length, 0) }))
        .sort((a, b) => a.size - b.size)
        .map((g) => {
          postings += g.size
          return g.group
        }),
    )
    const list = this.#merged.mergeAny(key, sized, postings, numberedDocs, eligible, this.#scratch)
    return { alt: null, list, size: list.length }
  }

  /** The first `count` candidates that all `parts` marked, with their scores, into the scratch result; clears the marks. */
  #gather(count: number, parts: number, top: number): TermMatches {
    const hits = this.#scratch.hits
    const scores = this.#scratch.scores
    const candidates = this.#scratch.docs
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
  #eligibleOf(list: TermList, eligible: Eligibility, top: number, scale: RankScale): TermMatches {
    const out = this.#result(list.length)
    const { docs, scores } = out
    const bits = eligible.bits
    const filter = eligible.filter
    const from = list.docs
    const fromScores = list.scores
    const runEnds = list.runEnds
    const { bases, share } = scale
    const floor = top > 0 ? new ScoreFloor(top) : null
    let bar = Number.NEGATIVE_INFINITY
    let total = 0
    let count = 0
    for (let kind = 0, i = 0; kind < runEnds.length; kind++) {
      const base = bases[kind] ?? 0
      for (const end = runEnds[kind] ?? 0; i < end; i++) {
        const doc = from[i] ?? 0
        if ((((bits[doc >>> 5] ?? 0) >>> (doc & 31)) & 1) === 0) continue
        if (filter !== null && !filter.passes(doc)) continue
        total++
        const score = base + share * (fromScores[i] ?? 0)
        if (score < bar) continue
        if (floor !== null) bar = floor.offer(score)
        docs[count] = doc
        scores[count++] = score
      }
    }
    out.length = count
    out.total = total
    out.floor = bar
    return out
  }

  /** The eligible documents of one term's postings, scored. */
  #single(alt: Alternative, numberedDocs: number, eligible: Eligibility, top: number, scale: RankScale): TermMatches {
    const { list, length } = this.#index.postings(alt.id)
    const ranks = postingRanks(scale, alt, idfOf(numberedDocs, length), this.#ranks)
    const out = this.#result(length)
    const { docs, scores } = out
    const bits = eligible.bits
    const filter = eligible.filter
    const floor = top > 0 ? new ScoreFloor(top) : null
    let bar = Number.NEGATIVE_INFINITY
    // A score grows with its weight's code (`postingRanks`): a posting coded below `barCode` cannot reach the bar, it is only counted.
    let barCode = 0
    let total = 0
    let count = 0
    for (let i = 0; i < length; i++) {
      const posting = list[i] ?? 0
      const doc = posting >>> 8
      if ((((bits[doc >>> 5] ?? 0) >>> (doc & 31)) & 1) === 0) continue
      if (filter !== null && !filter.passes(doc)) continue
      total++
      if ((posting & 255) < barCode) continue
      const score = ranks[posting & 255] ?? 0
      if (score < bar) continue
      if (floor !== null) {
        bar = floor.offer(score)
        while (barCode < 255 && (ranks[barCode] ?? 0) < bar) barCode++
      }
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
}

/**
 * What one posting of `alt` adds to a rank score (core's `termRank`), by its weight code, into
 * `ranks` (the matcher's one table: a part's postings are read before the next part's table
 * is made): the base of the alternative's kind of match plus the share of its relevance (IDF ×
 * the posting's weight × the kind's weight, capped). It never decreases with the code.
 */
export function postingRanks(scale: RankScale, alt: Alternative, idf: number, ranks: Float64Array = new Float64Array(256)): Float64Array {
  const base = scale.bases[alt.kind] ?? 0
  const factor = alt.factor * idf
  for (let code = 0; code < 256; code++) ranks[code] = base + scale.share * cappedRelevance((WEIGHTS[code] ?? 0) * factor)
  return ranks
}
