import { FIELD_BOOST, forEachIndexTerm, SEARCHED_FIELDS, withinOneEdit } from '@frontdesk/core'
import type { AnalyzedReader } from './analyzed-docs.ts'
import { BigramIds } from './bigram-ids.ts'
import SearchableMap from 'minisearch/SearchableMap'

const SURROGATE = /[\ud800-\udfff]/

/** The indexed fields (core's `SEARCHED_FIELDS`), in the order `addDocument` takes their text. */
export const FIELDS = SEARCHED_FIELDS

/** The boost of each field (core's `FIELD_BOOST`), in `FIELDS` order. */
export const BOOSTS = FIELDS.map((field) => FIELD_BOOST[field])
// BM25+ as MiniSearch computes it (k1, b, delta).
/** BM25+ k1. */
export const K1 = 1.2
/** BM25+ b. */
export const B = 0.7
/** BM25+ delta. */
export const DELTA = 0.5

/** BM25's length normalisation of a field `length` terms long where fields average `average` terms. */
function lengthNorm(length: number, average: number): number {
  return K1 * (1 - B + (B * length) / Math.max(1, average))
}

/** A term's BM25+ weight in one field: `n` occurrences, the field's `lengthNorm`, its boost. */
function fieldWeight(n: number, norm: number, boost: number): number {
  return boost * (DELTA + (n * (K1 + 1)) / (n + norm))
}

/*
 * A posting is one uint32: the document number times 256 plus its weight's code. Weights
 * are coded on a logarithmic scale, 2 % apart, from 0.25 up (BM25+ factors summed over the
 * fields with their boosts lie between 0.5 and ~40): a quarter of the memory of a number pair,
 * at a precision ranking does not notice. Document numbers stay below 2^24.
 */
const WEIGHT_BASE = 0.25
const WEIGHT_STEP = Math.log(1.02)
/** The weight of each code. */
export const WEIGHTS = Float64Array.from({ length: 256 }, (_, code) => WEIGHT_BASE * Math.exp(code * WEIGHT_STEP))
/** Document numbers must stay below this. */
export const MAX_DOCUMENTS = 2 ** 24

/** The code (0–255) of a posting's weight (see the posting format above). */
export function weightCode(weight: number): number {
  return Math.max(0, Math.min(255, Math.round(Math.log(weight / WEIGHT_BASE) / WEIGHT_STEP)))
}

/** An inverted index's state as plain data and one buffer, for a snapshot file. */
export interface InvertedIndexData {
  /** Terms by term id. */
  terms: string[]
  /** Ids of the CJK terms (the others are words). */
  cjk: number[]
  /** Postings of each term, by term id. */
  used: number[]
  /** Sum of field lengths (in terms) and number of documents they were summed over. */
  fieldTotals: number[]
  fieldDocs: number
}

/**
 * The postings of a full-text index, over documents numbered 0, 1, 2… by their owner.
 *
 * Why not MiniSearch's own index: it keeps, per term and field, a Map of document → term
 * frequency (1.6 GB for 100,000 articles of 1–2 KB with Japanese bigrams, 150 s to build),
 * and its query path builds a result object per matching document and term (250 ms for a
 * word in 20 % of them). Here each term's postings are one `Uint32Array` in document order
 * (see the posting format above); a posting's weight is the document's BM25+ term-frequency
 * factor summed over its fields with their boosts (as MiniSearch scores, with field lengths
 * averaged over the documents indexed so far), and the query side multiplies it by the term's
 * IDF. MiniSearch's `SearchableMap` (a radix tree) still holds the vocabulary and answers
 * prefix and one-typo lookups; words and CJK terms have a tree each, so a typo lookup walks
 * words only. A document is never removed from postings one by one: its owner stops
 * returning it (a tombstone) and `compact` drops the dead ones all at once.
 */
export class InvertedIndex {
  readonly #ids = new Map<string, number>()
  readonly #terms: string[] = []
  readonly #cjk: number[] = []
  readonly #words = new SearchableMap<number>()
  readonly #cjkTerms = new SearchableMap<number>()
  /** Words holding a character beyond the BMP (see `withinOneEdit`). */
  #astralWords = 0
  #lists: Uint32Array[] = []
  #used = new Int32Array(1024)
  /** The buffer the index was restored from: its lists are views of it, exactly as long as they were. */
  #restored: ArrayBufferLike | null = null
  /** Postings added after a restored list (see `#append`), by term id; joined to it when the term is read. */
  readonly #tails = new Map<number, Tail>()
  readonly #fieldTotals = new Float64Array(FIELDS.length)
  #fieldDocs = 0
  // Scratch space of `addDocument`, by term id: frequency in the field, weight in the document.
  #tf = new Int32Array(1024)
  #weight = new Float64Array(1024)
  // CJK bigrams → term ids without making strings (see `BigramIds`).
  readonly #bigrams = new BigramIds((gram) => this.#termId(gram, true))
  #fieldTerms = new Int32Array(4096)
  #docTerms = new Int32Array(4096)

