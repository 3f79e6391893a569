import type {
  CategoryRecord, ContentQuery, ContentRecord, ContentWriter, InquiryCategoryRecord, OutboxEvent, TagRecord, TransactionObserver,
} from '@frontdesk/core'
import type { TransactionSql } from './connection/sql.ts'
import { listContents } from './query/list-contents.ts'
import { selectCategories, selectCategory, selectCategoryByCode, upsertCategory } from './records/categories.ts'
import type { ChangeSet } from './records/change-set.ts'
import type { ContentValues } from './records/contents.ts'
import { contentValues, copyContents, deleteContentRow, inFieldIdOrder, selectContent, selectContentBySlug, selectContentsByIds, upsertContents } from './records/contents.ts'
import { insertEvents, selectEventSubscriptions, selectScheduledThrough, upsertScheduledThrough } from './records/events.ts'
import { replaceSynonymSet, selectSynonyms } from './records/synonyms.ts'
import { selectInquiryCategories, selectInquiryCategory, selectInquiryCategoryByCode, upsertInquiryCategory } from './records/inquiry-categories.ts'
import { selectTag, selectTagByName, selectTags, upsertTag } from './records/tags.ts'

/** Items written per statement (see `upsertContents`). */
export const WRITE_BATCH = 1_000

/** What the transaction knows of a tenant it wrote items of (see `#known`). */
interface TenantItems {
  /** The tenant had no items when the transaction first wrote or read one of them. */
  emptyAtStart: boolean
  /** Slug of every item written in this transaction and not deleted since, by id. */
  slugOf: Map<string, string>
  /** The inverse of `slugOf`. */
  idOfSlug: Map<string, string>
}

/**
 * The content model inside one write transaction (on its connection): every write is recorded
 * in the transaction's `ChangeSet` and shown to its observer. Items are written in batches
 * (`WRITE_BATCH` per statement) rather than one by one, and reads see the transaction's own
 * writes: an item still waiting for its batch is answered from memory; reads that need the
 * database (lists, several ids) write the waiting batch first. For a tenant that had no items
 * when the transaction began writing, the items of the tenant are exactly those it wrote (every
 * content write takes the store's writer lock, see `PostgresStore.transaction`), so a lookup of
 * an item it never wrote is answered `null` without a query: a first import of 100,000 items
 * then costs ~100 statements instead of 200,000 round trips.
 */
export class TransactionWriter implements ContentWriter {
  readonly #sql: TransactionSql
  readonly #changes: ChangeSet
  readonly #observer: TransactionObserver | null
  /**
   * Items given and not yet sent: their column values, the record as given (for reads) while it
   * carries no tags, and whether no row has its id (`fresh`: its tenant had no items when the
   * transaction began writing them, and it has not been sent since), so that COPY can insert it.
   */
  readonly #pending = new Map<string, { values: ContentValues; record: ContentRecord | null; fresh: boolean }>()
  readonly #tenants = new Map<string, TenantItems>()
  /** The batch of items being written (see `#startBatch`). */
  #writing: Promise<void> = Promise.resolve()
  #open = true
  /** Events appended, written by `flushEvents` last before COMMIT (their numbers are taken in commit order). */
  #events: OutboxEvent[] = []

  constructor(sql: TransactionSql, changes: ChangeSet, observer: TransactionObserver | null) {
    this.#sql = sql
    this.#changes = changes
    this.#observer = observer
  }

  /** Writes what is waiting (and waits for the batch under way). */
  async flush(): Promise<void> {
    this.#startBatch()
    await this.#writing
  }

  /**
   * Sends the waiting items as one batch without waiting for it, after the batch before it has
   * been written (its failure is thrown here): the next batch is planned while the database
   * writes this one. Every other statement waits for it first (`#settled`).
   */
  #startBatch(): void {
    if (this.#pending.size === 0) return
    const fresh: ContentValues[] = []
    const stored: ContentValues[] = []
    for (const item of this.#pending.values()) (item.fresh ? fresh : stored).push(item.values)
    this.#pending.clear()
    // Hint: replaced rows first: a slug a stored item gave up may be a new item's now (checked at each statement's end).
    this.#writing = this.#writing.then(async () => {
      await upsertContents(this.#sql, stored)
      await copyContents(this.#sql, fresh)
    })
    // Hint: its failure is thrown by whoever waits for it next; until then it is not unhandled.
    this.#writing.catch(() => undefined)
  }

  async #settled(): Promise<void> {
    await this.#writing
  }

