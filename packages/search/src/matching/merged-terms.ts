import { cappedRelevance, MATCH_KINDS } from '@frontdesk/core'
import type { InvertedIndex } from './inverted-index.ts'
import { WEIGHTS } from './inverted-index.ts'
import type { Eligibility } from './term-matcher.ts'
import type { Alternative } from './term-expansions.ts'

/**
 * A query term whose groups hold at least this many postings in all, and more than one
 * alternative, has its matches remembered (see `MergedTerms`): below it, merging them again
 * is as cheap as reading a remembered list. (4,096 remembered common words only; 256 also rare
 * words with prefixes and CJK words of two bigrams or more: the benchmark's rare-word classes
 * went from 0.026–0.061 to 0.012–0.036 ms in the engine at 20,000 items.)
 */
export const REMEMBER_TERM_FROM = 256
/** At most this many remembered term matches in all (13 bytes each: ~26 MB), the least recently used dropped first. */
export const MAX_REMEMBERED_MATCHES = 2_000_000

/**
 * A query term's matches in the index as a whole (visible or not), `[0, length)`: documents
 * and the term's relevance in each (at most core's `RELEVANCE_CAP`: `cappedRelevance`), in runs
 * of one kind of match (core's `MATCH_KIND` codes), best first: kind `k` from `runEnds[k - 1]`
 * (0 for the first) up to `runEnds[k]`. A query's rank score adds them up as core's `termRank`
 * does, one base per run (see `TermMatcher`): no kind is read per match.
 */
export interface TermList {
  docs: Int32Array
  scores: Float64Array
  runEnds: Int32Array
  length: number
}

/** How many kinds of match there are (core's `MATCH_KINDS`). */
const KINDS = MATCH_KINDS.length

/**
 * Per-document scratch space of the matcher, by document number: how many groups a document
 * matched so far (`hits`) and its score (`scores`), both back to 0 after each use, and the
 * kind of match of a term being merged where one is kept per document (`kinds`); and a
 * list of documents (`docs`) that grows as needed.
 */
export class DocScratch {
  hits = new Uint16Array(0)
  scores = new Float64Array(0)
  kinds = new Uint8Array(0)
  docs: Int32Array = new Int32Array(1024)

  /** Makes room for documents numbered below `docLimit`. */
  ensure(docLimit: number): void {
    if (this.hits.length >= docLimit) return
    const size = Math.max(1024, docLimit + (docLimit >> 2))
    this.hits = new Uint16Array(size)
    this.scores = new Float64Array(size)
    this.kinds = new Uint8Array(size)
  }

  /** A `docs` twice as long, holding what it held. */
  growDocs(): Int32Array {
    const grown = new Int32Array(this.docs.length * 2)
    grown.set(this.docs)
    this.docs = grown
    return grown
  }
}

/**
 * The matches of query terms of several alternatives (a word's prefixes and typos, a CJK
 * run's bigrams) merged into one list, and those worth keeping remembered until the index
 * changes (`version`): a word searched again costs one pass over its matches instead of one
 * per alternative (a common word expands to hundreds of prefixes, a CJK word to several
 * bigrams of thousands of postings each). Merging reads every posting of every alternative,
 * term at a time, into the scratch space: groups rarest first, a document seen in the first
 * one becoming a candidate, one seen in each later one staying, so the work is the sum of the
 * groups' postings and never grows with the number of results; a document's score is the sum
 * of its alternatives' (IDF × weight × the kind of match's weight), capped once summed, and
 * its kind the best of theirs (see `TermList`). Lists are kept in the order their
 * postings come (a single-term search never needs them sorted); the least recently used
 * beyond `MAX_REMEMBERED_MATCHES` are dropped.
 */
export class MergedTerms {
  readonly #index: InvertedIndex
  readonly #memo: boolean
  readonly #maxMatches: number
  readonly #lists = new Map<string, TermList>()
  #version = -1
  #remembered = 0

