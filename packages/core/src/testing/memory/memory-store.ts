import { StorageUnavailableError } from '../../errors/frontdesk-error.ts'
import type { ApiKeyRecord } from '../../model/api-key.ts'
import type { CategoryRecord } from '../../model/category.ts'
import type { ContentRecord } from '../../model/content.ts'
import type { IdempotencyClaim, IdempotencyClaimTerms, StoredResponse } from '../../model/idempotency.ts'
import type { InquiryCategoryRecord, InquiryRecord, InquiryStatus } from '../../model/inquiry.ts'
import type { PreviewTokenRecord } from '../../model/preview-token.ts'
import type { TagRecord } from '../../model/tag.ts'
import type { Tenant } from '../../model/tenant.ts'
import type { ChangeBatch, FeedPosition } from '../../port/change-feed.ts'
import type { ContentQuery } from '../../port/content-query.ts'
import type { OutboxEvent, StoredEvent } from '../../port/event-outbox.ts'
import type { SearchSourceItem } from '../../port/search-source.ts'
import type { ContentWriter, Store, StoreCapabilities, TransactionOptions } from '../../port/store.ts'
import type { MemoryDatabase } from './memory-database.ts'
import { createMemoryDatabase } from './memory-database.ts'
import { MemoryContent } from './memory-content.ts'
import { Draft } from './memory-draft.ts'
import * as records from './memory-records.ts'
import type { MemoryTables } from './memory-tables.ts'

/** Options of `createMemoryStore`. */
export interface MemoryStoreOptions {
  /**
   * The database to open. Two stores on one database behave as two processes on one database
   * file: each sees what the other commits, their writes take turns, and each can be closed on
   * its own. Default: a new, empty database.
   */
  database?: MemoryDatabase
}

/**
 * A `Store` in memory, written to be obviously right rather than fast: maps of records, full
 * scans, core's own query model for lists. Every write works on a copy of the tables and the
 * commit swaps the copy in, so a transaction is all or nothing by construction. It reads no
 * clock and draws no random number (core decides every id and time), so that the same
 * operations always give the same state. It passes the storage-port conformance suite; core's
 * tests run on it, and differential tests use it as the model a real store is compared with.
 *
 * ```ts
 * const database = createMemoryDatabase()
 * const store = createMemoryStore({ database })
 * const otherProcess = createMemoryStore({ database })
 * ```
 */
export function createMemoryStore(options: MemoryStoreOptions = {}): MemoryStore {
  return new MemoryStore(options.database ?? createMemoryDatabase())
}

/** See `createMemoryStore`. */
export class MemoryStore implements Store {
  /** The database this store opened (open another store on it to play another process). */
  readonly database: MemoryDatabase
  /** Every store on the database shares its state, as processes on one machine share a file. */
  readonly capabilities: StoreCapabilities = { scope: 'machine' }
  readonly #content: MemoryContent
  #closed = false
  #pending: Promise<unknown> = Promise.resolve()

  constructor(database: MemoryDatabase) {
    this.database = database
    this.#content = new MemoryContent(() => this.#committed())
  }

  // ── content model (reads; writes go through `transaction`)

  getCategory(tenantId: string, id: string): Promise<CategoryRecord | null> {
    return this.#read(() => this.#content.getCategory(tenantId, id))
  }
  getCategoryByCode(tenantId: string, code: string): Promise<CategoryRecord | null> {
    return this.#read(() => this.#content.getCategoryByCode(tenantId, code))
  }
  listCategories(tenantId: string): Promise<CategoryRecord[]> {
    return this.#read(() => this.#content.listCategories(tenantId))
  }
  getTag(tenantId: string, id: string): Promise<TagRecord | null> {
    return this.#read(() => this.#content.getTag(tenantId, id))
  }
  getTagByName(tenantId: string, name: string): Promise<TagRecord | null> {
    return this.#read(() => this.#content.getTagByName(tenantId, name))
  }
  listTags(tenantId: string): Promise<TagRecord[]> {
    return this.#read(() => this.#content.listTags(tenantId))
  }
  getContent(tenantId: string, id: string): Promise<ContentRecord | null> {
    return this.#read(() => this.#content.getContent(tenantId, id))
  }
  getContentBySlug(tenantId: string, slug: string): Promise<ContentRecord | null> {
    return this.#read(() => this.#content.getContentBySlug(tenantId, slug))
  }
  getContents(tenantId: string, ids: readonly string[]): Promise<(ContentRecord | null)[]> {
    return this.#read(() => this.#content.getContents(tenantId, ids))
  }
  listContents(tenantId: string, query: ContentQuery): Promise<ContentRecord[]> {
    return this.#read(() => this.#content.listContents(tenantId, query))
  }
  getInquiryCategory(tenantId: string, id: string): Promise<InquiryCategoryRecord | null> {
    return this.#read(() => this.#content.getInquiryCategory(tenantId, id))
  }
  getInquiryCategoryByCode(tenantId: string, code: string): Promise<InquiryCategoryRecord | null> {
    return this.#read(() => this.#content.getInquiryCategoryByCode(tenantId, code))
  }
  listInquiryCategories(tenantId: string): Promise<InquiryCategoryRecord[]> {
    return this.#read(() => this.#content.listInquiryCategories(tenantId))
  }
  getSynonyms(tenantId: string): Promise<string[]> {
    return this.#read(() => this.#content.getSynonyms(tenantId))
  }