  /** An empty index, or one restored from `toData()` with its postings buffer. */
  constructor(restored?: { data: InvertedIndexData; postings: Uint32Array }) {
    if (restored === undefined) return
    const { data, postings } = restored
    data.fieldTotals.forEach((total, i) => (this.#fieldTotals[i] = total))
    this.#fieldDocs = data.fieldDocs
    const cjk = new Set(data.cjk)
    this.#restored = postings.buffer
    let offset = 0
    for (let id = 0; id < data.terms.length; id++) {
      const used = data.used[id] ?? 0
      this.#termId(data.terms[id] ?? '', cjk.has(id))
      // A view, no copy: what is added later goes to a tail or, for a short list, a copy (see `#append`).
      this.#lists[id] = postings.subarray(offset, offset + used)
      this.#used[id] = used
      offset += used
    }
  }

  /** Number of distinct terms. */
  get termCount(): number {
    return this.#terms.length
  }

  /**
   * Indexes document `doc` (greater than every number indexed before, below `MAX_DOCUMENTS`)
   * with the text of each field, in `FIELDS` order.
   */
  addDocument(doc: number, texts: readonly string[]): void {
    if (doc >= MAX_DOCUMENTS) throw new Error(`A tenant's search index holds at most ${MAX_DOCUMENTS} items`)
    this.#fieldDocs++
    // Term ids of the document's distinct terms; the hot loops use locals, not fields.
    let inDoc = 0
    let docTerms = this.#docTerms
    for (let f = 0; f < FIELDS.length; f++) {
      let length = 0
      forEachIndexTerm(
        texts[f] ?? '',
        (term, cjk) => {
          if (length === this.#fieldTerms.length) this.#fieldTerms = grownInt(this.#fieldTerms)
          this.#fieldTerms[length++] = this.#termId(term, cjk)
        },
        (first, second) => {
          if (length === this.#fieldTerms.length) this.#fieldTerms = grownInt(this.#fieldTerms)
          this.#fieldTerms[length++] = this.#bigrams.idOf(first, second)
        },
      )
      const total = (this.#fieldTotals[f] ?? 0) + length
      this.#fieldTotals[f] = total
      if (length === 0) continue
      const ids = this.#fieldTerms
      const tf = this.#tf
      const weight = this.#weight
      for (let i = 0; i < length; i++) {
        const id = ids[i] ?? 0
        tf[id] = (tf[id] ?? 0) + 1
      }
      const norm = lengthNorm(length, total / this.#fieldDocs)
      const boost = BOOSTS[f] ?? 1
      for (let i = 0; i < length; i++) {
        const id = ids[i] ?? 0
        const n = tf[id] ?? 0
        if (n === 0) continue
        tf[id] = 0
        if (weight[id] === 0) {
          if (inDoc === docTerms.length) docTerms = this.#docTerms = grownInt(docTerms)
          docTerms[inDoc++] = id
        }
        weight[id] = (weight[id] ?? 0) + fieldWeight(n, norm, boost)
      }
    }
    this.#appendDoc(doc, docTerms, inDoc)
  }

  /**
   * Indexes document `doc` as `addDocument` would with the texts it was analysed from: the
   * reader's next document (see `AnalyzedDocs`), without the analyzer.
   */
  addAnalyzed(doc: number, reader: AnalyzedReader): void {
    const inDoc = this.#weighAnalyzed(doc, reader)
    this.#appendDoc(doc, this.#docTerms, inDoc)
  }

  /**
   * Indexes documents `docs` (each greater than every number indexed before it) as
   * `addAnalyzed` would one after the other, the reader's next documents: their weights
   * computed document by document (they depend on the field lengths so far), their postings
   * then appended a term at a time rather than a document at a time. Hint: a start applying
   * a snapshot's delta (8,004 items, ~270 distinct terms each) spent most of it appending
   * each document's postings to as many lists scattered in memory.
   */
  addAnalyzedAll(docs: readonly number[], reader: AnalyzedReader): void {
    let terms = new Int32Array(4096)
    let postings = new Uint32Array(4096)
    let count = 0
    for (const doc of docs) {
      const inDoc = this.#weighAnalyzed(doc, reader)
      if (count + inDoc > terms.length) {
        const size = Math.max(count + inDoc, terms.length * 2)
        terms = grownTo(terms, size, Int32Array)
        postings = grownTo(postings, size, Uint32Array)
      }
      const docTerms = this.#docTerms
      const weight = this.#weight
      for (let i = 0; i < inDoc; i++, count++) {
        const id = docTerms[i] ?? 0
        terms[count] = id
        postings[count] = doc * 256 + weightCode(weight[id] ?? 0)
        weight[id] = 0
      }
    }
    // The postings grouped by term, each term's in document order (a counting sort keeps it).
    const termCount = this.#terms.length
    const ends = new Int32Array(termCount + 1)
    for (let i = 0; i < count; i++) {
      const at = (terms[i] ?? 0) + 1
      ends[at] = (ends[at] ?? 0) + 1
    }
    for (let id = 0; id < termCount; id++) ends[id + 1] = (ends[id + 1] ?? 0) + (ends[id] ?? 0)
    const next = ends.slice(0, termCount)
    const grouped = new Uint32Array(count)
    for (let i = 0; i < count; i++) {
      const id = terms[i] ?? 0
      grouped[next[id] ?? 0] = postings[i] ?? 0
      next[id] = (next[id] ?? 0) + 1
    }
    for (let id = 0; id < termCount; id++) {
      for (let i = ends[id] ?? 0, end = ends[id + 1] ?? 0; i < end; i++) this.#append(id, grouped[i] ?? 0)
    }
  }

  /**
   * Weighs the reader's next document (numbered `doc`) as `addDocument` its texts: its
   * distinct terms' ids in `#docTerms[0…n)`, their weights in `#weight` (n returned).
   */
  #weighAnalyzed(doc: number, reader: AnalyzedReader): number {
    if (doc >= MAX_DOCUMENTS) throw new Error(`A tenant's search index holds at most ${MAX_DOCUMENTS} items`)
    this.#fieldDocs++
    const { docs, ids, cjk } = reader
    const numbers = docs.numbers
    let at = reader.at
    let inDoc = 0
    let docTerms = this.#docTerms
    for (let f = 0; f < FIELDS.length; f++) {
      const length = numbers[at] ?? 0
      const n = numbers[at + 1] ?? 0
      at += 2
      // Term ids first: a new term may grow the scratch arrays.
      if (n > this.#fieldTerms.length) this.#fieldTerms = new Int32Array(Math.max(n, this.#fieldTerms.length * 2))
      const fieldIds = this.#fieldTerms
      for (let i = 0; i < n; i++) {
        const number = numbers[at + 2 * i] ?? 0
        let id = ids[number] ?? -1
        if (id < 0) {
          id = this.#termId(docs.terms[number] ?? '', cjk[number] === 1)
          ids[number] = id
        }
        fieldIds[i] = id
      }
      const total = (this.#fieldTotals[f] ?? 0) + length
      this.#fieldTotals[f] = total
      if (length === 0) {
        at += 2 * n
        continue
      }
      const weight = this.#weight
      const norm = lengthNorm(length, total / this.#fieldDocs)
      const boost = BOOSTS[f] ?? 1
      for (let i = 0; i < n; i++, at += 2) {
        const id = fieldIds[i] ?? 0
        const tf = numbers[at + 1] ?? 0
        if (weight[id] === 0) {
          if (inDoc === docTerms.length) docTerms = this.#docTerms = grownInt(docTerms)
          docTerms[inDoc++] = id
        }
        weight[id] = (weight[id] ?? 0) + fieldWeight(tf, norm, boost)
      }
    }
    reader.at = at
    return inDoc
  }

  /** The term's id, or `undefined` when no document holds it. */
  termId(term: string): number | undefined {
    return this.#ids.get(term)
  }

  /** The terms starting with `prefix` (itself included) with their ids; `cjk` picks the CJK vocabulary, else words. */
  withPrefix(prefix: string, cjk: boolean): [term: string, id: number][] {
    return [...this.prefixEntries(prefix, cjk)]
  }

  /** `withPrefix`, met one by one as the vocabulary's tree is walked (nothing gathered). */
  prefixEntries(prefix: string, cjk: boolean): Iterable<[term: string, id: number]> {
    return (cjk ? this.#cjkTerms : this.#words).atPrefix(prefix).entries()
  }

  /** The id of `term` in the vocabulary `cjk` picks, or `undefined` when it holds no such term. */
  vocabularyId(term: string, cjk: boolean): number | undefined {
    return (cjk ? this.#cjkTerms : this.#words).get(term)
  }

  /**
   * The words one typo or less from `term` by core's rule (`withinOneEdit`: in characters, a
   * swap of neighbours counting as one), with their ids and distance (0 or 1). The radix
   * tree's own lookup counts Levenshtein edits of UTF-16 code units: one edit there finds the
   * insertions, deletions and substitutions of letters of the BMP, and swaps are looked up
   * as the words they make. A letter beyond the BMP is two code units, so while the query or
   * any word holds one, the lookup goes two edits wide and core's rule sorts out the result.
   */
  withinOneEdit(term: string): [term: string, id: number, distance: number][] {
    const wide = this.#astralWords > 0 || SURROGATE.test(term)
    const found: [term: string, id: number, distance: number][] = []
    for (const [key, [id, distance]] of this.#words.fuzzyGet(term, wide ? 2 : 1)) {
      if (distance === 0) found.push([key, id, 0])
      else if (withinOneEdit(term, key)) found.push([key, id, 1])
    }
    if (wide) return found
    for (let i = 0; i + 1 < term.length; i++) {
      if (term.charCodeAt(i) === term.charCodeAt(i + 1)) continue
      const swapped = `${term.slice(0, i)}${term[i + 1] ?? ''}${term[i] ?? ''}${term.slice(i + 2)}`
      // Hint: a swap of two different letters is two edits to the tree's lookup: never found twice.
      const id = this.#words.get(swapped)
      if (id !== undefined) found.push([swapped, id, 1])
    }
    return found
  }

  /** The term's postings: `list[0…length)`, in document order (see the posting format above). Joins the term's tail to its list first. */
  postings(id: number): { list: Uint32Array; length: number } {
    if (this.#tails.size > 0) this.#joinTail(id)
    return { list: this.#lists[id] ?? new Uint32Array(0), length: this.#used[id] ?? 0 }
  }

  /**
   * Drops the postings of dead documents and renumbers the rest: `renumber[old]` is the new
   * number of a live document, -1 for a dead one (numbers keep their order).
   */
  compact(renumber: Int32Array): void {
    for (let id = 0; id < this.#terms.length; id++) {
      const list = this.#lists[id]
      if (list === undefined) continue
      const used = this.#used[id] ?? 0
      this.#used[id] = compacted(list, used, renumber)
      // Hint: a tail is compacted where it is, not joined: joining every tail at once is the copying tails avoid.
      const tail = this.#tails.get(id)
      if (tail === undefined) continue
      tail.used = compacted(tail.list, tail.used, renumber)
      if (tail.used === 0) this.#tails.delete(id)
    }
  }

  /** The index as plain data and one buffer of every term's postings, in term id order. */
  toData(): { data: InvertedIndexData; postings: Uint32Array } {
    const { data, chunks } = this.toChunks()
    const postings = new Uint32Array(data.used.reduce((sum, n) => sum + n, 0))
    let offset = 0
    for (const chunk of chunks) {
      postings.set(chunk, offset)
      offset += chunk.length
    }
    return { data, postings }
  }

  /**
   * The index as plain data and each term's postings as a view (no copy), in term id order:
   * what a snapshot writes one after the other, without first joining them in one more buffer.
   */
  toChunks(): { data: InvertedIndexData; chunks: Uint32Array[] } {
    const count = this.#terms.length
    const used: number[] = []
    const chunks: Uint32Array[] = []
    for (let id = 0; id < count; id++) {
      const n = this.#used[id] ?? 0
      chunks.push((this.#lists[id] ?? new Uint32Array(0)).subarray(0, n))
      const tail = this.#tails.get(id)
      if (tail !== undefined) chunks.push(tail.list.subarray(0, tail.used))
      used.push(n + (tail?.used ?? 0))
    }
    const data = { terms: [...this.#terms], cjk: [...this.#cjk], used, fieldTotals: Array.from(this.#fieldTotals), fieldDocs: this.#fieldDocs }
    return { data, chunks }
  }

  #termId(term: string, cjk: boolean): number {
    let id = this.#ids.get(term)
    if (id !== undefined) return id
    id = this.#terms.length
    this.#terms.push(term)
    this.#ids.set(term, id)
    if (cjk) {
      this.#cjk.push(id)
      this.#cjkTerms.set(term, id)
    } else {
      this.#words.set(term, id)
      if (SURROGATE.test(term)) this.#astralWords++
    }
    if (id >= this.#used.length) {
      this.#used = grown(this.#used, Int32Array)
      this.#tf = grown(this.#tf, Int32Array)
      this.#weight = grown(this.#weight, Float64Array)
    }
    return id
  }

  /** Appends `doc`'s posting to the list of each of its `count` distinct terms (`docTerms`), with the weight summed over its fields, and clears the sums. */
  #appendDoc(doc: number, docTerms: Int32Array, count: number): void {
    const weight = this.#weight
    for (let i = 0; i < count; i++) {
      const id = docTerms[i] ?? 0
      this.#append(id, doc * 256 + weightCode(weight[id] ?? 0))
      weight[id] = 0
    }
  }

  /**
   * Adds a posting to the term's list. A restored list is a view of the restored buffer with
   * no room after it; a long one is not copied to grow but gets a tail, joined to it when the
   * term is next read (`postings`). Hint: a start applying a snapshot's delta touches most long
   * lists; copying them (at 1,000,000 items ~1 GB, in lists of up to 4 MB) was mostly garbage
   * collection, each ~64 MB of new buffers setting off a full collection of the restored heap.
   */
  #append(id: number, posting: number): void {
    // Hint: once a list has a tail, what follows goes there, even when a compaction left room in the list.
    const tail = this.#tails.size > 0 ? this.#tails.get(id) : undefined
    if (tail !== undefined) {
      appendTo(tail, posting)
      return
    }
    const used = this.#used[id] ?? 0
    let list = this.#lists[id]
    if (list === undefined || used + 1 > list.length) {
      if (list !== undefined && used >= TAIL_FROM && list.buffer === this.#restored) {
        const started: Tail = { list: new Uint32Array(16), used: 0 }
        this.#tails.set(id, started)
        appendTo(started, posting)
        return
      }
      // Hint: 1.5× rather than 2×: after a bulk build the lists are kept as they are, slack included.
      const bigger = new Uint32Array(Math.max(4, used + (used >> 1)))
      if (list !== undefined) bigger.set(list.subarray(0, used))
      list = bigger
      this.#lists[id] = list
    }
    list[used] = posting
    this.#used[id] = used + 1
  }

  /** Makes the term's list and its tail one list (of its own, exactly as long). */
  #joinTail(id: number): void {
    const tail = this.#tails.get(id)
    if (tail === undefined) return
    this.#tails.delete(id)
    const used = this.#used[id] ?? 0
    const list = new Uint32Array(used + tail.used)
    list.set((this.#lists[id] ?? new Uint32Array(0)).subarray(0, used))
    list.set(tail.list.subarray(0, tail.used), used)
    this.#lists[id] = list
    this.#used[id] = list.length
  }
}

/** Postings added after a restored list, `list[0…used)`. */
interface Tail {
  list: Uint32Array
  used: number
}

/** Adds a posting at the end of a tail, doubling it when full. */
function appendTo(tail: Tail, posting: number): void {
  if (tail.used === tail.list.length) {
    const bigger = new Uint32Array(tail.list.length * 2)
    bigger.set(tail.list)
    tail.list = bigger
  }
  tail.list[tail.used++] = posting
}

/** Restored lists at least this long get a tail rather than a copy when they grow (a copy of a shorter one costs less than a tail). */
const TAIL_FROM = 64

/** Drops the postings of dead documents from `list[0…used)` where it is, renumbering the rest (see `compact`); the postings left. */
function compacted(list: Uint32Array, used: number, renumber: Int32Array): number {
  let out = 0
  for (let i = 0; i < used; i++) {
    const posting = list[i] ?? 0
    const doc = renumber[posting >>> 8] ?? -1
    if (doc >= 0) list[out++] = doc * 256 + (posting & 255)
  }
  return out
}

function grownInt(array: Int32Array<ArrayBuffer>): Int32Array<ArrayBuffer> {
  const bigger = new Int32Array(array.length * 2)
  bigger.set(array)
  return bigger
}

function grownTo<T extends Int32Array | Uint32Array>(array: T, length: number, Type: { new (length: number): T }): T {
  const bigger = new Type(length)
  bigger.set(array)
  return bigger
}

function grown<T extends Int32Array | Float64Array>(array: T, Type: { new (length: number): T }): T {
  const bigger = new Type(array.length * 2)
  bigger.set(array)
  return bigger
}
