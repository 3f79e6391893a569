import { isoAt } from '../app/clock.ts'
import type { Context } from '../app/context.ts'
import { toContentListItem } from '../content/content-view.ts'
import type { CategoryRecord } from '../model/category.ts'
import type { ContentRecord } from '../model/content.ts'
import type { InquiryCategoryRecord } from '../model/inquiry.ts'
import type { TagRecord } from '../model/tag.ts'
import type { ContentQuery } from '../port/content-query.ts'
import type { EventType, OutboxEvent } from '../port/event-outbox.ts'
import type { ContentWriter, TransactionOptions } from '../port/store.ts'
import { newId } from '../util/ids.ts'
import { isAnnounced } from './announcement.ts'
import { subscribedTypes } from './event-types.ts'

/** Events are handed to the store this many at a time (a large import does not hold them all). */
const APPEND_BATCH = 500
/** Items of a changed category or tag are read this many at a time. */
const PAGE = 500

/**
 * The data of a content event: the item as the public list shows it (`toContentListItem`),
 * with its `version` and `updated_at`. For `content.unpublished` and `content.deleted` it is
 * the item as it was last shown, so that a receiver can purge what it cached under its slug.
 */
export function contentEventData(item: ContentRecord, category: CategoryRecord): OutboxEvent['data'] {
  // Hint: the list item gains its two fields in place (no copy: an import makes one per item).
  const data: OutboxEvent['data'] = toContentListItem(item, category)
  data['version'] = item.version
  data['updated_at'] = item.updated_at
  return data
}

/**
 * Runs `work` in a store transaction whose content writes add the events they cause
 * (`EventRecorder`), committed with them. Every use case that writes content goes through it.
 */
export function transactionWithEvents<T>(ctx: Context, work: (tx: ContentWriter) => Promise<T>, options?: TransactionOptions): Promise<T> {
  const now = ctx.clock.now()
  return ctx.store.transaction(async (raw) => {
    const tx = new EventRecorder(raw, now)
    const result = await work(tx)
    await tx.finish()
    return result
  }, options)
}

/**
 * A `ContentWriter` that adds to the outbox the content events its writes cause: for every
 * item whose announcement (`isAnnounced`) changes, `content.published` or
 * `content.unpublished`; for an announced item written anew (its version or `updated_at`
 * changed), or whose category's code or name or a tag's name changed, `content.updated`; for
 * an announced item deleted, `content.deleted`. Drafts and scheduled items cause nothing until
 * they are announced. The rule is evaluated on the records before and after each write, inside
 * the transaction: an item written twice may cause two events (both in the one commit).
 *
 * Only the types some endpoint of the tenant takes are written (`eventSubscriptions`, asked
 * once per tenant and transaction); a tenant none of whose endpoints takes content events has
 * its writes passed straight on, at no cost. Skipping is safe because whether an item is
 * announced is read from records only (`isAnnounced`), never from the events written.
 */
export class EventRecorder implements ContentWriter {
  readonly #tx: ContentWriter
  readonly #now: number
  readonly #nowIso: string
  readonly #pending: OutboxEvent[] = []
  /** The transaction's categories as they now stand, by tenant and id (`null`: none). */
  readonly #categories = new Map<string, CategoryRecord | null>()
  readonly #through = new Map<string, string | null>()
  /** The event types the tenant's endpoints take (`eventSubscriptions`), and whether any is a content event, by tenant. */
  readonly #subscribed = new Map<string, { types: ReadonlySet<EventType>; content: boolean }>()
  /** The last item read, so that a write right after its read (the common case) reads nothing more. */
  #lastRead: { tenantId: string; id: string; record: ContentRecord | null } | null = null
  /**
   * The last slug no item had. A write of an item with that slug right after (nothing read or
   * written between) creates it: callers look an item up by id before writing it when they
   * were given its id (the import planner, `findContent`), so an item written after a slug miss
   * has an id made for it. Spares an import one read per new item.
   */
  #lastSlugMiss: { tenantId: string; slug: string } | null = null
  /** The items of the last `getContents` (an import's read-ahead), until each is written. */
  #readAhead: { tenantId: string; byId: Map<string, ContentRecord | null> } | null = null