  // ── tenants, API keys, preview tokens

  createTenant(tenant: Tenant): Promise<void> {
    return this.#write((draft) => records.createTenant(draft.tables, tenant))
  }
  getTenant(id: string): Promise<Tenant | null> {
    return this.#read(() => records.getTenant(this.#committed(), id))
  }
  getTenantByCode(code: string): Promise<Tenant | null> {
    return this.#read(() => records.getTenantByCode(this.#committed(), code))
  }
  listTenants(): Promise<Tenant[]> {
    return this.#read(() => records.listTenants(this.#committed()))
  }
  createApiKey(record: ApiKeyRecord): Promise<void> {
    return this.#write((draft) => records.createApiKey(draft.tables, record))
  }
  findApiKeyByHash(hash: string): Promise<{ key: ApiKeyRecord; tenant: Tenant } | null> {
    return this.#read(() => records.findApiKeyByHash(this.#committed(), hash))
  }
  getApiKey(id: string): Promise<ApiKeyRecord | null> {
    return this.#read(() => records.getApiKey(this.#committed(), id))
  }
  listApiKeys(tenantId: string): Promise<ApiKeyRecord[]> {
    return this.#read(() => records.listApiKeys(this.#committed(), tenantId))
  }
  updateApiKey(id: string, patch: Partial<Pick<ApiKeyRecord, 'disabled_at' | 'last_used_at' | 'rate_limit'>>): Promise<boolean> {
    return this.#write((draft) => records.updateApiKey(draft.tables, id, patch))
  }
  deleteApiKey(id: string): Promise<boolean> {
    return this.#write((draft) => draft.tables.apiKeys.delete(id))
  }

  // ── instance secrets

