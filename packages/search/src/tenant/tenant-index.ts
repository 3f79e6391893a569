import type { CategoryRecord, ContentRecord, ScoredDocument, SearchDocument, SearchQuery, SearchResult } from '@frontdesk/core'
import { compareIds, matchesNarrowing, searchComparator, searchedTexts, searchQueryKey, visibleSince } from '@frontdesk/core'
import type { InvertedIndexData } from '../matching/inverted-index.ts'
import { InvertedIndex } from '../matching/inverted-index.ts'
import { TermMatcher } from '../matching/term-matcher.ts'
import { FieldColumns } from './field-columns.ts'
import { TopHits } from './top-hits.ts'

/** Changes whenever what this file puts in the index or its snapshot changes: older snapshots are then rebuilt. */
export const INDEX_FORMAT = 4

/** A tenant index as plain data (JSON-safe) and its postings, for a snapshot file (see `toSnapshot`). */
export interface TenantSnapshot {
  categories: CategoryRecord[]
  /** The live items, in document-number order. */
  docs: SearchDocument[]
  index: InvertedIndexData
  /** Every term's postings in term id order, in one or more pieces (read back as one). */
  postings: Uint32Array[]
}

/** At most this many eligibility bit sets are kept (one per set of searchable categories: all, or one category). */
const MAX_ELIGIBILITY_SETS = 32

/** At most this many recent searches' pages are remembered (see `TenantSearchIndex.search`)... */
export const MAX_REMEMBERED_SEARCHES = 1024
/** ...holding at most this many hits in all (~2 MB per tenant). */
export const MAX_REMEMBERED_HITS = 20_000

/** A matching item as the index ranks it: with its document number. */
interface Hit extends ScoredDocument {
  number: number
}

/** Options of a `TenantSearchIndex`. */
export interface TenantIndexOptions {
  /**
   * Keep what is worth keeping between searches: pages of recent searches, eligibility bit
   * sets, term expansions and merged matches, custom-field columns. `false` computes every
   * search from the index alone (the same answers, slower: tests prove the memos change speed
   * only). Default true.
   */
  memo?: boolean
}

/**
 * One tenant's full-text index: an `InvertedIndex` of the items' text (scores use this
 * tenant's items only) plus what filters and sorts need of each item and the tenant's
 * categories. Items are numbered in the order they are indexed; a changed item gets a new
 * number and its old one becomes dead until the next compaction. Every item is indexed
 * whatever its status; visibility is decided at query time (core's rule, `visibleSince` and
 * `isVisibleAt`, compiled into a bit set), so that scheduled items appear by themselves and a
 * category switched off or on needs no re-indexing.
 */
export class TenantSearchIndex {
  readonly #memo: boolean
  readonly #index: InvertedIndex
  readonly #matcher: TermMatcher
  readonly #categories = new Map<string, CategoryRecord>()
  readonly #numbers = new Map<string, number>()
  /** By document number; `undefined` once dead. */
  #docs: (SearchDocument | undefined)[] = []
  /** By document number: core's `visibleSince` of the item (ms; NaN for never, and for a dead one). */
  #visibleFrom = new Float64Array(1024)
  /** By document number: the item's category, numbered by `#categoryNumbers`. */
  #categoryOf = new Uint32Array(1024)
  readonly #categoryNumbers = new Map<string, number>()
  /** Custom-field values by document number, for filters (made on first use; not in snapshots). */
  readonly #columns = new FieldColumns()
  #dead = 0
  /**
   * Documents numbered below this have strictly increasing ids (a bulk build and a snapshot add
   * them in id order; an item added later with a smaller id ends the run): among them, number
   * order is id order.
   */
  #ordered = 0
  /** The id of document `#ordered - 1` (dead or not). */
  #lastOrderedId = ''
  /** Eligible documents by allowed categories (see `#eligibleBits`). */
  readonly #eligibility = new Map<string, { bits: Uint32Array; version: number; from: number; until: number }>()
  /**
   * Recent searches' results by query (all of it but `now`), each valid for the index version,
   * category state and eligibility bit set (visibility at `now`) it was computed with.
   */
  readonly #results = new Map<string, { version: number; categories: number; bits: Uint32Array; result: SearchResult }>()
  /** Hits held by `#results`. */
  #rememberedHits = 0
  /** Changes with every category change (which may change what is searchable). */
  #categoryChanges = 0
  /** Changes with every item added, removed or renumbered: what the matcher remembers is valid for one version. */
  #version = 0

