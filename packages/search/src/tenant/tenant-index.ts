import type { CategoryRecord, ContentRecord, QueryTerm, SearchDocument, SearchQuery, SearchResult } from '@frontdesk/core'
import { compareIds, matchesNarrowing, newestFirst, PHRASE_CANDIDATE_LIMIT, searchedTexts, searchQueryKey, visibleSince } from '@frontdesk/core'
import type { AnalyzedReader } from '../matching/analyzed-docs.ts'
import type { InvertedIndexData } from '../matching/inverted-index.ts'
import { InvertedIndex } from '../matching/inverted-index.ts'
import type { DocFilter, Eligibility, TermMatches } from '../matching/term-matcher.ts'
import { TermMatcher } from '../matching/term-matcher.ts'
import type { DocColumns, StoredDocs } from './doc-table.ts'
import { DocColumnsWriter, DocTable } from './doc-table.ts'
import { EligibleBits } from './eligible-bits.ts'
import { FieldColumns } from './field-columns.ts'
import { PublishedKeys } from './published-keys.ts'
import type { RankedDocs } from './rank-page.ts'
import { comparatorPage, keyedPage, relevancePage } from './rank-page.ts'
import { SearchMemory } from './search-memory.ts'

/** Changes whenever what this file puts in the index or its snapshot changes: older snapshots are then rebuilt. */
export const INDEX_FORMAT = 5

/** A tenant index as plain data (JSON-safe), its items' columns and its postings, for a snapshot file (see `toSnapshot`). */
export interface TenantSnapshot {
  categories: CategoryRecord[]
  /** The live items, in document-number order. */
  docs: DocColumns
  index: InvertedIndexData
  /** Every term's postings in term id order, in one or more pieces (read back as one). */
  postings: Uint32Array[]
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
  /** The items by document number (see `DocTable`: those of a snapshot are parsed when first needed). */
  #docs: DocTable
  /** By document number: core's `visibleSince` of the item (ms; NaN for never, and for a dead one). */
  #visibleFrom = new Float64Array(1024)
  /** By document number: the item's category, numbered by `#categoryNumbers`. */
  #categoryOf = new Uint32Array(1024)
  readonly #categoryNumbers = new Map<string, number>()
  /** `published_at` by document number, as numbers that sort as the strings do (restored from a snapshot, else made on first use). */
  readonly #published = new PublishedKeys()
  /** Custom-field values by document number, for filters and sorts (made on first use, from a snapshot's columns for its items). */
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
  readonly #eligibility: EligibleBits
  readonly #memory = new SearchMemory()
  /** Changes with every category change (which may change what is searchable). */
  #categoryChanges = 0
  /** Changes with every item added, removed or renumbered: what the matcher remembers is valid for one version. */
  #version = 0

  /** An empty index knowing the tenant's categories, or one restored from `toSnapshot()` data (or a bulk build's, its items as objects). */
  constructor(categories: readonly CategoryRecord[], restored?: Omit<TenantSnapshot, 'categories' | 'docs'> & { docs: DocColumns | SearchDocument[] }, options: TenantIndexOptions = {}) {
    this.#memo = options.memo ?? true
    for (const category of categories) this.#categories.set(category.id, category)
    this.#index = restored === undefined ? new InvertedIndex() : new InvertedIndex({ data: restored.index, postings: joined(restored.postings) })
    this.#matcher = new TermMatcher(this.#index, this.#memo, (id) => this.#heldBy(id))
    this.#eligibility = new EligibleBits(this.#memo)
    const stored = restored === undefined || restored.docs instanceof Array ? null : storedDocs(restored.docs)
    this.#docs = new DocTable(stored)
    if (stored !== null) this.#restoreColumns(stored)
    else if (restored?.docs instanceof Array) for (const doc of restored.docs) this.#addDoc(doc)
  }

