import type { CategoryRecord, SearchDocument, SearchSourceItem } from '@frontdesk/core'
import { searchedTexts } from '@frontdesk/core'
import { BigramIds } from '../matching/bigram-ids.ts'
import { B, BOOSTS, DELTA, FIELDS, K1, MAX_DOCUMENTS, weightCode } from '../matching/inverted-index.ts'
import { forEachBuildTerm } from './build-terms.ts'
import type { ListSpill } from './list-spill.ts'
import { TermTable } from './term-table.ts'

const MAX_TERMS = 2 ** 25
/** Numbers per chunk of `RangeIndexer`'s per-document lists (4 MB). */
const CHUNK = 1 << 20
/** What a released chunk of the per-document lists is replaced with. */
const EMPTY = new Uint32Array(0)

/** Postings of one range of items, ready to be joined with the ranges before and after it (see `RangeIndexer.finish`). */
export interface RangePostings {
  /** The range's terms, in the order they first occur in it. */
  terms: string[]
  /** By term: 1 for a CJK term, 0 for a word. */
  cjk: Uint8Array<ArrayBuffer>
  /** By term: its number of postings in this range. */
  used: Int32Array<ArrayBuffer>
  /** Every term's postings, in term order, documents numbered from the range's offset. */
  postings: Uint32Array<ArrayBuffer>
  /** The range's items, in document order; empty when the indexer was told not to keep them (see `RangeIndexer`'s constructor). */
  docs: SearchDocument[]
  /** Number of the range's items. */
  documents: number
  /** Sum of each field's length over the range's documents. */
  fieldTotals: number[]
}

/** As `RangePostings`, the postings made as they are read, in pieces (see `RangeIndexer.finishInPieces`). */
export interface RangePieces extends Omit<RangePostings, 'postings'> {
  /** Every term's postings, in term order, in pieces (a term's whole in one); iterate once. */
  postings: Iterable<Uint32Array<ArrayBuffer>>
}

/** The range with its postings in one array. */
function whole(range: RangePieces): RangePostings {
  const pieces = [...range.postings]
  const postings = pieces.length === 1 ? (pieces[0] as Uint32Array<ArrayBuffer>) : new Uint32Array(pieces.reduce((sum, piece) => sum + piece.length, 0))
  if (pieces.length !== 1) pieces.reduce((at, piece) => (postings.set(piece, at), at + piece.length), 0)
  return { ...range, postings }
}

/**
 * Indexes a range of a tenant's items (consecutive in id order) for a bulk build, in two steps
 * so that several ranges can be analysed at once (in worker threads) and still give exactly
 * the postings `InvertedIndex.addDocument` gives when the items are added one after the other:
 *
 * 1. `add` analyses each item and keeps, per field, its length and its distinct terms with their
 *    frequencies (numbers in a growing buffer, terms numbered in the order they first occur).
 * 2. `finish` turns them into weighted postings once the field lengths of every item before the
 *    range are known: a posting's BM25+ weight depends on the average field lengths over the
 *    items indexed so far, computed here with the same operations in the same order.
 *
 * Terms numbered in first-occurrence order per range and then joined range after range are
 * numbered as one sequential build numbers them, so the joined index is the same one.
 */
