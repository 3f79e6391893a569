import type { CategoryRecord, FieldValue, SearchDocument } from '@frontdesk/core'
import { FIELDS } from './inverted-index.ts'
import { joinRanges } from './join-ranges.ts'
import { RangeIndexer } from './range-indexer.ts'
import type { TenantSnapshot } from './tenant-index.ts'

/**
 * An item as an import wrote it, with what its search document needs: id, category id,
 * status, published_at, title, summary, body (HTML, as stored), its tags' ids and names in
 * their order, and its field values by field id.
 */
export type WrittenItem = [
  id: string, categoryId: string, status: SearchDocument['status'], publishedAt: string | null,
  title: string, summary: string, body: string, tagIds: string[], tagNames: string[], fields: Record<string, FieldValue>,
]

/** One write of the import, in the order they were made. */
export type WrittenEntry = { kind: 'item'; item: WrittenItem } | { kind: 'deleted'; id: string } | { kind: 'category'; category: CategoryRecord }

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
  readonly #categories = new Map<string, CategoryRecord>()
  /** Per category, the key (see `analysedFields`) of the version its items were analysed with. */
  readonly #usedCategories = new Map<string, string>()
  /** Per tag, the name its items were analysed with. */
  readonly #usedTags = new Map<string, string>()
  /** Per live item id, the number the indexer gave it. */
  readonly #numbers = new Map<string, number>()
  #stale = false

  /** An analysis for a tenant whose categories are these at the start of the import. */
  constructor(categories: readonly CategoryRecord[]) {
    for (const category of categories) this.#categories.set(category.id, category)
    this.#indexer = new RangeIndexer(categories)
  }

  /** Whether something already analysed changed since: `end` will answer `null`. */
  get stale(): boolean {
    return this.#stale
  }

  /** Takes the next write of the import. */
  take(entry: WrittenEntry): void {
    if (this.#stale) return
    if (entry.kind === 'deleted') {
      this.#numbers.delete(entry.id)
    } else if (entry.kind === 'category') {
      const used = this.#usedCategories.get(entry.category.id)
      if (used !== undefined && used !== analysedFields(entry.category)) this.#stale = true
      this.#categories.set(entry.category.id, entry.category)
      this.#indexer.useCategory(entry.category)
    } else this.#add(entry.item)
  }

  /**
   * The tenant's snapshot as of the end of the import (`categories` and `tags` as committed),
   * or `null` when an item's category fields or tag names changed after it was analysed.
   */
  end(end: ImportEnd): TenantSnapshot | null {
    if (this.#stale) return null
    const finalCategories = new Map(end.categories.map((category) => [category.id, category]))
    for (const [id, key] of this.#usedCategories) if (analysedFields(finalCategories.get(id)) !== key) return null
    for (const [id, name] of this.#usedTags) if (end.tags.get(id) !== name) return null
    // As the build reads them: by id, in SQLite's order (BINARY: code point order).
    const ids = inCodePointOrder([...this.#numbers.keys()])
    const order = Int32Array.from(ids, (id) => this.#numbers.get(id) ?? 0)
    const zeros = new Array<number>(FIELDS.length).fill(0)
    // Hint: items written once each, in id order (new ids are made in order): the terms are already numbered as the build numbers them.
    const range = order.length === this.#indexer.size && order.every((n, k) => n === k) ? this.#indexer.finish(0, zeros) : this.#indexer.finishInOrder(order, 0, zeros)
    const { data, postings, docs } = joinRanges([range], range.fieldTotals)
    return { categories: end.categories, docs, index: data, postings: [postings] }
  }

  #add([id, categoryId, status, publishedAt, title, summary, body, tagIds, tagNames, fields]: WrittenItem): void {
    const key = analysedFields(this.#categories.get(categoryId))
    const used = this.#usedCategories.get(categoryId)
    if (used === undefined) this.#usedCategories.set(categoryId, key)
    else if (used !== key) this.#stale = true
    for (let i = 0; i < tagIds.length; i++) {
      const tagId = tagIds[i] ?? ''
      const name = tagNames[i] ?? ''
      const before = this.#usedTags.get(tagId)
      if (before === undefined) this.#usedTags.set(tagId, name)
      else if (before !== name) this.#stale = true
    }
    // Hint: field values keyed in field id order, as the build reads them (`ORDER BY field_id`).
    const keys = inCodePointOrder(Object.keys(fields))
    const ordered: Record<string, FieldValue> = {}
    for (const field of keys) ordered[field] = fields[field] as FieldValue
    this.#numbers.set(id, this.#indexer.size)
    this.#indexer.add({ doc: { id, category_id: categoryId, status, published_at: publishedAt, tags: tagNames, fields: ordered }, title, summary, body })
  }
}

/** What of a category its items' indexed text depends on (`indexedText`): its text and select fields, in order. */
function analysedFields(category: CategoryRecord | undefined): string {
  if (category === undefined) return '-'
  return JSON.stringify(category.fields.filter((field) => field.type === 'text' || field.type === 'select').map((field) => field.id))
}

/**
 * `strings` sorted in code point order (SQLite's BINARY collation of UTF-8 text), in place.
 * UTF-16 order (JavaScript's) differs only where surrogates meet U+E000–U+FFFF.
 */
export function inCodePointOrder(strings: string[]): string[] {
  return strings.some((s) => HIGH.test(s)) ? strings.sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b))) : strings.sort()
}

const HIGH = /[\uD800-\uFFFF]/
