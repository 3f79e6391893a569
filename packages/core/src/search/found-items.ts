import type { CategoryRecord } from '../model/category.ts'
import type { ContentRecord } from '../model/content.ts'
import { isVisibleAt, visibleSince } from '../content/visibility.ts'
import { FrequencySketch } from './frequency-sketch.ts'
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
  /** FNV-1a of tenant and id: the item's place in the doorkeeper and the frequency sketch. */
  hash: number
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

/** Which found items `FoundItems.put` keeps: every one, or by how often they are found (see `FoundItems`). */
export type FoundItemAdmission = 'always' | 'frequency'

/** The doorkeeper's bits (1 Mi: 128 KB) and how many items it notes before it starts afresh (~6 % of its bits set at most). */
const DOORKEEPER_BITS = 1 << 20
const DOORKEEPER_ITEMS = 1 << 16

/**
 * The frequency sketch's counters a row (4 × 32 Ki bytes), and how many sights halve them: about
 * ten times the items a default cache holds (a few thousand), as Caffeine ages its sketch, so
 * that items popular a few thousand searches ago no longer keep newer ones out.
 */
const SKETCH_WIDTH = 1 << 15
const SKETCH_SAMPLE = 1 << 16

/**
 * The items recent searches found, least recently used dropped first beyond `maxChars` (an item
 * used again while among the newer half keeps its place: nearly LRU, fewer list moves; see
 * `DEFAULT_FOUND_ITEM_CHARS`). The same items are found again and again, and building a
 * result reads each one and prepares its texts (strips the body's HTML, normalises it): kept
 * here, a search found again reads nothing and prepares nothing.
 *
 * With `'frequency'` admission (the default), TinyLFU's: an item found for the first time is
 * only noted in a doorkeeper (a bit per hash of tenant and id) and not kept; from its second
 * sight it is kept while there is room, and once the items fill it, only when it was found more
 * often lately (a `FrequencySketch` of the sights of items past the doorkeeper) than the least
 * recently used item it would push out. Keeping costs more than it seems: V8 copies every kept
 * object twice in its young generation before it lands in the old one, and collects it there
 * when it is pushed out. With every second sight kept, a full cache took in and pushed out about
 * nine items per search of new queries at 100,000 items, for one found again in eight, and that
 * collection was a fifth of a Japanese search's CPU (bench/NOTES.md).
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
  readonly #sketch: FrequencySketch | null

  /** Keeps at most about `maxChars` (see `DEFAULT_FOUND_ITEM_CHARS`), admitting items as `admission` says. */
  constructor(maxChars = DEFAULT_FOUND_ITEM_CHARS, admission: FoundItemAdmission = 'frequency') {
    this.#maxChars = Math.max(0, maxChars)
    this.#doorkeeper = admission === 'always' ? null : new Uint32Array(DOORKEEPER_BITS >>> 5)
    this.#sketch = admission === 'always' ? null : new FrequencySketch(SKETCH_WIDTH, SKETCH_SAMPLE)
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
    this.#sketch?.add(entry.hash)
    // Hint: an entry linked fewer than size / 2 links ago is in the newer half already: moving it would change nothing that eviction sees soon.
    if (this.#links - entry.linkedAt >= this.#size >> 1) {
      this.#unlink(entry)
      this.#link(entry)
    }
    return entry
  }

  /**
   * `record`, read at `revision` of its tenant (or later), with its texts prepared (those of the
   * item's previous record when its texts are the same): kept if it is no larger than the
   * whole and admission lets it in (see `FoundItems`); an item kept before, read again after a
   * change, keeps its claim.
   */
  put(record: ContentRecord, revision: number): FoundItem {
    const old = this.#tenants.get(record.tenant_id)?.get(record.id)
    if (old !== undefined) this.#drop(old)
    const same = old !== undefined && old.record.title === record.title && old.record.summary === record.summary && old.record.body === record.body
    const source = same ? old.source : prepare(record)
    const cost = 2 * (textBytes(record.title) + textBytes(record.summary)) + 4 * textBytes(record.body) + ITEM_OVERHEAD
    const hash = old?.hash ?? hashOf(record.id, hashOf(record.tenant_id, 0x811c9dc5))
    const entry: Entry = { record, source, results: new ResultMemo(), visibleSince: visibleSince(record), revision, cost, hash, newer: null, older: null, linkedAt: 0 }
    if (cost > this.#maxChars || (old === undefined && !this.#admits(hash, cost))) return entry
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

  /** Whether an item of `cost` not kept now is to be kept (see `FoundItems`); counts this sight of it. */
  #admits(hash: number, cost: number): boolean {
    if (this.#doorkeeper === null || this.#sketch === null) return true
    if (this.#firstSight(hash)) return false
    const frequency = this.#sketch.add(hash)
    const victim = this.#oldest
    return victim === null || this.#chars + cost <= this.#maxChars || frequency > this.#sketch.frequency(victim.hash)
  }

  /** Whether the doorkeeper had not seen the item of `hash` (then it has now). */
  #firstSight(hash: number): boolean {
    const bits = this.#doorkeeper
    if (bits === null) return false
    const bit = (hash >>> 0) & (DOORKEEPER_BITS - 1)
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