export class RangeIndexer {
  readonly #categories: Map<string, CategoryRecord>
  readonly #table = new TermTable((id) => this.#made(id))
  /** Terms by id (the table's). */
  readonly #terms = this.#table.terms
  /** Whether the term being looked up, when new, is a CJK term. */
  #newCjk = false
  #cjk: Uint8Array<ArrayBuffer> = new Uint8Array(1024)
  /** By term: documents holding it (its postings), and the last document counted. */
  #df: Int32Array<ArrayBuffer> = new Int32Array(1024)
  #lastDoc = new Int32Array(1024).fill(-1)
  /** Scratch of `add`, by term: frequency in the current field. */
  #tf = new Int32Array(1024)
  // CJK bigrams → term ids without making strings (see `BigramIds`).
  readonly #bigrams = new BigramIds((gram) => this.#termId(gram, true))
  /** Distinct term ids of the field being analysed, in the order they first occur (their frequencies in `#tf`). */
  #fieldTerms = new Int32Array(4096)
  #distinct = 0
  /** Terms of the field being analysed (its length). */
  #fieldLength = 0
  /**
   * Per document: the five field lengths, then per field the number of its distinct terms and
   * that many (term, frequency) pairs, each one number `term * 128 + frequency` when the
   * frequency is below 128 (almost always), else `term * 128` followed by the frequency.
   * Kept in chunks of 4 MB, never copied (a growing buffer left twice the memory behind): a
   * block (the lengths, or one field's pairs) that does not fit the rest of a chunk starts the
   * next one, and `#chunkUsed` records where each full chunk ended.
   */
  readonly #chunks: Uint32Array[] = []
  readonly #chunkUsed: number[] = []
  /** With a spill, where each full chunk was written to it (its place in `#chunks` is then empty). */
  readonly #spill: ListSpill | null
  readonly #spilledAt: number[] = []
  #data = new Uint32Array(0)
  #dataLength = 0
  readonly #docs: SearchDocument[] = []
  readonly #keepDocs: boolean
  #count = 0
  /** Per document, where its block of lengths starts: chunk index × 2^32 + offset (see `finishInOrder`). */
  readonly #docStarts: number[] = []
  readonly #fieldTotals = new Float64Array(FIELDS.length)
  readonly #termSink = (term: string, cjk: boolean): void => {
    this.#counted(this.#termId(term, cjk))
  }
  readonly #wordSink = (text: string, start: number, end: number, hash: number): void => {
    this.#newCjk = false
    this.#counted(this.#table.idOfHashedSlice(text, start, end, hash))
  }
  readonly #pairSink = (first: number, second: number): void => {
    this.#counted(this.#bigrams.idOf(first, second))
  }

  readonly #chunkSize: number

  /**
   * An indexer for items of these categories (their text and select fields are indexed);
   * `spill`: where full chunks of the per-document lists go until `finish` (see `ListSpill`),
   * else they stay in memory; `chunkSize` for tests; `keepDocs` false: the items' search data
   * are the caller's to keep (`finish` gives none), as an import's are (see `DocBytes`).
   */
  constructor(categories: readonly CategoryRecord[], chunkSize = CHUNK, spill: ListSpill | null = null, keepDocs = true) {
    this.#categories = new Map(categories.map((category) => [category.id, category]))
    this.#chunkSize = chunkSize
    this.#spill = spill
    this.#keepDocs = keepDocs
  }

  /** Indexes the items added from now on with this category (new, or changed) instead of the one known so far. */
  useCategory(category: CategoryRecord): void {
    this.#categories.set(category.id, category)
  }

  /** Number of items added. */
  get size(): number {
    return this.#count
  }

  /** Sum of each field's length over the items added (what the next range's `finish` starts from). */
  get fieldTotals(): number[] {
    return Array.from(this.#fieldTotals)
  }

  /** Analyses the next item (in id order). */
  add(item: SearchSourceItem): void {
    const { doc } = item
    const number = this.#count++
    this.#spillFull()
    if (this.#keepDocs) this.#docs.push(doc)
    const texts = searchedTexts(item.title, item.summary, item.body, doc.tags, doc.fields, this.#categories.get(doc.category_id))
    this.#reserve(FIELDS.length)
    const header = this.#data
    const lengths = this.#dataLength
    this.#docStarts.push((this.#chunks.length - 1) * 2 ** 32 + lengths)
    this.#dataLength += FIELDS.length
    for (let f = 0; f < FIELDS.length; f++) {
      this.#fieldLength = 0
      this.#distinct = 0
      forEachBuildTerm(texts[f] ?? '', this.#termSink, this.#pairSink, this.#wordSink)
      const length = this.#fieldLength
      header[lengths + f] = length
      this.#fieldTotals[f] = (this.#fieldTotals[f] ?? 0) + length
      const ids = this.#fieldTerms
      const tf = this.#tf
      const pairs = this.#distinct
      this.#reserve(1 + 2 * pairs)
      const data = this.#data
      const lastDoc = this.#lastDoc
      const df = this.#df
      const countAt = this.#dataLength
      let at = countAt + 1
      for (let i = 0; i < pairs; i++) {
        const id = ids[i] ?? 0
        const n = tf[id] ?? 0
        tf[id] = 0
        if (n < 128) data[at++] = id * 128 + n
        else {
          data[at++] = id * 128
          data[at++] = n
        }
        if (lastDoc[id] !== number) {
          lastDoc[id] = number
          df[id] = (df[id] ?? 0) + 1
        }
      }
      data[countAt] = pairs
      this.#dataLength = at
    }
  }

  /**
   * The range's postings, its first document numbered `docOffset`, given the sum of each
   * field's length over the documents before it (`totalsBefore`). Call once, after the last
   * `add`: the per-document lists are released as they are read (a full import's peak memory
   * holds the postings and what is left of the lists, not both whole).
   */
  finish(docOffset: number, totalsBefore: readonly number[]): RangePostings {
    return whole(this.#finish(null, docOffset, totalsBefore, Infinity))
  }

  /**
   * As `finish`, for the documents `order` lists (by the number `add` gave them, 0 for the
   * first added), in that order and no others: what `finish` gives when exactly those items are
   * added in that order. Terms are numbered anew in the order they first occur along `order`
   * (a term's pairs are kept in that order, field after field, so walking them finds terms
   * as `add` first met them), and terms of left-out documents only are dropped. For an index
   * fed as items are written (an import), in write order, then put in id order without
   * analysing anything again. Call once, after the last `add`.
   */
  finishInOrder(order: Int32Array, docOffset: number, totalsBefore: readonly number[]): RangePostings {
    return whole(this.#finish(order, docOffset, totalsBefore, Infinity))
  }

  /**
   * As `finish` (`order` null) or `finishInOrder`, with the postings made only as they are
   * read, the terms' postings in pieces of at most `maxPostings` (a term's own are never
   * split): what is known of the index before its postings (terms, counts, field totals) is
   * there at once, so that a snapshot's header can be written first, and only one piece of
   * the postings is in memory at a time (a full import of 1,000,000 items held ~1 GB of them
   * whole). Each piece after the first reads the per-document lists again (from the spill,
   * when there is one). Read the postings once, after which the lists are released.
   */
  finishInPieces(order: Int32Array | null, docOffset: number, totalsBefore: readonly number[], maxPostings: number): RangePieces {
    return this.#finish(order, docOffset, totalsBefore, maxPostings)
  }

  #finish(order: Int32Array | null, docOffset: number, totalsBefore: readonly number[], maxPostings: number): RangePieces {
    const n = order === null ? this.#count : order.length
    if (docOffset + n > MAX_DOCUMENTS) throw new Error(`A tenant's search index holds at most ${MAX_DOCUMENTS} items`)
    const chunks = this.#chunks
    const ends = [...this.#chunkUsed, this.#dataLength]
    const spill = this.#spill
    const spilledAt = this.#spilledAt
    // Hint: read in order, a spilled chunk is read back when reached; in another order, all of them first.
    const chunkAt = (c: number): Uint32Array => {
      const at = spilledAt[c]
      return spill === null || at === undefined ? (chunks[c] ?? EMPTY) : spill.read(at, ends[c] ?? 0)
    }
    if (order !== null) for (let c = 0; c < spilledAt.length; c++) chunks[c] = chunkAt(c)
    if (order !== null) spilledAt.length = 0
    let terms = this.#terms
    let count = terms.length
    let cjk = this.#cjk.slice(0, count)
    let used = this.#df.slice(0, count)
    // Hint: field lengths are integers, so their sums are exact whatever the order they are added in.
    const fieldTotals = Array.from(this.#fieldTotals)
    // Hint: `remap` null: the terms keep their numbers (every document, in the order added).
    let remap: Int32Array | null = null
    if (order !== null) {
      remap = new Int32Array(count).fill(-1)
      fieldTotals.fill(0)
      const renumbered: string[] = []
      const df = new Int32Array(count)
      const lastDoc = new Int32Array(count).fill(-1)
      for (let k = 0; k < n; k++) {
        const start = this.#docStarts[order[k] ?? 0] ?? 0
        let chunk = Math.floor(start / 2 ** 32)
        let data = chunks[chunk] ?? new Uint32Array(0)
        let end = ends[chunk] ?? 0
        let at = start % 2 ** 32
        for (let f = 0; f < FIELDS.length; f++) fieldTotals[f] = (fieldTotals[f] ?? 0) + (data[at + f] ?? 0)
        at += FIELDS.length
        for (let f = 0; f < FIELDS.length; f++) {
          if (at === end) {
            data = chunks[++chunk] ?? new Uint32Array(0)
            end = ends[chunk] ?? 0
            at = 0
          }
          const pairs = data[at++] ?? 0
          for (let p = 0; p < pairs; p++) {
            const packed = data[at++] ?? 0
            if ((packed & 127) === 0) at++
            const local = packed >>> 7
            let id = remap[local] ?? -1
            if (id === -1) {
              id = renumbered.length
              remap[local] = id
              renumbered.push(this.#terms[local] ?? '')
              cjk[id] = this.#cjk[local] ?? 0
            }
            if (lastDoc[id] !== k) {
              lastDoc[id] = k
              df[id] = (df[id] ?? 0) + 1
            }
          }
        }
      }
      terms = renumbered
      count = terms.length
      cjk = cjk.slice(0, count)
      used = df.slice(0, count)
    }
    // Pieces: terms [bounds[i], bounds[i + 1]), each with at most `maxPostings` postings (or one term).
    const bounds = [0]
    for (let id = 0, inPiece = 0; id < count; id++) {
      const postings = used[id] ?? 0
      if (inPiece > 0 && inPiece + postings > maxPostings) {
        bounds.push(id)
        inPiece = 0
      }
      inPiece += postings
    }
    bounds.push(count)
    const passes = bounds.length - 1
    const docs = !this.#keepDocs ? [] : order === null ? this.#docs : Array.from(order, (d) => this.#docs[d] as SearchDocument)
    const release = () => {
      this.#chunks.length = 0
      this.#spilledAt.length = 0
      this.#data = EMPTY
      this.#dataLength = 0
      spill?.close()
    }
    const pass = (from: number, to: number): Uint32Array<ArrayBuffer> => {
      const starts = new Int32Array(to - from)
      let total = 0
      for (let id = from; id < to; id++) {
        starts[id - from] = total
        total += used[id] ?? 0
      }
      const postings = new Uint32Array(total)
      const weight = new Float64Array(count)
      const docTerms = new Int32Array(count)
      const totals = Float64Array.from(FIELDS, (_, f) => totalsBefore[f] ?? 0)
      // Hint: with one pass, read in order, a chunk is left for good: released, so that the postings grow as the lists shrink.
      const releasing = order === null && passes === 1
      let chunk = 0
      let data = chunkAt(0)
      let end = ends[0] ?? 0
      let at = 0
      for (let d = 0; d < n; d++) {
        const doc = docOffset + d
        const fieldDocs = doc + 1
        if (order !== null) {
          const start = this.#docStarts[order[d] ?? 0] ?? 0
          chunk = Math.floor(start / 2 ** 32)
          data = chunks[chunk] ?? new Uint32Array(0)
          end = ends[chunk] ?? 0
          at = start % 2 ** 32
        } else if (at === end) {
          // Hint: each block lies whole in one chunk; where a chunk ends, the next block starts the next chunk.
          if (releasing) chunks[chunk] = EMPTY
          data = chunkAt(++chunk)
          end = ends[chunk] ?? 0
          at = 0
        }
        const header = data
        const lengths = at
        at += FIELDS.length
        let inDoc = 0
        // As `InvertedIndex.addDocument`: the same operations in the same order, so the same weights.
        for (let f = 0; f < FIELDS.length; f++) {
          const length = header[lengths + f] ?? 0
          const fieldTotal = (totals[f] ?? 0) + length
          totals[f] = fieldTotal
          if (at === end) {
            if (releasing) chunks[chunk] = EMPTY
            data = chunkAt(++chunk)
            end = ends[chunk] ?? 0
            at = 0
          }
          const pairs = data[at++] ?? 0
          if (length === 0) continue
          const norm = K1 * (1 - B + (B * length) / Math.max(1, fieldTotal / fieldDocs))
          const boost = BOOSTS[f] ?? 1
          for (let p = 0; p < pairs; p++) {
            const packed = data[at++] ?? 0
            const id = remap === null ? packed >>> 7 : (remap[packed >>> 7] ?? 0)
            const n = (packed & 127) === 0 ? (data[at++] ?? 0) : packed & 127
            if (id < from || id >= to) continue
            if (weight[id] === 0) docTerms[inDoc++] = id
            weight[id] = (weight[id] ?? 0) + boost * (DELTA + (n * (K1 + 1)) / (n + norm))
          }
        }
        for (let i = 0; i < inDoc; i++) {
          const id = docTerms[i] ?? 0
          const slot = starts[id - from] ?? 0
          postings[slot] = doc * 256 + weightCode(weight[id] ?? 0)
          starts[id - from] = slot + 1
          weight[id] = 0
        }
      }
      return postings
    }
    const pieces = function* (): Generator<Uint32Array<ArrayBuffer>> {
      try {
        for (let i = 0; i < passes; i++) yield pass(bounds[i] ?? 0, bounds[i + 1] ?? 0)
      } finally {
        release()
      }
    }
    return { terms, cjk, used, postings: pieces(), docs, documents: n, fieldTotals }
  }

  /**
   * With a spill, writes there the chunks filled since the last call (between two items: an
   * item's lengths are written after its fields, which may have begun a new chunk meanwhile).
   */
  #spillFull(): void {
    const spill = this.#spill
    if (spill === null) return
    for (let c = this.#spilledAt.length; c < this.#chunkUsed.length; c++) {
      this.#spilledAt[c] = spill.write((this.#chunks[c] ?? EMPTY).subarray(0, this.#chunkUsed[c] ?? 0))
      this.#chunks[c] = EMPTY
    }
  }

  /** Makes room for a block of `more` numbers: the rest of the current chunk, or a new one. */
  #reserve(more: number): void {
    if (this.#dataLength + more <= this.#data.length) return
    if (this.#chunks.length > 0) this.#chunkUsed.push(this.#dataLength)
    this.#data = new Uint32Array(Math.max(this.#chunkSize, more))
    this.#chunks.push(this.#data)
    this.#dataLength = 0
  }

  /** Counts an occurrence of term `id` in the field being analysed (`#tf`, and `#fieldTerms` the first time). */
  #counted(id: number): void {
    this.#fieldLength++
    // Hint: read after the lookup, which may have grown it for a new term.
    const tf = this.#tf
    const n = tf[id] ?? 0
    tf[id] = n + 1
    if (n > 0) return
    if (this.#distinct === this.#fieldTerms.length) this.#fieldTerms = grownInt(this.#fieldTerms)
    this.#fieldTerms[this.#distinct++] = id
  }

  #termId(term: string, cjk: boolean): number {
    this.#newCjk = cjk
    return this.#table.idOf(term)
  }

  /** Makes room for a new term's per-term numbers (the table numbers terms in the order they first occur). */
  #made(id: number): void {
    // Hint: a term id times 128 must fit the 32 bits of `#data` (2^25 distinct terms: far beyond any real vocabulary).
    if (id >= MAX_TERMS) throw new Error(`A range of a search index build holds at most ${MAX_TERMS} distinct terms`)
    if (id >= this.#df.length) {
      this.#cjk = grownBytes(this.#cjk)
      this.#df = grownInt(this.#df)
      this.#tf = grownInt(this.#tf)
      const lastDoc = new Int32Array(this.#lastDoc.length * 2).fill(-1)
      lastDoc.set(this.#lastDoc)
      this.#lastDoc = lastDoc
    }
    this.#cjk[id] = this.#newCjk ? 1 : 0
  }
}

function grownInt(array: Int32Array<ArrayBuffer>): Int32Array<ArrayBuffer> {
  const bigger = new Int32Array(array.length * 2)
  bigger.set(array)
  return bigger
}

function grownBytes(array: Uint8Array<ArrayBuffer>): Uint8Array<ArrayBuffer> {
  const bigger = new Uint8Array(array.length * 2)
  bigger.set(array)
  return bigger
}