  /** An empty index knowing the tenant's categories, or one restored from `toSnapshot()` data. */
  constructor(categories: readonly CategoryRecord[], restored?: Omit<TenantSnapshot, 'categories'>, options: TenantIndexOptions = {}) {
    this.#memo = options.memo ?? true
    for (const category of categories) this.#categories.set(category.id, category)
    this.#index = restored === undefined ? new InvertedIndex() : new InvertedIndex({ data: restored.index, postings: joined(restored.postings) })
    this.#matcher = new TermMatcher(this.#index, this.#memo)
    for (const doc of restored?.docs ?? []) this.#addDoc(doc)
  }

  /** The index as plain data and a buffer, to restore with the constructor. */
  toSnapshot(): TenantSnapshot {
    this.#compact()
    const { data, chunks } = this.#index.toChunks()
    return { categories: [...this.#categories.values()], docs: this.#docs.filter((doc) => doc !== undefined), index: data, postings: chunks }
  }

  /** Number of items indexed (any status). */
  get size(): number {
    return this.#numbers.size
  }

  /** The category as last seen, or `undefined`. */
  category(id: string): CategoryRecord | undefined {
    return this.#categories.get(id)
  }

  /** Records a category's current state (`null`: it is gone). */
  setCategory(id: string, category: CategoryRecord | null): void {
    this.#categoryChanges++
    if (category === null) this.#categories.delete(id)
    else this.#categories.set(id, category)
  }

  /** Adds or replaces an item. */
  upsert(record: ContentRecord): void {
    this.remove(record.id)
    this.#version++
    const tags = record.tags.map((tag) => tag.name)
    const doc = this.#addDoc({ id: record.id, category_id: record.category_id, status: record.status, published_at: record.published_at, tags, fields: record.fields })
    this.#index.addDocument(doc, searchedTexts(record.title, record.summary, record.body, tags, record.fields, this.#categories.get(record.category_id)))
  }

  /** Removes an item (no-op when absent). */
  remove(id: string): void {
    const doc = this.#numbers.get(id)
    if (doc === undefined) return
    this.#version++
    this.#numbers.delete(id)
    this.#docs[doc] = undefined
    this.#visibleFrom[doc] = Number.NaN
    this.#dead++
    // Dead postings cost memory and scanning time: drop them once they are a quarter of all.
    if (this.#dead > 1000 && this.#dead > this.#numbers.size / 4) this.#compact()
  }

  /** Ids of the indexed items of a category. */
  idsInCategory(categoryId: string): string[] {
    const ids: string[] = []
    for (const doc of this.#docs) if (doc !== undefined && doc.category_id === categoryId) ids.push(doc.id)
    return ids
  }

  /**
   * One page of visible matching items, as the search port describes. A search asked again
   * while nothing it depends on changed (no item added, changed or removed, no category
   * changed, no item become visible since) gets the page it got the first time, without
   * matching again: popular searches repeat, and a common word's exact `total` reads all its
   * postings. At most `MAX_REMEMBERED_SEARCHES` are kept, the least recently asked dropped.
   */
  search(query: SearchQuery): SearchResult {
    if (query.terms.length === 0) return { total: 0, hits: [] }
    // Hint: an unreadable time makes nothing visible, as core's `isVisibleAt` (NaN compares false).
    const now = Date.parse(query.now)
    // The category filter from the typed array too: most candidates of a common word are in other categories.
    const wanted = query.categoryId === null ? -1 : this.#categoryNumbers.get(query.categoryId)
    if (wanted === undefined) return { total: 0, hits: [] }
    const allowed = new Uint8Array(this.#categoryNumbers.size)
    for (const category of this.#categories.values()) {
      const number = this.#categoryNumbers.get(category.id)
      if (category.active && number !== undefined && (wanted < 0 || number === wanted)) allowed[number] = 1
    }
    // Visibility and category are decided inside the matcher, from a bit set, before any object is touched.
    const eligible = { bits: this.#eligibleBits(allowed, now) }
    if (!this.#memo) return this.#search(query, eligible)
    const key = searchQueryKey(query)
    const known = this.#results.get(key)
    if (known !== undefined) {
      this.#results.delete(key)
      if (known.version === this.#version && known.categories === this.#categoryChanges && known.bits === eligible.bits) {
        this.#results.set(key, known)
        return { total: known.result.total, hits: known.result.hits.slice() }
      }
      this.#rememberedHits -= known.result.hits.length
    }
    const result = this.#search(query, eligible)
    this.#remember(key, { version: this.#version, categories: this.#categoryChanges, bits: eligible.bits, result: { total: result.total, hits: result.hits.slice() } })
    return result
  }

  /** Keeps a search's page, dropping the least recently asked ones beyond the bounds. */
  #remember(key: string, entry: { version: number; categories: number; bits: Uint32Array; result: SearchResult }): void {
    const hits = entry.result.hits.length
    if (hits > MAX_REMEMBERED_HITS) return
    // Hint: the hits are handed out again: frozen, so a caller changing one cannot change what is remembered.
    for (const hit of entry.result.hits) Object.freeze(hit)
    for (const [oldKey, old] of this.#results) {
      if (this.#results.size < MAX_REMEMBERED_SEARCHES && this.#rememberedHits + hits <= MAX_REMEMBERED_HITS) break
      this.#results.delete(oldKey)
      this.#rememberedHits -= old.result.hits.length
    }
    this.#results.set(key, entry)
    this.#rememberedHits += hits
  }

  /** `search` without the memory of recent searches. */
  #search(query: SearchQuery, eligible: { bits: Uint32Array }): SearchResult {
    // Field filters from the columns when they can, in one pass over the matches; tag filters
    // (and fields beyond the columns' cap) from the items.
    const filter = query.filters.length > 0 && this.#memo ? this.#columns.compile(query.filters, this.#docs) : undefined
    const narrowed = query.tags !== null || (query.filters.length > 0 && filter === undefined)
    const relevance = query.sort.kind === 'relevance'
    // Ranked by score with nothing left to drop: the matcher hands over only the matches that may make the page.
    const best = relevance && !narrowed && filter === undefined ? query.from + query.size : 0
    const matches = this.#matcher.match(query.terms, this.#docs.length, this.#numbers.size, eligible, this.#version, best)
    if (filter !== undefined) matches.length = filter.keep(matches.docs, matches.scores, matches.length)
    const ordered = this.#ordered
    // Relevance ties are broken by id: by number where numbers follow the ids (see `#ordered`), which
    // spares comparing strings (common words tie a lot: a posting's weight is one of 256 values).
    const compare: (a: Hit, b: Hit) => number = relevance
      ? (a, b) => b.score - a.score || (a.number < ordered && b.number < ordered ? a.number - b.number : compareIds(a.doc.id, b.doc.id))
      : searchComparator(query.sort)
    const top = new TopHits<Hit>(query.from + query.size, compare)
    const docs = this.#docs
    const numbers = matches.docs
    const scores = matches.scores
    const length = matches.length
    let total = 0
    // The worst kept candidate once `k` are kept: a candidate must beat it to be offered. Most
    // candidates of a common word are turned away by comparing scores, ties without making a hit.
    let worst: Hit | undefined
    // Its score, -Infinity until then (a local number: the common-word loop below compares nothing else).
    let bar = Number.NEGATIVE_INFINITY
    if (relevance && !narrowed) {
      total = best > 0 ? matches.total : length
      // No match below the page's lowest score can make the page.
      bar = matches.floor
      for (let i = 0; i < length; i++) {
        const score = scores[i] ?? 0
        if (score < bar) continue
        const number = numbers[i] ?? 0
        if (score === bar && worst !== undefined && (number < ordered && worst.number < ordered ? number > worst.number : compareIds(docs[number]?.id ?? '', worst.doc.id) >= 0)) continue
        const doc = docs[number]
        if (doc === undefined) continue
        top.push({ doc, score, number })
        worst = top.threshold
        if (worst !== undefined) bar = worst.score
      }
    } else {
      for (let i = 0; i < length; i++) {
        const number = numbers[i] ?? 0
        if (narrowed) {
          const doc = docs[number]
          if (doc === undefined || !matchesNarrowing(doc, query)) continue
        }
        total++
        const score = scores[i] ?? 0
        if (relevance && worst !== undefined && score <= worst.score) {
          if (score < worst.score) continue
          if (number < ordered && worst.number < ordered ? number > worst.number : compareIds(docs[number]?.id ?? '', worst.doc.id) >= 0) continue
        }
        const doc = docs[number]
        if (doc === undefined) continue
        top.push({ doc, score, number })
        if (relevance) worst = top.threshold
      }
    }
    return { total, hits: top.sorted().slice(query.from).map(({ doc, score }) => ({ id: doc.id, score })) }
  }

  /**
   * The documents visible at `now` in the categories `allowed` marks, as a bit set (see
   * `Eligibility`), made once and kept while it holds: for this version of the index, from the
   * time it was made until the next item becomes visible (time only ever makes items visible).
   */
  #eligibleBits(allowed: Uint8Array, now: number): Uint32Array {
    const key = allowed.join('')
    const kept = this.#memo ? this.#eligibility.get(key) : undefined
    if (kept !== undefined && kept.version === this.#version && kept.from <= now && now < kept.until) return kept.bits
    const count = this.#docs.length
    const bits = new Uint32Array((count + 31) >>> 5)
    const visibleFrom = this.#visibleFrom
    const categoryOf = this.#categoryOf
    let until = Number.POSITIVE_INFINITY
    for (let doc = 0; doc < count; doc++) {
      const from = visibleFrom[doc] ?? Number.NaN
      // Core's `isVisibleAt(from, allowed, now)`, by category number; NaN (never visible, dead) fails both comparisons.
      if (from <= now) {
        if (allowed[categoryOf[doc] ?? 0] === 1) bits[doc >>> 5] = (bits[doc >>> 5] ?? 0) | (1 << (doc & 31))
      } else if (from < until) until = from
    }
    if (!this.#memo) return bits
    if (this.#eligibility.size >= MAX_ELIGIBILITY_SETS) this.#eligibility.clear()
    this.#eligibility.set(key, { bits, version: this.#version, from: now, until })
    return bits
  }

  #addDoc(doc: SearchDocument): number {
    const number = this.#docs.length
    this.#docs.push(doc)
    this.#numbers.set(doc.id, number)
    if (number === this.#ordered && (number === 0 || this.#lastOrderedId < doc.id)) {
      this.#ordered++
      this.#lastOrderedId = doc.id
    }
    if (number >= this.#visibleFrom.length) {
      const grown = new Float64Array(this.#visibleFrom.length * 2)
      grown.set(this.#visibleFrom)
      this.#visibleFrom = grown
      const categories = new Uint32Array(grown.length)
      categories.set(this.#categoryOf)
      this.#categoryOf = categories
    }
    this.#visibleFrom[number] = visibleSince(doc)
    let category = this.#categoryNumbers.get(doc.category_id)
    if (category === undefined) {
      category = this.#categoryNumbers.size
      this.#categoryNumbers.set(doc.category_id, category)
    }
    this.#categoryOf[number] = category
    this.#columns.add(number, doc, this.#visibleFrom.length)
    return number
  }

  /** Drops dead items: renumbers the live ones (in order) and their postings. */
  #compact(): void {
    if (this.#dead === 0) return
    this.#version++
    const renumber = new Int32Array(this.#docs.length).fill(-1)
    const docs = this.#docs
    this.#docs = []
    this.#ordered = 0
    this.#lastOrderedId = ''
    this.#numbers.clear()
    this.#columns.clear()
    this.#dead = 0
    docs.forEach((doc, old) => {
      if (doc !== undefined) renumber[old] = this.#addDoc(doc)
    })
    this.#index.compact(renumber)
  }
}

/** One buffer of the pieces (the piece itself when there is one: a snapshot's postings are read as one). */
function joined(pieces: readonly Uint32Array[]): Uint32Array {
  if (pieces.length === 1 && pieces[0] !== undefined) return pieces[0]
  const all = new Uint32Array(pieces.reduce((sum, piece) => sum + piece.length, 0))
  let offset = 0
  for (const piece of pieces) {
    all.set(piece, offset)
    offset += piece.length
  }
  return all
}
