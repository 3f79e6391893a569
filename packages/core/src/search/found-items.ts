import type { CategoryRecord } from '../model/category.ts'
import type { ContentRecord } from '../model/content.ts'
import { isVisibleAt, visibleSince } from '../content/visibility.ts'
import { FragmentSource, MatchText } from './highlight.ts'
import { HighlightMemo } from './highlight-memo.ts'
import { ResultMemo } from './result-json.ts'
import { stripHtml } from './strip-html.ts'

/** The texts of an item that search highlights, prepared (see `MatchText`, `FragmentSource`). */
export interface ItemHighlightSource {
  title: MatchText
  /** The summary, then the body as text (HTML stripped). */
  fragments: FragmentSource
  /** Highlights of the last queries that found the item. */
  highlights: HighlightMemo
}

/** An item a search found: its record as read at `revision`, its texts prepared for highlighting, and its last results. */
export interface FoundItem {
  record: ContentRecord
  source: ItemHighlightSource
  /** The item's results (and their JSON) for its last queries: they hold the record's fields, so they live with this reading of it. */
  results: ResultMemo
  /** `visibleSince(record)`, computed once: see `isFoundItemVisible`. */
  visibleSince: number
}

/**
 * `isPubliclyVisible(item.record, category, now)` with the publication date parsed once per
 * found item instead of once per search that finds it.
 */
export function isFoundItemVisible(item: FoundItem, category: CategoryRecord, now: number): boolean {
  return category.id === item.record.category_id && isVisibleAt(item.visibleSince, category.active, now)
}

interface Entry extends FoundItem {
  revision: number
  cost: number
  /** Neighbours in the order of use (a doubly linked list: a hit moves its entry without touching any map). */
  newer: Entry | null
  older: Entry | null
  /** `#links` when it was last made the newest. */
  linkedAt: number
}

/**
 * What each item counts beside its texts: 256, two remembered highlights (`HighlightMemo`) of
 * ~380 characters, and two remembered results (`ResultMemo`: ~750 bytes of JSON and the item).
 */
export const ITEM_OVERHEAD = 3072

/**
 * About how many characters `FoundItems` keeps by default, counted over each item's title and
 * summary twice and its body four times (as read, stripped, normalised, and a margin), plus
 * `ITEM_OVERHEAD` per item; a text holding any character beyond U+00FF counts its characters
 * twice, as V8 then stores it two bytes a character (`textBytes`). A bound on memory that holds
 * whatever the items' sizes and scripts, about 45 MB of heap, a few thousand articles of 1–2 KB
 * (measured in bench/NOTES.md).
 */
export const DEFAULT_FOUND_ITEM_CHARS = 40_000_000

/** Which found items `FoundItems.put` keeps. */
export type FoundItemAdmission = 'always' | 'second sight'

/** The doorkeeper's bits (1 Mi: 128 KB) and how many items it notes before it starts afresh (~6 % of its bits set at most). */
const DOORKEEPER_BITS = 1 << 20
const DOORKEEPER_ITEMS = 1 << 16

/**
 * The items recent searches found, least recently used dropped first beyond `maxChars` (an item
 * used again while among the newer half keeps its place: nearly LRU, fewer list moves; see
 * `DEFAULT_FOUND_ITEM_CHARS`). The same items are found again and again, and building a
 * result reads each one and prepares its texts (strips the body's HTML, normalises it): kept
 * here, a search found again reads nothing and prepares nothing.
 *
 * With `'second sight'` admission (the default) an item is kept from the second time it is
 * put on: the first time only notes it in a doorkeeper (a bit per hash of tenant and id, as
 * TinyLFU does before its cache), so that items found once and never again do not push out
 * those found often — and do not cost the garbage collector: every item kept is copied twice
 * by V8's young generation before it lands in the old one, which was most of a search's
 * garbage collection (10-12 % of the CPU of a Japanese or filtered search at 100,000 items).
 *
 * Fresh by the tenant's storage revision (`Store.revision`, which changes with any change of
 * its content, tags or categories, from any process): a record is used as it is only at the
 * revision it was read at (the revision must be taken *before* the read). After a change, the
 * item is read again, and its prepared texts are kept only if its title, summary and body are
 * still the very same strings (compared whole).
 */
export class FoundItems {
  readonly #maxChars: number
  // Hint: by tenant, then id: ids from the engine are the same strings every time (hashed once), a joined key would be a new one.
  readonly #tenants = new Map<string, Map<string, Entry>>()
  #newest: Entry | null = null
  #oldest: Entry | null = null
  /** Entries made the newest so far: an entry's distance from the newest is at most the links made since its own. */
  #links = 0
  #chars = 0
  #size = 0
  readonly #doorkeeper: Uint32Array | null
  #noted = 0

  /** Keeps at most about `maxChars` (see `DEFAULT_FOUND_ITEM_CHARS`), admitting items as `admission` says. */
  constructor(maxChars = DEFAULT_FOUND_ITEM_CHARS, admission: FoundItemAdmission = 'second sight') {
    this.#maxChars = Math.max(0, maxChars)
    this.#doorkeeper = admission === 'always' ? null : new Uint32Array(DOORKEEPER_BITS >>> 5)
  }

  /** Characters held (the estimate the limit applies to). */
  get chars(): number {
    return this.#chars
  }