  /** The index as plain data and a buffer, to restore with the constructor. */
  toSnapshot(): TenantSnapshot {
    this.#compact()
    const { data, chunks } = this.#index.toChunks()
    const writer = new DocColumnsWriter()
    const encoder = new TextEncoder()
    const json: Uint8Array[] = []
    const stored = this.#docs.stored
    // The stored items' bytes one after the other in the snapshot's block, as one view (not one per item).
    let run: [number, number] | null = null
    const endRun = () => {
      if (run !== null && stored !== null) json.push(stored.json.subarray(run[0], run[1]))
      run = null
    }
    for (let number = 0; number < this.#docs.length; number++) {
      const at = this.#docs.storedAt(number)
      if (at >= 0 && stored !== null) {
        // Hint: a snapshot's item is copied as its bytes and columns, never parsed.
        writer.addStored(stored, at)
        const start = at === 0 ? 0 : (stored.jsonEnds[at - 1] ?? 0)
        if (run === null || run[1] !== start) {
          endRun()
          run = [start, start]
        }
        run[1] = stored.jsonEnds[at] ?? 0
        continue
      }
      endRun()
      const doc = this.#docs.at(number)
      if (doc === undefined) continue
      const bytes = encoder.encode(JSON.stringify(doc))
      writer.add(doc, bytes.length)
      json.push(bytes)
    }
    endRun()
    return { categories: [...this.#categories.values()], docs: writer.finish(null, json), index: data, postings: chunks }
  }

  /** Number of items indexed (any status). */
  get size(): number {
    return this.#docs.live
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
    const item = searchDocumentOf(record)
    const doc = this.#addDoc(item)
    this.#index.addDocument(doc, searchedTexts(record.title, record.summary, record.body, item.tags, record.fields, this.#categories.get(record.category_id)))
  }

  /**
   * Adds or replaces an item whose indexed terms were analysed before (the reader's next
   * document, see `AnalyzedDocs`) with the categories this index holds: the index `upsert` of
   * its record would make.
   */
  upsertAnalyzed(item: SearchDocument, reader: AnalyzedReader): void {
    this.remove(item.id)
    this.#version++
    this.#index.addAnalyzed(this.#addDoc(item), reader)
  }

  /**
   * `upsertAnalyzed` of each item in turn (the reader's next documents), their postings
   * appended a term at a time (`InvertedIndex.addAnalyzedAll`): what a start applies a
   * snapshot's delta with, and the replay's items analysed beforehand (see `applyChanges`).
   * The replaced items are removed first, so that a compaction this
   * sets off renumbers only items whose postings are in place; items named twice are
   * upserted one by one.
   */
  upsertAnalyzedAll(items: readonly SearchDocument[], reader: AnalyzedReader): void {
    if (new Set(items.map((item) => item.id)).size !== items.length) {
      for (const item of items) this.upsertAnalyzed(item, reader)
      return
    }
    for (const item of items) this.remove(item.id)
    const docs = items.map((item) => {
      this.#version++
      return this.#addDoc(item)
    })
    this.#index.addAnalyzedAll(docs, reader)
  }

  /** Removes an item (no-op when absent). */
  remove(id: string): void {
    const doc = this.#docs.numberOf(id)
    if (doc === undefined) return
    this.#version++
    this.#published.remove(doc)
    this.#docs.remove(doc)
    this.#visibleFrom[doc] = Number.NaN
    this.#dead++
    // Dead postings cost memory and scanning time: drop them once they are a quarter of all.
    if (this.#dead > 1000 && this.#dead > this.#docs.live / 4) this.#compact()
  }

  /** Ids of the indexed items of a category. */
  idsInCategory(categoryId: string): string[] {
    const ids: string[] = []
    const wanted = this.#categoryNumbers.get(categoryId)
    if (wanted === undefined) return ids
    for (let doc = 0; doc < this.#docs.length; doc++) if (this.#categoryOf[doc] === wanted && this.#docs.has(doc)) ids.push(this.#docs.id(doc))
    return ids
  }

  /**
   * One page of visible matching items, as the search port describes. A search asked again
   * while nothing it depends on changed (no item added, changed or removed, no category
   * changed, no item become visible since) gets the page it got the first time, without
   * matching again (see `SearchMemory`).
   */
  search(query: SearchQuery, phraseHolders?: readonly number[]): SearchResult {
    if (query.terms.length === 0) return { total: 0, hits: [] }
    const eligible = this.#eligible(query)
    if (eligible === null) return { total: 0, hits: [] }
    const bits = query.excluded === undefined || query.excluded.length === 0 ? eligible : this.#without(query.excluded, eligible)
    // Hint: which items hold a phrase was read from the store for this search: nothing to remember it by.
    if (phraseHolders !== undefined) return phraseHolders.length === 0 ? { total: 0, hits: [] } : this.#search(query, only(bits, phraseHolders))
    if (!this.#memo) return this.#search(query, bits)
    const key = searchQueryKey(query)
    // Hint: the eligible set as remembered, not its copy less the excluded terms' documents (the key holds those terms; the version, the index they were matched in).
    const state = { version: this.#version, categories: this.#categoryChanges, bits: eligible }
    const known = this.#memory.get(key, state)
    if (known !== undefined) return known
    const result = this.#search(query, bits)
    this.#memory.remember(key, state, result)
    return result
  }

  /**
   * The items to check for the query's phrases (core's rule, see `SearchQuery.phrases`): the
   * first `PHRASE_CANDIDATE_LIMIT` by `newestFirst` of the visible items (in the category asked for)
   * matching every term of every phrase, as document numbers and the items they hold.
   */
  phraseCandidates(query: SearchQuery): { doc: number; item: SearchDocument }[] {
    const terms = (query.phrases ?? []).flatMap((phrase) => phrase.terms)
    const eligible = terms.length === 0 ? null : this.#eligible(query)
    if (eligible === null) return []
    const docs = this.#docs.length
    const matches = this.#matcher.match(terms, docs, docs, { bits: eligible, filter: null }, this.#version, 0)
    const found: number[] = []
    for (let i = 0; i < matches.length; i++) {
      const doc = matches.docs[i] ?? 0
      if (this.#docs.has(doc)) found.push(doc)
    }
    if (found.length > PHRASE_CANDIDATE_LIMIT) {
      // Newest first, as core's rule says; by the numeric keys of the dates when every date has one (see `PublishedKeys`; kept only with memos), not parsing a snapshot's items.
      const keys = this.#memo ? this.#published.keys(this.#docs) : null
      const docs = this.#docs
      found.sort(keys === null ? (a, b) => newestFirst(docs.at(a) ?? NO_DOC, docs.at(b) ?? NO_DOC) : (a, b) => (keys[b] ?? 0) - (keys[a] ?? 0) || compareIds(docs.id(b), docs.id(a)))
      found.length = PHRASE_CANDIDATE_LIMIT
    }
    return found.map((doc) => ({ doc, item: this.#docs.at(doc) ?? NO_DOC }))
  }

  /** How many live items hold index term `id`: its postings, less those of dead documents while there are some. */
  #heldBy(id: number): number {
    const { list, length } = this.#index.postings(id)
    if (this.#dead === 0) return length
    const docs = this.#docs
    let held = 0
    for (let i = 0; i < length; i++) if (docs.has((list[i] ?? 0) >>> 8)) held++
    return held
  }

  /** The documents the query may return as far as visibility and its category decide (remembered: not to be changed), `null`: none. */
  #eligible(query: SearchQuery): Uint32Array | null {
    // Hint: an unreadable time makes nothing visible, as core's `isVisibleAt` (NaN compares false).
    const now = Date.parse(query.now)
    // The category filter from the typed array too: most candidates of a common word are in other categories.
    const wanted = query.categoryId === null ? -1 : this.#categoryNumbers.get(query.categoryId)
    if (wanted === undefined) return null
    const allowed = new Uint8Array(this.#categoryNumbers.size)
    for (const category of this.#categories.values()) {
      const number = this.#categoryNumbers.get(category.id)
      if (category.active && number !== undefined && (wanted < 0 || number === wanted)) allowed[number] = 1
    }
    // Visibility and category are decided inside the matcher, from a bit set, before any object is touched.
    return this.#eligibility.get(this.#visibleFrom, this.#categoryOf, this.#docs.length, allowed, now, this.#version)
  }

  /**
   * `search` without the memory of recent searches. When no item has every term, the items
   * with the most of them (no dead ends: core's rule, as the scan search applies it), among
   * those the query's filters let through.
   */
  #search(query: SearchQuery, bits: Uint32Array): SearchResult {
    // Field filters from the columns when they can, applied by the matcher with the eligibility
    // bits; tag filters (and fields beyond the columns' cap) by `#narrows`.
    const filter = query.filters.length > 0 && this.#memo ? (this.#columns.compile(query.filters, this.#docs) ?? null) : null
    const narrowed = query.tags !== null || (query.filters.length > 0 && filter === null)
    const all = this.#page(query, { bits, filter }, narrowed, false)
    if (all.total > 0 || query.terms.length < 2) return all
    // Hint: the narrowing goes into the matcher's filter here, so that "most" counts only items it lets through.
    const narrowing: DocFilter | null = !narrowed ? filter : { passes: (doc) => (filter === null || filter.passes(doc)) && this.#narrows(doc, query, filter) }
    return this.#page(query, { bits, filter: narrowing }, false, true)
  }

  /** One page of the items matching every term (`most`: the most terms), filtered by `eligible`, then by the query's narrowing when `narrowed`. */
  #page(query: SearchQuery, eligible: Eligibility, narrowed: boolean, most: boolean): SearchResult {
    const ranked: RankedDocs = { docs: this.#docs, ordered: this.#ordered, published: null, narrows: (doc) => this.#narrows(doc, query, eligible.filter) }
    const sort = query.sort
    if (sort.kind === 'relevance') {
      // Ranked by score with nothing left to drop: the matcher hands over only the matches that may make the page; ties newest first, by the dates' numeric keys.
      ranked.published = this.#memo ? this.#published.keys(this.#docs) : null
      const best = narrowed ? 0 : query.from + query.size
      const matches = this.#match(query, eligible, best, most)
      return relevancePage(matches, ranked, query, narrowed, best > 0)
    }
    const matches = this.#match(query, eligible, 0, most)
    const sign = sort.direction === 'asc' ? 1 : -1
    const keys = !narrowed && sort.kind === 'published_at' && this.#memo ? this.#published.keys(this.#docs) : null
    if (keys !== null) return keyedPage(matches, ranked, query, (doc) => sign * (keys[doc] ?? 0), sign)
    const column = !narrowed && sort.kind === 'field' && this.#memo ? this.#columns.column(sort.fieldIds, this.#docs) : undefined
    if (column !== undefined) {
      const ranks = column.ranks()
      const codes = column.codes
      // Items lacking the field come last in both directions.
      return keyedPage(matches, ranked, query, (doc) => {
        const code = codes[doc] ?? -1
        return code < 0 ? Number.POSITIVE_INFINITY : sign * (ranks[code] ?? 0)
      }, sign)
    }
    return comparatorPage(matches, ranked, query, narrowed)
  }

  /**
   * Whether live document `doc` passes the query's category, tags and field filters (core's
   * `matchesNarrowing`), the tags from a snapshot's columns and the filters left to the item
   * only when no compiled `filter` took them (the matcher applies it), so that a snapshot's
   * items are parsed only for filters the columns could not take.
   */
  #narrows(doc: number, query: SearchQuery, filter: DocFilter | null): boolean {
    if (!this.#docs.has(doc)) return false
    if (query.categoryId !== null && this.#categoryOf[doc] !== this.#categoryNumbers.get(query.categoryId)) return false
    if (query.tags !== null && !this.#docs.hasTag(doc, query.tags)) return false
    if (query.filters.length === 0 || filter !== null) return true
    const item = this.#docs.at(doc)
    return item !== undefined && matchesNarrowing(item, query)
  }

  /** `bits` (not changed: they may be remembered) less the documents matching any of `excluded` (`-word`). */
  #without(excluded: readonly QueryTerm[], bits: Uint32Array): Uint32Array {
    const kept = bits.slice()
    const docs = this.#docs.length
    for (const term of excluded) {
      const matches = this.#matcher.match([term], docs, docs, { bits: kept, filter: null }, this.#version, 0)
      for (let i = 0; i < matches.length; i++) {
        const doc = matches.docs[i] ?? 0
        kept[doc >>> 5] = (kept[doc >>> 5] ?? 0) & ~(1 << (doc & 31))
      }
    }
    return kept
  }

  #match(query: SearchQuery, eligible: Eligibility, top: number, most: boolean): TermMatches {
    const docs = this.#docs.length
    return most ? this.#matcher.matchMost(query.terms, docs, docs, eligible, this.#version, top) : this.#matcher.match(query.terms, docs, docs, eligible, this.#version, top)
  }

  #addDoc(doc: SearchDocument): number {
    const number = this.#docs.add(doc)
    if (number === this.#ordered && (number === 0 || this.#lastOrderedId < doc.id)) {
      this.#ordered++
      this.#lastOrderedId = doc.id
    }
    if (number >= this.#visibleFrom.length) this.#grow(this.#visibleFrom.length * 2)
    this.#visibleFrom[number] = visibleSince(doc)
    this.#published.add(number, doc)
    this.#categoryOf[number] = this.#categoryNumber(doc.category_id)
    this.#columns.add(number, doc, this.#visibleFrom.length)
    return number
  }

  #categoryNumber(categoryId: string): number {
    let category = this.#categoryNumbers.get(categoryId)
    if (category === undefined) {
      category = this.#categoryNumbers.size
      this.#categoryNumbers.set(categoryId, category)
    }
    return category
  }

  /** Makes the by-number arrays `capacity` long. */
  #grow(capacity: number): void {
    const grown = new Float64Array(capacity)
    grown.set(this.#visibleFrom.subarray(0, Math.min(capacity, this.#visibleFrom.length)))
    this.#visibleFrom = grown
    const categories = new Uint32Array(capacity)
    categories.set(this.#categoryOf.subarray(0, Math.min(capacity, this.#categoryOf.length)))
    this.#categoryOf = categories
  }

  /** What the index keeps of a snapshot's items, from its columns (its items themselves are left as bytes: see `DocTable`). */
  #restoreColumns(docs: StoredDocs): void {
    const count = docs.count
    this.#grow(Math.max(1024, count + (count >>> 3)))
    this.#visibleFrom.set(docs.visibleFrom)
    const numbers = docs.categoryIds.map((id) => this.#categoryNumber(id))
    const categoryOf = this.#categoryOf
    for (let doc = 0; doc < count; doc++) categoryOf[doc] = numbers[docs.categoryOf[doc] ?? 0] ?? 0
    this.#published.restore(docs.published, count)
    this.#ordered = docs.ordered
    this.#lastOrderedId = docs.ordered === 0 ? '' : this.#docs.id(docs.ordered - 1)
  }

  /** Drops dead items: renumbers the live ones (in order) and their postings, not parsing a snapshot's items. */
  #compact(): void {
    if (this.#dead === 0) return
    this.#version++
    const length = this.#docs.length
    const renumber = this.#docs.compact()
    const keys = this.#published
    keys.renumber(renumber, this.#docs.length)
    const visibleFrom = this.#visibleFrom
    const categoryOf = this.#categoryOf
    this.#visibleFrom = new Float64Array(Math.max(1024, this.#docs.length + (this.#docs.length >>> 3)))
    this.#categoryOf = new Uint32Array(this.#visibleFrom.length)
    this.#ordered = 0
    this.#lastOrderedId = ''
    let runs = true
    for (let old = 0; old < length; old++) {
      const doc = renumber[old] ?? -1
      if (doc < 0) continue
      this.#visibleFrom[doc] = visibleFrom[old] ?? Number.NaN
      this.#categoryOf[doc] = categoryOf[old] ?? 0
      if (runs) {
        const id = this.#docs.id(doc)
        if (doc === 0 || this.#lastOrderedId < id) {
          this.#ordered++
          this.#lastOrderedId = id
        } else runs = false
      }
    }
    this.#columns.clear()
    this.#dead = 0
    this.#index.compact(renumber)
  }
}

/** `docs` as restored columns: their items' JSON as one block (what `decodeSnapshot` gives). */
function storedDocs(docs: DocColumns): StoredDocs {
  if (!(docs.json instanceof Uint8Array)) throw new Error("A restored index needs its items' JSON as one block")
  return docs as StoredDocs
}

/** Stands for an item that is not there (never: the numbers asked for are live). */
const NO_DOC: SearchDocument = { id: '', category_id: '', status: 'draft', published_at: null, tags: [], fields: {} }

/** What the index keeps of an item beside its postings. */
export function searchDocumentOf(record: ContentRecord): SearchDocument {
  return { id: record.id, category_id: record.category_id, status: record.status, published_at: record.published_at, tags: record.tags.map((tag) => tag.name), fields: record.fields }
}

/** The bits of `bits` (not changed) that are documents of `docs`. */
function only(bits: Uint32Array, docs: readonly number[]): Uint32Array {
  const kept = new Uint32Array(bits.length)
  for (const doc of docs) kept[doc >>> 5] = (kept[doc >>> 5] ?? 0) | ((bits[doc >>> 5] ?? 0) & (1 << (doc & 31)))
  return kept
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