  /** Merges over `index`; with `memo`, remembering at most `maxMatches` matches in all. */
  constructor(index: InvertedIndex, memo: boolean, maxMatches = MAX_REMEMBERED_MATCHES) {
    this.#index = index
    this.#memo = memo
    this.#maxMatches = maxMatches
  }

  /** Forgets every list when the index changed since they were made. */
  validate(version: number): void {
    if (version === this.#version) return
    this.#lists.clear()
    this.#remembered = 0
    this.#version = version
  }

  /** The term's remembered matches (all documents, eligible or not), if any (then the most recently used). */
  remembered(key: string): TermList | undefined {
    if (!this.#memo) return undefined
    const list = this.#lists.get(key)
    if (list !== undefined) {
      this.#lists.delete(key)
      this.#lists.set(key, list)
    }
    return list
  }

  /** Whether a term of this many postings in all would have its merged matches remembered. */
  worthRemembering(postings: number): boolean {
    return this.#memo && postings >= REMEMBER_TERM_FROM
  }

  /**
   * The matches of `groups` (each the postings of its alternatives), remembered under `key`
   * when worth it; else, with `eligible`, only the eligible documents that pass its filter.
   */
  merge(key: string, groups: readonly Alternative[][], postings: number, numberedDocs: number, eligible: Eligibility | null, scratch: DocScratch): TermList {
    const remember = this.worthRemembering(postings)
    const list = mergeGroups(this.#index, groups, numberedDocs, remember ? null : eligible, scratch, true)
    if (remember) this.#keep(key, list)
    return list
  }

  /**
   * `merge` of a term that matches in several ways (itself, or one of its synonyms), each
   * `choices` entry the groups of one: the documents matching any of them, with the sum of
   * their relevance in each and the best of their kinds (documents in the order they first came).
   */
  mergeAny(key: string, choices: readonly (readonly Alternative[][])[], postings: number, numberedDocs: number, eligible: Eligibility | null, scratch: DocScratch): TermList {
    const remember = this.worthRemembering(postings)
    const lists = choices.map((groups) => mergeGroups(this.#index, groups, numberedDocs, remember ? null : eligible, scratch, choices.length === 1))
    const list = lists.length === 1 && lists[0] !== undefined ? lists[0] : unionLists(lists, scratch)
    if (remember) this.#keep(key, list)
    return list
  }

  /** Remembers `list` under `key` if it fits, the least recently used dropped to make room. */
  #keep(key: string, list: TermList): void {
    if (list.length <= this.#maxMatches) {
      // The least recently used go first.
      for (const [oldKey, old] of this.#lists) {
        if (this.#remembered + list.length <= this.#maxMatches) break
        this.#lists.delete(oldKey)
        this.#remembered -= old.length
      }
      this.#lists.set(key, list)
      this.#remembered += list.length
    }
  }
}

/** The documents of any of `lists` (relevance not capped), each once, with the sum of its relevance in them capped and the best of its kinds. */
function unionLists(lists: readonly TermList[], scratch: DocScratch): TermList {
  const hits = scratch.hits
  const scores = scratch.scores
  const kinds = scratch.kinds
  let candidates: Int32Array = scratch.docs
  let count = 0
  for (const list of lists) {
    let kind = 0
    for (let i = 0; i < list.length; i++) {
      while (kind < KINDS - 1 && i >= (list.runEnds[kind] ?? 0)) kind++
      const doc = list.docs[i] ?? 0
      if (hits[doc] === 0) {
        hits[doc] = 1
        if (count === candidates.length) candidates = scratch.growDocs()
        candidates[count++] = doc
        kinds[doc] = kind
      } else if (kind < (kinds[doc] ?? 0)) kinds[doc] = kind
      scores[doc] = (scores[doc] ?? 0) + (list.scores[i] ?? 0)
    }
  }
  const out = kindOrdered(candidates, count, hits, 1, kinds, scores, true)
  for (let i = 0; i < count; i++) {
    const doc = candidates[i] ?? 0
    hits[doc] = 0
    scores[doc] = 0
  }
  return out
}

/** The `candidates` whose `hits` are `kept`, with their relevance (`scores`, capped with `cap`), ordered in runs by their `kinds` (a counting sort). */
function kindOrdered(candidates: Int32Array, count: number, hits: Uint16Array, kept: number, kinds: Uint8Array, scores: Float64Array, cap: boolean): TermList {
  const runEnds = new Int32Array(KINDS)
  for (let i = 0; i < count; i++) {
    const doc = candidates[i] ?? 0
    if (hits[doc] !== kept) continue
    const kind = kinds[doc] ?? 0
    runEnds[kind] = (runEnds[kind] ?? 0) + 1
  }
  for (let kind = 1; kind < KINDS; kind++) runEnds[kind] = (runEnds[kind] ?? 0) + (runEnds[kind - 1] ?? 0)
  const length = runEnds[KINDS - 1] ?? 0
  const out: TermList = { docs: new Int32Array(length), scores: new Float64Array(length), runEnds, length }
  const next = new Int32Array(KINDS)
  for (let kind = 1; kind < KINDS; kind++) next[kind] = runEnds[kind - 1] ?? 0
  for (let i = 0; i < count; i++) {
    const doc = candidates[i] ?? 0
    if (hits[doc] !== kept) continue
    const kind = kinds[doc] ?? 0
    const at = next[kind] ?? 0
    next[kind] = at + 1
    out.docs[at] = doc
    out.scores[at] = cap ? cappedRelevance(scores[doc] ?? 0) : (scores[doc] ?? 0)
  }
  return out
}

/** Each candidate's best kind in the first group (`alternatives`, best first) into `kinds`: its postings again, worst alternative first, the best written last. */
function firstGroupKinds(index: InvertedIndex, alternatives: readonly Alternative[], hits: Uint16Array, kinds: Uint8Array): void {
  for (let a = alternatives.length - 1; a >= 0; a--) {
    const alt = alternatives[a]
    if (alt === undefined) continue
    const { list, length } = index.postings(alt.id)
    for (let i = 0; i < length; i++) {
      const doc = (list[i] ?? 0) >>> 8
      if (hits[doc] !== 0) kinds[doc] = alt.kind
    }
  }
}

/** Whether an alternative of a group after the first is of a worse kind than the first group's best (then kinds are kept per document). */
function laterGroupsWorsen(groups: readonly Alternative[][]): boolean {
  const best = groups[0]?.[0]?.kind ?? 0
  for (let g = 1; g < groups.length; g++) for (const alt of groups[g] ?? []) if (alt.kind > best) return true
  return false
}

/**
 * The documents matching every group, with their summed relevance (capped with `cap`)
 * and kinds; only eligible ones with `eligible`. A group's alternatives come best kind first (see
 * `TermExpansions`): the first one a document is found in is its best in that group, and its
 * kind is the worst of its groups' (a synonym of several words is as good as its worst word).
 * So the first group's candidates come in runs of one kind, told apart by their counts (no
 * write per document); only when a later group may make a kind worse (a synonym of several
 * words) is each document's kind kept in the scratch space, the first group's read once more.
 */
function mergeGroups(index: InvertedIndex, groups: readonly Alternative[][], numberedDocs: number, eligible: Eligibility | null, scratch: DocScratch, cap: boolean): TermList {
  const hits = scratch.hits
  const scores = scratch.scores
  const kinds = scratch.kinds
  // Hint: no closures here: a variable a closure captures lives in a context, read again on every posting.
  const track = laterGroupsWorsen(groups)
  // Where each kind's run of the first group's candidates ends: `runEnds[kind]` candidates came before its end.
  const runEnds = new Int32Array(KINDS)
  let count = 0
  let candidates: Int32Array = scratch.docs
  for (let g = 0; g < groups.length; g++) {
    if (g === 1 && track) firstGroupKinds(index, groups[0] ?? [], hits, kinds)
    for (const alt of groups[g] ?? []) {
      const { list, length } = index.postings(alt.id)
      const factor = alt.factor * idfOf(numberedDocs, length)
      const kind = alt.kind
      if (g === 0) {
        // The first group: a document seen for the first time (0) becomes a candidate (if eligible).
        for (let i = 0; i < length; i++) {
          const posting = list[i] ?? 0
          const doc = posting >>> 8
          if (hits[doc] === 0) {
            if (eligible !== null && ((((eligible.bits[doc >>> 5] ?? 0) >>> (doc & 31)) & 1) === 0 || (eligible.filter !== null && !eligible.filter.passes(doc)))) continue
            if (count === candidates.length) candidates = scratch.growDocs()
            candidates[count++] = doc
            hits[doc] = 1
          }
          scores[doc] = (scores[doc] ?? 0) + (WEIGHTS[posting & 255] ?? 0) * factor
        }
        runEnds[kind] = count
        continue
      }
      for (let i = 0; i < length; i++) {
        const posting = list[i] ?? 0
        const doc = posting >>> 8
        const seen = hits[doc] ?? 0
        if (seen === g) {
          hits[doc] = g + 1
          if (track && kind > (kinds[doc] ?? 0)) kinds[doc] = kind
        } else if (seen !== g + 1) continue
        scores[doc] = (scores[doc] ?? 0) + (WEIGHTS[posting & 255] ?? 0) * factor
      }
    }
  }
  const all = groups.length
  for (let kind = 1; kind < KINDS; kind++) runEnds[kind] = Math.max(runEnds[kind] ?? 0, runEnds[kind - 1] ?? 0)
  if (track) {
    const out = kindOrdered(candidates, count, hits, all, kinds, scores, cap)
    for (let i = 0; i < count; i++) {
      const doc = candidates[i] ?? 0
      hits[doc] = 0
      scores[doc] = 0
    }
    return out
  }
  // The candidates' runs of one kind, kept in order: each output run ends where its input run does.
  runEnds[KINDS - 1] = count
  if (all === 1) return oneGroupList(candidates, count, runEnds, hits, scores, cap)
  let length = 0
  for (let i = 0; i < count; i++) if (hits[candidates[i] ?? 0] === all) length++
  const out: TermList = { docs: new Int32Array(length), scores: new Float64Array(length), runEnds: new Int32Array(KINDS), length }
  length = 0
  for (let run = 0, i = 0; run < KINDS; run++) {
    for (const end = runEnds[run] ?? 0; i < end; i++) {
      const doc = candidates[i] ?? 0
      if (hits[doc] === all) {
        out.docs[length] = doc
        out.scores[length++] = cap ? cappedRelevance(scores[doc] ?? 0) : (scores[doc] ?? 0)
      }
      hits[doc] = 0
      scores[doc] = 0
    }
    out.runEnds[run] = length
  }
  return out
}

/**
 * `mergeGroups`' list of a term of one group (a word: its prefixes, stems and typos), where
 * every candidate is kept, in its runs as they came (`runEnds`): the documents copied at once,
 * no candidate tested.
 */
function oneGroupList(candidates: Int32Array, count: number, runEnds: Int32Array, hits: Uint16Array, scores: Float64Array, cap: boolean): TermList {
  const out: TermList = { docs: candidates.slice(0, count), scores: new Float64Array(count), runEnds, length: count }
  const outScores = out.scores
  for (let i = 0; i < count; i++) {
    const doc = candidates[i] ?? 0
    const score = scores[doc] ?? 0
    outScores[i] = cap ? cappedRelevance(score) : score
    hits[doc] = 0
    scores[doc] = 0
  }
  return out
}

/**
 * BM25's IDF of a term with `length` postings among `numberedDocs` documents, as MiniSearch
 * computes it (never negative). Both counts include replaced and removed documents until the
 * next compaction, as Lucene counts deleted documents in both: a document frequency of
 * postings (dead ones included) over live documents only exceeds 1 after a few re-imports
 * and turns every IDF — and so every score — into 0.
 */
export function idfOf(numberedDocs: number, length: number): number {
  return Math.max(Math.log(1 + (numberedDocs - length + 0.5) / (length + 0.5)), 0)
}