  /** Writes the events appended; call last before COMMIT (see `records/events.ts`). */
  async flushEvents(): Promise<void> {
    const events = this.#events
    this.#events = []
    await insertEvents(this.#sql, events)
  }

  /** Ends the object's life: later calls (a `work` that kept `tx`) fail instead of writing outside the transaction. */
  close(): void {
    this.#open = false
  }

  /** Reopens it for the observer's `committing` (reads only, by contract). */
  reopen(): void {
    this.#open = true
  }

  getCategory(tenantId: string, id: string): Promise<CategoryRecord | null> {
    return this.#read(() => selectCategory(this.#sql, tenantId, id))
  }
  getCategoryByCode(tenantId: string, code: string): Promise<CategoryRecord | null> {
    return this.#read(() => selectCategoryByCode(this.#sql, tenantId, code))
  }
  listCategories(tenantId: string): Promise<CategoryRecord[]> {
    return this.#read(() => selectCategories(this.#sql, tenantId))
  }
  getTag(tenantId: string, id: string): Promise<TagRecord | null> {
    return this.#read(() => selectTag(this.#sql, tenantId, id))
  }
  getTagByName(tenantId: string, name: string): Promise<TagRecord | null> {
    return this.#read(() => selectTagByName(this.#sql, tenantId, name))
  }
  listTags(tenantId: string): Promise<TagRecord[]> {
    return this.#read(() => selectTags(this.#sql, tenantId))
  }
  getInquiryCategory(tenantId: string, id: string): Promise<InquiryCategoryRecord | null> {
    return this.#read(() => selectInquiryCategory(this.#sql, tenantId, id))
  }
  getInquiryCategoryByCode(tenantId: string, code: string): Promise<InquiryCategoryRecord | null> {
    return this.#read(() => selectInquiryCategoryByCode(this.#sql, tenantId, code))
  }
  listInquiryCategories(tenantId: string): Promise<InquiryCategoryRecord[]> {
    return this.#read(() => selectInquiryCategories(this.#sql, tenantId))
  }
  getSynonyms(tenantId: string): Promise<string[]> {
    return this.#read(() => selectSynonyms(this.#sql, tenantId))
  }

  async getContent(tenantId: string, id: string): Promise<ContentRecord | null> {
    this.#check()
    const waiting = this.#pending.get(key(tenantId, id))
    // Hint: an item with tags is read back from the database, with the names its tags have now.
    if (waiting !== undefined) return waiting.record !== null ? restored(waiting.values, waiting.record) : this.#flushed(() => selectContent(this.#sql, tenantId, id))
    const known = await this.#known(tenantId)
    if (known.emptyAtStart && !known.slugOf.has(id)) return null
    return this.#flushed(() => selectContent(this.#sql, tenantId, id))
  }

  async getContentBySlug(tenantId: string, slug: string): Promise<ContentRecord | null> {
    this.#check()
    const known = await this.#known(tenantId)
    const id = known.idOfSlug.get(slug)
    if (id !== undefined) return this.getContent(tenantId, id)
    if (known.emptyAtStart) return null
    const found = await this.#flushed(() => selectContentBySlug(this.#sql, tenantId, slug))
    // Hint: an item this transaction gave another slug still has this one in the database until its batch is written.
    return found !== null && known.slugOf.has(found.id) ? null : found
  }

  async getContents(tenantId: string, ids: readonly string[]): Promise<(ContentRecord | null)[]> {
    this.#check()
    // Hint: as `getContent`: in a tenant empty at the start, ids never written are no items (a bulk load's read-ahead reads nothing).
    const known = await this.#known(tenantId)
    if (known.emptyAtStart && ids.every((id) => !known.slugOf.has(id))) return ids.map(() => null)
    return this.#flushed(() => selectContentsByIds(this.#sql, tenantId, ids))
  }

  listContents(tenantId: string, query: ContentQuery): Promise<ContentRecord[]> {
    return this.#flushed(() => listContents(this.#sql, tenantId, query))
  }

  async putCategory(record: CategoryRecord): Promise<void> {
    await this.#write(() => upsertCategory(this.#sql, record))
    this.#changes.add(record.tenant_id, 'category', record.id)
    this.#observer?.category(record)
  }

  async putTag(record: TagRecord): Promise<void> {
    await this.#write(() => upsertTag(this.#sql, record))
    this.#changes.add(record.tenant_id, 'tag', record.id)
    this.#observer?.tag(record)
  }

  async putContent(record: ContentRecord): Promise<void> {
    this.#check()
    const known = await this.#known(record.tenant_id)
    const before = known.slugOf.get(record.id)
    if (before !== undefined && known.idOfSlug.get(before) === record.id) known.idOfSlug.delete(before)
    known.slugOf.set(record.id, record.slug)
    known.idOfSlug.set(record.slug, record.id)
    const k = key(record.tenant_id, record.id)
    // Hint: fresh while no row has the id: never written in a tenant empty at the start, or written and still waiting.
    const fresh = this.#pending.get(k)?.fresh ?? (known.emptyAtStart && before === undefined)
    // Hint: a batch holds each item once (its last version), so ON CONFLICT never meets a row twice.
    this.#pending.delete(k)
    this.#pending.set(k, { values: contentValues(record), record: record.tags.length === 0 ? { ...record } : null, fresh })
    this.#changes.add(record.tenant_id, 'content', record.id)
    this.#observer?.content(record)
    if (this.#pending.size >= WRITE_BATCH) {
      await this.#settled()
      this.#startBatch()
    }
  }

  async deleteContent(tenantId: string, id: string): Promise<boolean> {
    this.#check()
    const known = await this.#known(tenantId)
    const waiting = this.#pending.delete(key(tenantId, id))
    const slug = known.slugOf.get(id)
    known.slugOf.delete(id)
    if (slug !== undefined && known.idOfSlug.get(slug) === id) known.idOfSlug.delete(slug)
    const deleted = (await this.#flushed(() => deleteContentRow(this.#sql, tenantId, id))) || waiting
    if (deleted) {
      this.#changes.add(tenantId, 'content', id)
      this.#observer?.contentDeleted(tenantId, id)
    }
    return deleted
  }

  async putInquiryCategory(record: InquiryCategoryRecord): Promise<void> {
    await this.#write(() => upsertInquiryCategory(this.#sql, record))
    this.#changes.add(record.tenant_id, null, record.id)
  }

  async replaceSynonyms(tenantId: string, lines: readonly string[]): Promise<void> {
    await this.#write(() => replaceSynonymSet(this.#sql, tenantId, lines))
    this.#changes.add(tenantId, null, tenantId)
  }

  async appendEvents(events: readonly OutboxEvent[]): Promise<void> {
    this.#check()
    this.#events.push(...events)
  }
  scheduledThrough(tenantId: string): Promise<string | null> {
    return this.#read(() => selectScheduledThrough(this.#sql, tenantId))
  }
  setScheduledThrough(tenantId: string, at: string): Promise<void> {
    return this.#write(() => upsertScheduledThrough(this.#sql, tenantId, at))
  }
  eventSubscriptions(tenantId: string): Promise<readonly string[] | null> {
    return this.#read(() => selectEventSubscriptions(this.#sql, tenantId))
  }

  /** What the transaction knows of the tenant's items, asking the database once whether it has any. */
  async #known(tenantId: string): Promise<TenantItems> {
    let known = this.#tenants.get(tenantId)
    if (known === undefined) {
      const any = await this.#flushed(() => this.#sql.rows('SELECT 1 FROM contents WHERE tenant_id = $1 LIMIT 1', [tenantId]))
      known = this.#tenants.get(tenantId) ?? { emptyAtStart: any.length === 0, slugOf: new Map(), idOfSlug: new Map() }
      this.#tenants.set(tenantId, known)
    }
    return known
  }

  #check(): void {
    if (!this.#open) throw new Error('The transaction has already ended')
  }

  async #read<T>(step: () => Promise<T>): Promise<T> {
    this.#check()
    await this.#settled()
    return step()
  }

  async #write<T>(step: () => Promise<T>): Promise<T> {
    this.#check()
    await this.#settled()
    return step()
  }

  async #flushed<T>(step: () => Promise<T>): Promise<T> {
    this.#check()
    await this.flush()
    return step()
  }
}

/** A waiting item as the database will give it back: its meta and fields as written (read from its values), fields in id order. */
function restored(values: ContentValues, record: ContentRecord): ContentRecord {
  return { ...record, tags: [], meta: JSON.parse(values[10] as string) as ContentRecord['meta'], fields: inFieldIdOrder(JSON.parse(values[15] as string) as ContentRecord['fields']) }
}

function key(tenantId: string, id: string): string {
  return `${tenantId}\u0000${id}`
}
