import type { CategoryRecord, ContentRecord, FieldValue, SearchDocument } from '@frontdesk/core'
import { isSearchedField } from '@frontdesk/core'
import { indexDataOf } from '../build/index-data.ts'
import type { ByteSpill, ListSpill } from '../build/list-spill.ts'
import { memoryByteSpill } from '../build/list-spill.ts'
import { RangeIndexer } from '../build/range-indexer.ts'
import { FIELDS } from '../matching/inverted-index.ts'
import type { EncodedSnapshot } from '../snapshots/snapshot-codec.ts'
import { DocBytes } from './doc-bytes.ts'

/**
 * Postings an import's indexing makes at a time (256 MB): one piece up to ~250,000 items of the
 * bench's articles, two at 500,000, four at 1,000,000, each piece after the first reading the
 * per-document lists again (~1 s at 1,000,000 items), instead of ~1 GB of postings at once.
 */
const MAX_POSTINGS = 1 << 26

/**
 * The writes of an import, in order, as one flat array of plain values (see `WriteBatch`):
 * what goes to the indexing worker. Flat because a structured clone of one array of strings
 * and numbers costs a third of that of an object and three arrays per item (20,000 items:
 * ~50 against ~150 ms to read on the worker, ~30 against ~70 ms to write on the import's thread).
 */
export type Writes = unknown[]

/**
 * Collects writes in the `Writes` format:
 * - an item: `'i'`, id, category id, status, published_at, title, summary, body (HTML, as
 *   stored), the number of tags n, n tag ids, n tag names (in order), the number of field
 *   values m, then m pairs field id, value;
 * - a deleted item: `'d'`, id;
 * - a category: `'c'`, the record.
 */
export class WriteBatch {
  #writes: Writes = []
  #count = 0

  /** Writes collected since the last `take`. */
  get size(): number {
    return this.#count
  }

  /** An item written (inserted or replaced). */
  item(r: ContentRecord): void {
    const w = this.#writes
    w.push('i', r.id, r.category_id, r.status, r.published_at, r.title, r.summary, r.body, r.tags.length)
    for (const tag of r.tags) w.push(tag.id)
    for (const tag of r.tags) w.push(tag.name)
    const fields = Object.keys(r.fields)
    w.push(fields.length)
    for (const field of fields) w.push(field, r.fields[field])
    this.#count++
  }

  /** An item deleted. */
  deleted(id: string): void {
    this.#writes.push('d', id)
    this.#count++
  }

  /** A category written. */
  category(category: CategoryRecord): void {
    this.#writes.push('c', category)
    this.#count++
  }

  /** The writes collected, and a fresh start. */
  take(): Writes {
    const writes = this.#writes
    this.#writes = []
    this.#count = 0
    return writes
  }
}

/** The state of the tenant the import committed, read inside its transaction after the last write. */
export interface ImportEnd {
  /** The tenant's categories, as `listCategories` gives them. */
  categories: CategoryRecord[]
  /** Every tag of the tenant: id → name. */
  tags: Map<string, string>
}

/**
 * A tenant's search index made of the items an import writes, as it writes them, for a tenant
 * that had no items before (`indexWhileImporting` checks): each written item is analysed at
 * once (a `RangeIndexer`), in write order, and when the import ends the live ones (the last
 * write of each id, deleted ones left out) are put in id order without being analysed again
 * (`finishInOrder`). The result is the snapshot a build from the committed database gives
 * (tests compare them byte for byte), provided what each item was analysed with is what the
 * database holds at the end: its category's indexed fields and its tags' names may have
 * changed after it was written (a category or tag written later in the import). Those are
 * checked; when one differs, `end` answers `null` and the caller builds from the database.
 */
export class ImportAnalysis {
  readonly #indexer: RangeIndexer
  /** Per category, the key (see `analysedFields`) of its latest version: computed once a version, not once an item. */
  readonly #fieldKeys = new Map<string, string>()
  /** Per category, the key (see `analysedFields`) of the version its items were analysed with. */
  readonly #usedCategories = new Map<string, string>()
  /** Per tag, the name its items were analysed with. */
  readonly #usedTags = new Map<string, string>()
  /** Per live item id, the number the indexer gave it. */
  readonly #numbers = new Map<string, number>()
  readonly #spill: ListSpill | null
  /** The analysed items' search data, as the snapshot's JSON (see `DocBytes`). */
  readonly #docs: DocBytes
  readonly #maxPostings: number
  #stale = false

  /**
   * An analysis for a tenant whose categories are these at the start of the import; `spill`:
   * where the analysed items wait for `end` instead of the heap (see `ListSpill`), which `end` closes;
   * `docSpill`: where the items' search data wait (see `DocBytes`; default: in memory), closed
   * once the snapshot `end` answers has been encoded (or by `end` when it answers `null`);
   * `maxPostings`: postings made at a time (see `RangeIndexer.finishInPieces`).
   */
  constructor(categories: readonly CategoryRecord[], spill: ListSpill | null = null, docSpill: ByteSpill = memoryByteSpill(), maxPostings = MAX_POSTINGS) {
    for (const category of categories) this.#fieldKeys.set(category.id, analysedFields(category))
    this.#maxPostings = maxPostings
    this.#spill = spill
    this.#docs = new DocBytes(docSpill)
    this.#indexer = new RangeIndexer(categories, undefined, spill, false)
  }

