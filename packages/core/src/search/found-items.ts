import type { ContentRecord } from '../model/content.ts'
import { FragmentSource, MatchText } from './highlight.ts'
import { stripHtml } from './strip-html.ts'

/** The texts of an item that search highlights, prepared (see `MatchText`, `FragmentSource`). */
export interface ItemHighlightSource {
  title: MatchText
  /** The summary, then the body as text (HTML stripped). */
  fragments: FragmentSource
}

/** An item a search found: its record as read at `revision`, and its texts prepared for highlighting. */
export interface FoundItem {
  record: ContentRecord
  source: ItemHighlightSource
}

interface Entry extends FoundItem {
  revision: number
  cost: number
}

/**
 * About how many characters `FoundItems` keeps by default, counted over each item's title,
 * summary and body, and its body again three times (stripped, cut into pieces, normalised): at
 * most ~2 bytes a character, so a few tens of MB, a few thousand items.
 */
export const DEFAULT_FOUND_ITEM_CHARS = 16_000_000

/**
 * The items recent searches found, least recently used dropped first beyond `maxChars` (see
 * `DEFAULT_FOUND_ITEM_CHARS`). The same items are found again and again, and building a
 * result reads each one and prepares its texts (strips the body's HTML, normalises it): kept
 * here, a search found again reads nothing and prepares nothing.
 *
 * Fresh by the tenant's storage revision (`Store.revision`, which changes with any change of
 * its content, tags or categories, from any process): a record is used as it is only at the
 * revision it was read at (the revision must be taken *before* the read). After a change, the
 * item is read again, and its prepared texts are kept only if its title, summary and body are
 * still the very same strings (compared whole).
 */
export class FoundItems {
  readonly #maxChars: number
  readonly #entries = new Map<string, Entry>()
  #chars = 0

  constructor(maxChars = DEFAULT_FOUND_ITEM_CHARS) {
    this.#maxChars = Math.max(0, maxChars)
  }

  /** Characters held (the estimate the limit applies to). */
  get chars(): number {
    return this.#chars
  }

  /** Items held. */
  get size(): number {
    return this.#entries.size
  }

  /** The item as read at `revision` of its tenant, or `undefined` when it was not (or not then). */
  get(tenantId: string, id: string, revision: number): FoundItem | undefined {
    const key = keyOf(tenantId, id)
    const entry = this.#entries.get(key)
    if (entry === undefined || entry.revision !== revision) return undefined
    // Hint: a Map iterates in insertion order: re-inserting makes the first entry the least recently used.
    this.#entries.delete(key)
    this.#entries.set(key, entry)
    return entry
  }

  /**
   * Keeps `record`, read at `revision` of its tenant (or later), with its texts prepared (those
   * of the item's previous record when its texts are the same), and returns it.
   */
  put(record: ContentRecord, revision: number): FoundItem {
    const key = keyOf(record.tenant_id, record.id)
    const old = this.#entries.get(key)
    if (old !== undefined) this.#drop(key, old)
    const same = old !== undefined && old.record.title === record.title && old.record.summary === record.summary && old.record.body === record.body
    const source = same ? old.source : prepare(record)
    const cost = 2 * (record.title.length + record.summary.length) + 4 * record.body.length + 256
    const entry: Entry = { record, source, revision, cost }
    if (cost > this.#maxChars) return entry
    this.#entries.set(key, entry)
    this.#chars += cost
    for (const [oldest, least] of this.#entries) {
      if (this.#chars <= this.#maxChars) break
      this.#drop(oldest, least)
    }
    return entry
  }

  /** Forgets the item (it is gone). */
  delete(tenantId: string, id: string): void {
    const key = keyOf(tenantId, id)
    const entry = this.#entries.get(key)
    if (entry !== undefined) this.#drop(key, entry)
  }

  #drop(key: string, entry: Entry): void {
    this.#entries.delete(key)
    this.#chars -= entry.cost
  }
}

/** The texts of `record` prepared for highlighting. */
export function prepare(record: ContentRecord): ItemHighlightSource {
  return { title: new MatchText(record.title), fragments: new FragmentSource([record.summary, stripHtml(record.body)]) }
}

function keyOf(tenantId: string, id: string): string {
  return `${tenantId}\u0000${id}`
}