  /** Items held. */
  get size(): number {
    return this.#size
  }

  /** The item as read at `revision` of its tenant, or `undefined` when it was not (or not then). */
  get(tenantId: string, id: string, revision: number): FoundItem | undefined {
    return this.#touched(this.#tenants.get(tenantId)?.get(id), revision)
  }

  /** `get` for several ids of one tenant (`undefined` for each not found then). */
  getAll(tenantId: string, ids: readonly string[], revision: number): (FoundItem | undefined)[] {
    const items = this.#tenants.get(tenantId)
    return ids.map((id) => this.#touched(items?.get(id), revision))
  }

  /** `entry` if read at `revision`, then made recently used. */
  #touched(entry: Entry | undefined, revision: number): FoundItem | undefined {
    if (entry === undefined || entry.revision !== revision) return undefined
    // Hint: an entry linked fewer than size / 2 links ago is in the newer half already: moving it would change nothing that eviction sees soon.
    if (this.#links - entry.linkedAt >= this.#size >> 1) {
      this.#unlink(entry)
      this.#link(entry)
    }
    return entry
  }

  /**
   * `record`, read at `revision` of its tenant (or later), with its texts prepared (those of the
   * item's previous record when its texts are the same): kept, unless it is the first sight of
   * it under `'second sight'` admission (or too large).
   */
  put(record: ContentRecord, revision: number): FoundItem {
    const old = this.#tenants.get(record.tenant_id)?.get(record.id)
    if (old !== undefined) this.#drop(old)
    const same = old !== undefined && old.record.title === record.title && old.record.summary === record.summary && old.record.body === record.body
    const source = same ? old.source : prepare(record)
    const cost = 2 * (textBytes(record.title) + textBytes(record.summary)) + 4 * textBytes(record.body) + ITEM_OVERHEAD
    const entry: Entry = { record, source, results: new ResultMemo(), visibleSince: visibleSince(record), revision, cost, newer: null, older: null, linkedAt: 0 }
    // Hint: an item kept before (read again after a change) is no first sight.
    if (cost > this.#maxChars || (old === undefined && this.#firstSight(record.tenant_id, record.id))) return entry
    let items = this.#tenants.get(record.tenant_id)
    if (items === undefined) {
      items = new Map()
      this.#tenants.set(record.tenant_id, items)
    }
    items.set(record.id, entry)
    this.#link(entry)
    this.#chars += cost
    this.#size++
    while (this.#chars > this.#maxChars && this.#oldest !== null) this.#drop(this.#oldest)
    return entry
  }

  /** Forgets the item (it is gone). */
  delete(tenantId: string, id: string): void {
    const entry = this.#tenants.get(tenantId)?.get(id)
    if (entry !== undefined) this.#drop(entry)
  }

  /** Whether the doorkeeper had not seen the item (then it has now). */
  #firstSight(tenantId: string, id: string): boolean {
    const bits = this.#doorkeeper
    if (bits === null) return false
    const bit = (hashOf(id, hashOf(tenantId, 0x811c9dc5)) >>> 0) & (DOORKEEPER_BITS - 1)
    const mask = 1 << (bit & 31)
    const word = bits[bit >>> 5] ?? 0
    if ((word & mask) !== 0) return false
    if (this.#noted >= DOORKEEPER_ITEMS) {
      bits.fill(0)
      this.#noted = 0
    }
    bits[bit >>> 5] = (bits[bit >>> 5] ?? 0) | mask
    this.#noted++
    return true
  }

  #drop(entry: Entry): void {
    const items = this.#tenants.get(entry.record.tenant_id)
    items?.delete(entry.record.id)
    if (items?.size === 0) this.#tenants.delete(entry.record.tenant_id)
    this.#unlink(entry)
    this.#chars -= entry.cost
    this.#size--
  }

  /** Makes `entry` (unlinked) the newest. */
  #link(entry: Entry): void {
    entry.linkedAt = ++this.#links
    entry.older = this.#newest
    entry.newer = null
    if (this.#newest !== null) this.#newest.newer = entry
    this.#newest = entry
    if (this.#oldest === null) this.#oldest = entry
  }

  #unlink(entry: Entry): void {
    if (entry.newer !== null) entry.newer.older = entry.older
    else this.#newest = entry.older
    if (entry.older !== null) entry.older.newer = entry.newer
    else this.#oldest = entry.newer
    entry.newer = null
    entry.older = null
  }
}

/** What `text` takes in V8's string storage, in bytes: one a character, two when any is beyond U+00FF. */
export function textBytes(text: string): number {
  return WIDE.test(text) ? 2 * text.length : text.length
}

const WIDE = /[^\u0000-\u00ff]/

/** FNV-1a of `text`'s code units, continuing from `hash`. */
function hashOf(text: string, hash: number): number {
  let h = hash
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193)
  return h
}

/** A found item read just now and kept nowhere: its texts prepared, its memos empty. */
export function freshItem(record: ContentRecord): FoundItem {
  return { record, source: prepare(record), results: new ResultMemo(), visibleSince: visibleSince(record) }
}

/** The texts of `record` prepared for highlighting. */
export function prepare(record: ContentRecord): ItemHighlightSource {
  return { title: new MatchText(record.title), fragments: new FragmentSource([record.summary, stripHtml(record.body)]), highlights: new HighlightMemo() }
}