  /** Whether something already analysed changed since: `end` will answer `null`. */
  get stale(): boolean {
    return this.#stale
  }

  /** Takes the next writes of the import (see `WriteBatch`). */
  take(writes: Writes): void {
    let at = 0
    while (at < writes.length && !this.#stale) {
      const kind = writes[at++]
      if (kind === 'd') this.#numbers.delete(writes[at++] as string)
      else if (kind === 'c') this.#category(writes[at++] as CategoryRecord)
      else if (kind === 'i') at = this.#add(writes, at)
      else throw new Error(`Unknown write ${String(kind)}`)
    }
  }

  /**
   * The tenant's snapshot as of the end of the import (`categories` and `tags` as committed),
   * or `null` when an item's category fields or tag names changed after it was analysed.
   */
  end(end: ImportEnd): EncodedSnapshot | null {
    const unused = () => {
      this.#spill?.close()
      this.#docs.discard()
      return null
    }
    if (this.#stale) return unused()
    const finalCategories = new Map(end.categories.map((category) => [category.id, category]))
    for (const [id, key] of this.#usedCategories) if (analysedFields(finalCategories.get(id)) !== key) return unused()
    for (const [id, name] of this.#usedTags) if (end.tags.get(id) !== name) return unused()
    // As the build reads them: by id, in SQLite's order (BINARY: code point order).
    const ids = inCodePointOrder([...this.#numbers.keys()])
    const order = Int32Array.from(ids, (id) => this.#numbers.get(id) ?? 0)
    // Hint: neither is needed any more, and the postings made next are the peak of a large import.
    ids.length = 0
    this.#numbers.clear()
    const zeros = new Array<number>(FIELDS.length).fill(0)
    // Hint: items written once each, in id order (new ids are made in order): the terms are already numbered as the build numbers them.
    const inOrder = order.length === this.#indexer.size && order.every((n, k) => n === k)
    const range = this.#indexer.finishInPieces(inOrder ? null : order, 0, zeros, this.#maxPostings)
    const { data, postings } = indexDataOf(range)
    return { categories: end.categories, docs: this.#docs.encoded(inOrder ? null : order), index: data, postings }
  }

  #category(category: CategoryRecord): void {
    const key = analysedFields(category)
    const used = this.#usedCategories.get(category.id)
    if (used !== undefined && used !== key) this.#stale = true
    this.#fieldKeys.set(category.id, key)
    this.#indexer.useCategory(category)
  }

  /** Adds the item whose write starts at `writes[at]` (after its kind); returns where the next write starts. */
  #add(writes: Writes, at: number): number {
    const id = writes[at] as string
    const categoryId = writes[at + 1] as string
    const status = writes[at + 2] as SearchDocument['status']
    const publishedAt = writes[at + 3] as string | null
    const title = writes[at + 4] as string
    const summary = writes[at + 5] as string
    const body = writes[at + 6] as string
    const tagCount = writes[at + 7] as number
    at += 8
    const key = this.#fieldKeys.get(categoryId) ?? analysedFields(undefined)
    const used = this.#usedCategories.get(categoryId)
    if (used === undefined) this.#usedCategories.set(categoryId, key)
    else if (used !== key) this.#stale = true
    const tags: string[] = []
    for (let i = 0; i < tagCount; i++) {
      const tagId = writes[at + i] as string
      const name = writes[at + tagCount + i] as string
      tags.push(name)
      const before = this.#usedTags.get(tagId)
      if (before === undefined) this.#usedTags.set(tagId, name)
      else if (before !== name) this.#stale = true
    }
    at += 2 * tagCount
    const fieldCount = writes[at++] as number
    const values: Record<string, FieldValue> = {}
    for (let i = 0; i < fieldCount; i++) values[writes[at + 2 * i] as string] = writes[at + 2 * i + 1] as FieldValue
    at += 2 * fieldCount
    // Hint: field values keyed in field id order, as the build reads them (`ORDER BY field_id`).
    const fields: Record<string, FieldValue> = {}
    for (const field of inCodePointOrder(Object.keys(values))) fields[field] = values[field] as FieldValue
    const doc: SearchDocument = { id, category_id: categoryId, status, published_at: publishedAt, tags, fields }
    this.#numbers.set(id, this.#docs.add(doc))
    this.#indexer.add({ doc, title, summary, body })
    return at
  }
}

/** What of a category its items' indexed text depends on (core's `searchedTexts`): its searched fields, in order. */
function analysedFields(category: CategoryRecord | undefined): string {
  if (category === undefined) return '-'
  return JSON.stringify(category.fields.filter(isSearchedField).map((field) => field.id))
}

/**
 * `strings` sorted in code point order (SQLite's BINARY collation of UTF-8 text), in place.
 * UTF-16 order (JavaScript's) differs only where surrogates meet U+E000–U+FFFF.
 */
export function inCodePointOrder(strings: string[]): string[] {
  return strings.some((s) => HIGH.test(s)) ? strings.sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b))) : strings.sort()
}

const HIGH = /[\uD800-\uFFFF]/