  instanceSecret(name: string, candidate: string): Promise<string> {
    return this.#write((draft) => {
      const stored = draft.tables.secrets.get(name)
      if (stored !== undefined) return stored
      draft.tables.secrets.set(name, candidate)
      return candidate
    })
  }
  createPreviewToken(record: PreviewTokenRecord): Promise<void> {
    return this.#write((draft) => records.createPreviewToken(draft.tables, record))
  }
  findPreviewTokenByHash(hash: string): Promise<PreviewTokenRecord | null> {
    return this.#read(() => records.findPreviewTokenByHash(this.#committed(), hash))
  }
  getPreviewToken(id: string): Promise<PreviewTokenRecord | null> {
    return this.#read(() => records.getPreviewToken(this.#committed(), id))
  }
  revokePreviewToken(id: string, at: string): Promise<boolean> {
    return this.#write((draft) => records.revokePreviewToken(draft.tables, id, at))
  }

  // ── inquiries and idempotency keys

  insertInquiry(record: InquiryRecord, idempotency?: { key: string; holder: string; response: StoredResponse }, events?: readonly OutboxEvent[]): Promise<void> {
    return this.#write((draft) => records.insertInquiry(draft.tables, record, idempotency, events))
  }
  getInquiry(tenantId: string, id: string): Promise<InquiryRecord | null> {
    return this.#read(() => records.getInquiry(this.#committed(), tenantId, id))
  }
  listInquiries(tenantId: string, options: { status?: InquiryStatus; before?: string; limit: number }): Promise<InquiryRecord[]> {
    return this.#read(() => records.listInquiries(this.#committed(), tenantId, options))
  }
  claimIdempotencyKey(tenantId: string, key: string, requestHash: string, terms: IdempotencyClaimTerms): Promise<IdempotencyClaim> {
    return this.#write((draft) => records.claimIdempotencyKey(draft.tables, tenantId, key, requestHash, terms))
  }
  renewIdempotencyKey(tenantId: string, key: string, holder: string, now: string): Promise<boolean> {
    return this.#write((draft) => records.renewIdempotencyKey(draft.tables, tenantId, key, holder, now))
  }
  releaseIdempotencyKey(tenantId: string, key: string, holder: string): Promise<void> {
    return this.#write((draft) => records.releaseIdempotencyKey(draft.tables, tenantId, key, holder))
  }

  // ── transactions, change feed, search source, lifecycle

  /** All or nothing: `work` writes to a copy of the tables, which the commit swaps in. `bulk` changes nothing here. */
  transaction<T>(work: (tx: ContentWriter) => Promise<T>, options: TransactionOptions = {}): Promise<T> {
    return this.#write(async (draft) => {
      const tx = new MemoryContent(() => draft.tables, draft)
      await draft.observer?.begun(tx)
      const result = await work(tx)
      if (draft.observer !== null) {
        draft.state = 'committing'
        await draft.observer.committing(tx, this.database.positionAfter(draft.changes.length))
      }
      return result
    }, options.observer ?? null)
  }

  readEvents(after: number, limit: number, tenantId?: string): Promise<StoredEvent[]> {
    return this.#read(() =>
      this.#committed()
        .events.slice(Math.max(0, Math.floor(after)))
        .filter((event) => tenantId === undefined || event.tenant_id === tenantId)
        .slice(0, Math.max(1, Math.floor(limit))),
    )
  }
  getEvent(tenantId: string, id: string): Promise<StoredEvent | null> {
    return this.#read(() => this.#committed().events.find((event) => event.tenant_id === tenantId && event.id === id) ?? null)
  }
  lastEventSeq(): Promise<number> {
    return this.#read(() => this.#committed().events.length)
  }
  newestPublications(now: string): Promise<Map<string, string>> {
    return this.#read(() => {
      const newest = new Map<string, string>()
      for (const item of this.#committed().contents.values()) {
        if (item.status !== 'published' || item.published_at === null || item.published_at > now) continue
        if ((newest.get(item.tenant_id) ?? '') < item.published_at) newest.set(item.tenant_id, item.published_at)
      }
      return newest
    })
  }

  feedPosition(): Promise<FeedPosition> {
    return this.#read(() => this.database.position())
  }
  readChanges(after: FeedPosition, limit: number, tenantId?: string): Promise<ChangeBatch | null> {
    return this.#read(() => this.database.readChanges(after, limit, tenantId))
  }
  readSearchItems(tenantId: string, range: { after: string | null; before?: string | null }, limit: number): Promise<SearchSourceItem[]> {
    return this.#read(() => records.readSearchItems(this.#committed(), tenantId, range, limit))
  }
  countItems(tenantId: string): Promise<number> {
    return this.#read(() => records.countItems(this.#committed(), tenantId))
  }

  revision(tenantId: string): Promise<number> {
    return this.#read(() => this.#committed().revisions.get(tenantId) ?? 0)
  }

  async ping(): Promise<void> {
    if (this.#closed) throw new StorageUnavailableError('The store is closed')
  }

  /** Lets the writes already asked for finish, then refuses work. Closing twice is harmless. */
  async close(): Promise<void> {
    this.#closed = true
    await this.#pending
  }

  #committed(): MemoryTables {
    return this.database.tables
  }

  async #read<T>(step: () => T | Promise<T>): Promise<T> {
    if (this.#closed) throw new Error('memory store: the store is closed')
    return step()
  }

  /** Runs `step` on a draft of the database's tables under its write lock; commits when it returns. */
  #write<T>(step: (draft: Draft) => T | Promise<T>, observer: TransactionOptions['observer'] | null = null): Promise<T> {
    if (this.#closed) return Promise.reject(new Error('memory store: the store is closed'))
    const done = this.database.write(async () => {
      const draft = new Draft(this.database.tables, observer)
      try {
        const result = await step(draft)
        const changes = draft.changes
        return { result, tables: draft.finish(), changes }
      } finally {
        draft.state = 'ended'
      }
    })
    this.#pending = Promise.all([this.#pending, done.catch(() => undefined)])
    return done
  }
}