  constructor(tx: ContentWriter, now: number) {
    this.#tx = tx
    this.#now = now
    this.#nowIso = isoAt(now)
  }

  /** Hands the remaining events to the store; call once, after the last write. */
  async finish(): Promise<void> {
    if (this.#pending.length > 0) await this.#tx.appendEvents(this.#pending.splice(0))
  }

  // ── reads (passed on; items remembered for the next write)

  getCategory(tenantId: string, id: string): Promise<CategoryRecord | null> {
    return this.#tx.getCategory(tenantId, id)
  }
  getCategoryByCode(tenantId: string, code: string): Promise<CategoryRecord | null> {
    return this.#tx.getCategoryByCode(tenantId, code)
  }
  listCategories(tenantId: string): Promise<CategoryRecord[]> {
    return this.#tx.listCategories(tenantId)
  }
  getTag(tenantId: string, id: string): Promise<TagRecord | null> {
    return this.#tx.getTag(tenantId, id)
  }
  getTagByName(tenantId: string, name: string): Promise<TagRecord | null> {
    return this.#tx.getTagByName(tenantId, name)
  }
  listTags(tenantId: string): Promise<TagRecord[]> {
    return this.#tx.listTags(tenantId)
  }
  async getContent(tenantId: string, id: string): Promise<ContentRecord | null> {
    const record = await this.#tx.getContent(tenantId, id)
    this.#lastRead = { tenantId, id, record }
    this.#lastSlugMiss = null
    return record
  }
  async getContentBySlug(tenantId: string, slug: string): Promise<ContentRecord | null> {
    const record = await this.#tx.getContentBySlug(tenantId, slug)
    // Hint: a miss keeps the item last read by id (an import renaming an item's slug reads it by id, then checks the new slug is free).
    if (record !== null) this.#lastRead = { tenantId, id: record.id, record }
    this.#lastSlugMiss = record === null ? { tenantId, slug } : null
    return record
  }
  async getContents(tenantId: string, ids: readonly string[]): Promise<(ContentRecord | null)[]> {
    const records = await this.#tx.getContents(tenantId, ids)
    this.#readAhead = { tenantId, byId: new Map(ids.map((id, i) => [id, records[i] ?? null])) }
    return records
  }
  listContents(tenantId: string, query: ContentQuery): Promise<ContentRecord[]> {
    return this.#tx.listContents(tenantId, query)
  }
  getInquiryCategory(tenantId: string, id: string): Promise<InquiryCategoryRecord | null> {
    return this.#tx.getInquiryCategory(tenantId, id)
  }
  getInquiryCategoryByCode(tenantId: string, code: string): Promise<InquiryCategoryRecord | null> {
    return this.#tx.getInquiryCategoryByCode(tenantId, code)
  }
  listInquiryCategories(tenantId: string): Promise<InquiryCategoryRecord[]> {
    return this.#tx.listInquiryCategories(tenantId)
  }
  getSynonyms(tenantId: string): Promise<string[]> {
    return this.#tx.getSynonyms(tenantId)
  }
  scheduledThrough(tenantId: string): Promise<string | null> {
    return this.#tx.scheduledThrough(tenantId)
  }

  // ── writes

  // Hint: an import puts every item through here, so what is known already (the tenant's
  // subscriptions, the item just read, categories, `scheduled_through`) is taken without an
  // await: each promise costs more than the rule it feeds.
  async putContent(record: ContentRecord): Promise<void> {
    const tenantId = record.tenant_id
    if (!(this.#subscribed.get(tenantId)?.content ?? (await this.#listened(tenantId)))) {
      this.#lastRead = null
      this.#lastSlugMiss = null
      this.#readAhead = null
      return this.#tx.putContent(record)
    }
    const known = this.#known(tenantId, record.id, record.slug)
    const before = known === undefined ? await this.#tx.getContent(tenantId, record.id) : known
    const through = this.#through.has(tenantId) ? (this.#through.get(tenantId) ?? null) : await this.#scheduledThrough(tenantId)
    const beforeCategory = before === null ? null : (this.#categoryKnown(tenantId, before.category_id) ?? (await this.#category(tenantId, before.category_id)))
    const was = before !== null && isAnnounced(before, beforeCategory, through)
    this.#readAhead?.byId.delete(record.id)
    await this.#tx.putContent(record)
    this.#lastRead = null
    this.#lastSlugMiss = null
    const category = this.#categoryKnown(tenantId, record.category_id) ?? (await this.#category(tenantId, record.category_id))
    const is = category !== null && isAnnounced(record, category, through)
    let full: Promise<void> | undefined
    if (is && category !== null) {
      const changed = before === null || before.version !== record.version || before.updated_at !== record.updated_at
      if (!was) full = this.#emit(tenantId, 'content.published', contentEventData(record, category))
      else if (changed) full = this.#emit(tenantId, 'content.updated', contentEventData(record, category))
    } else if (was && before !== null && beforeCategory !== null) {
      // Hint: the item as it was last shown, with its new version, so that the receiver can tell the order.
      full = this.#emit(tenantId, 'content.unpublished', contentEventData({ ...before, version: record.version, updated_at: record.updated_at }, beforeCategory))
    }
    if (full !== undefined) await full
  }

  async deleteContent(tenantId: string, id: string): Promise<boolean> {
    if (!(await this.#listened(tenantId))) {
      this.#lastRead = null
      this.#lastSlugMiss = null
      this.#readAhead = null
      return this.#tx.deleteContent(tenantId, id)
    }
    const before = await this.#stored(tenantId, id)
    this.#readAhead?.byId.delete(id)
    const deleted = await this.#tx.deleteContent(tenantId, id)
    this.#lastRead = null
    this.#lastSlugMiss = null
    if (!deleted || before === null) return deleted
    const category = await this.#category(tenantId, before.category_id)
    if (category !== null && isAnnounced(before, category, await this.#scheduledThrough(tenantId))) {
      await this.#emit(tenantId, 'content.deleted', contentEventData(before, category))
    }
    return deleted
  }

  async putCategory(record: CategoryRecord): Promise<void> {
    // Hint: items read ahead hold their categories' names no longer.
    this.#readAhead = null
    if (!(await this.#listened(record.tenant_id))) return this.#tx.putCategory(record)
    const before = await this.#category(record.tenant_id, record.id)
    await this.#tx.putCategory(record)
    this.#categories.set(`${record.tenant_id}\u0000${record.id}`, record)
    if (before === null) return
    const shown = before.code !== record.code || before.name !== record.name
    if (before.active === record.active && before.updated_at === record.updated_at && !shown) return
    const through = await this.#scheduledThrough(record.tenant_id)
    await this.#eachItem(record.tenant_id, { categoryIds: [record.id] }, async (item) => {
      const was = isAnnounced(item, before, through)
      const is = isAnnounced(item, record, through)
      if (is && !was) await this.#emit(record.tenant_id, 'content.published', contentEventData(item, record))
      else if (was && !is) await this.#emit(record.tenant_id, 'content.unpublished', contentEventData(item, before))
      else if (is && shown) await this.#emit(record.tenant_id, 'content.updated', contentEventData(item, record))
    })
  }

  async putTag(record: TagRecord): Promise<void> {
    if (!(await this.#listened(record.tenant_id))) return this.#tx.putTag(record)
    const before = await this.#tx.getTag(record.tenant_id, record.id)
    await this.#tx.putTag(record)
    if (before === null || before.name === record.name) return
    // Hint: items read ahead hold the tag's old name.
    this.#readAhead = null
    const through = await this.#scheduledThrough(record.tenant_id)
    await this.#eachItem(record.tenant_id, { tagIds: [record.id] }, async (item) => {
      const category = await this.#category(item.tenant_id, item.category_id)
      if (category !== null && isAnnounced(item, category, through)) await this.#emit(record.tenant_id, 'content.updated', contentEventData(item, category))
    })
  }

  putInquiryCategory(record: InquiryCategoryRecord): Promise<void> {
    return this.#tx.putInquiryCategory(record)
  }
  replaceSynonyms(tenantId: string, lines: readonly string[]): Promise<void> {
    return this.#tx.replaceSynonyms(tenantId, lines)
  }

  appendEvents(events: readonly OutboxEvent[]): Promise<void> {
    return this.#tx.appendEvents(events)
  }

  eventSubscriptions(tenantId: string): Promise<readonly string[] | null> {
    return this.#tx.eventSubscriptions(tenantId)
  }

  setScheduledThrough(tenantId: string, at: string): Promise<void> {
    this.#through.set(tenantId, at)
    return this.#tx.setScheduledThrough(tenantId, at)
  }

  // ── helpers

  /** Whether some endpoint of the tenant takes content events (see the class comment). */
  async #listened(tenantId: string): Promise<boolean> {
    let subscribed = this.#subscribed.get(tenantId)
    if (subscribed === undefined) {
      const types = subscribedTypes(await this.#tx.eventSubscriptions(tenantId))
      subscribed = { types, content: [...types].some((type) => type !== 'inquiry.created') }
      this.#subscribed.set(tenantId, subscribed)
    }
    return subscribed.content
  }

  /**
   * Adds the event if the tenant's endpoints take its type (`#listened` was asked first); a
   * promise only when a full batch is handed to the store.
   */
  #emit(tenantId: string, type: EventType, data: OutboxEvent['data']): Promise<void> | undefined {
    if (this.#subscribed.get(tenantId)?.types.has(type) !== true) return undefined
    this.#pending.push({ tenant_id: tenantId, id: newId('evt', this.#now), type, created_at: this.#nowIso, data })
    return this.#pending.length >= APPEND_BATCH ? this.#tx.appendEvents(this.#pending.splice(0)) : undefined
  }

  async #stored(tenantId: string, id: string): Promise<ContentRecord | null> {
    const known = this.#known(tenantId, id)
    return known === undefined ? this.#tx.getContent(tenantId, id) : known
  }

  /** The stored item when known without a read (the item just read or read ahead, or a slug just missed: none); `undefined`: not known. */
  #known(tenantId: string, id: string, slug?: string): ContentRecord | null | undefined {
    const last = this.#lastRead
    if (last !== null && last.tenantId === tenantId && last.id === id) return last.record
    // Hint: before the slug missed, which tells of an item without an id only: one read ahead by its id may have had another slug.
    const ahead = this.#readAhead
    const read = ahead !== null && ahead.tenantId === tenantId ? ahead.byId.get(id) : undefined
    if (read !== undefined) return read
    const miss = this.#lastSlugMiss
    if (miss !== null && miss.tenantId === tenantId && miss.slug === slug) return null
    return undefined
  }

  /** The category when it was read in this transaction and exists; else `undefined` (ask `#category`). */
  #categoryKnown(tenantId: string, id: string): CategoryRecord | undefined {
    return this.#categories.get(`${tenantId}\u0000${id}`) ?? undefined
  }

  async #category(tenantId: string, id: string): Promise<CategoryRecord | null> {
    const key = `${tenantId}\u0000${id}`
    let category = this.#categories.get(key)
    if (category === undefined) {
      category = await this.#tx.getCategory(tenantId, id)
      this.#categories.set(key, category)
    }
    return category
  }

  async #scheduledThrough(tenantId: string): Promise<string | null> {
    if (!this.#through.has(tenantId)) this.#through.set(tenantId, await this.#tx.scheduledThrough(tenantId))
    return this.#through.get(tenantId) ?? null
  }

  /** Calls `each` for every item (whole records) of the tenant the filter selects, in id order. */
  async #eachItem(tenantId: string, filter: Pick<ContentQuery, 'categoryIds' | 'tagIds'>, each: (item: ContentRecord) => Promise<void>): Promise<void> {
    let after: ContentQuery['after']
    for (;;) {
      const page = await this.#tx.listContents(tenantId, {
        visibility: { kind: 'all' },
        ...filter,
        sort: { key: 'id', direction: 'asc' },
        limit: PAGE,
        ...(after === undefined ? {} : { after }),
      })
      for (const item of page) await each(item)
      const last = page.at(-1)
      if (page.length < PAGE || last === undefined) return
      after = { value: last.id, id: last.id }
    }
  }
}
