import type { Database } from 'better-sqlite3'
import type {
  ApiKeyRecord, CategoryRecord, ChangeBatch, ContentQuery, ContentRecord, ContentWriter, FeedPosition, IdempotencyClaim, IdempotencyClaimTerms,
  InquiryCategoryRecord, InquiryRecord, InquiryStatus, OutboxEvent, PreviewTokenRecord, SearchSourceItem, Store, StoreCapabilities,
  StoredEvent, StoredResponse, TagRecord, Tenant, TransactionOptions, WebhookAttemptRecord, WebhookEndpointPatch,
  WebhookEndpointRecord, WebhookLease, WebhookReplayLease, WebhookReplayRecord, WebhookStore,
} from '@frontdesk/core'
import { memoByDefault } from '@frontdesk/core'
import { toStorageError, withBusyRetry } from './connection/busy-retry.ts'
import type { ReadMemo } from './connection/data-version-memo.ts'
import { DataVersionMemo, READ_AFRESH } from './connection/data-version-memo.ts'
import { dataVersionOf } from './connection/data-version-watch.ts'
import { LOCK_WAIT_SLICE_MS, openConnection, TRANSACTION_CACHE_KIB } from './connection/open-connection.ts'
import { toOpenError } from './connection/open-error.ts'
import type { Connection } from './connection/statement-cache.ts'
import { GroupCommit } from './connection/group-commit.ts'
import { WriteGate } from './connection/write-gate.ts'
import type { CommitDurability } from './connection/write-gate.ts'
import { migrate } from './migrations/migrate.ts'
import { SqliteRateLimits } from './rate-limits/sqlite-rate-limits.ts'
import { listContentsPage, tagLookup } from './query/list-page.ts'
import { deleteApiKeyRow, insertApiKey, selectApiKey, selectApiKeyByHash, selectApiKeys, updateApiKeyColumns } from './records/api-keys.ts'
import { currentPosition, readChanges } from './records/change-feed.ts'
import { insertEvents, selectEvent, selectEvents, selectLastEventSeq, selectNewestPublications } from './records/events.ts'
import {
  deleteEndpoint, finishAttempts, finishReplay, hasHistoryToPrune, insertEndpoint, insertReplays, leaseEndpoint, leaseReplay, pruneHistory, selectAttempts,
  selectDueEndpoint, selectDueReplay, selectEndpoint, selectEndpoints, updateEndpoint,
} from './records/webhooks.ts'
import { pruneChangeLog } from './records/change-log.ts'
import { countContents, selectSearchItems } from './records/search-items.ts'
import { deferIndexes, restoreIndexes } from './records/deferred-indexes.ts'
import { selectCategories, selectCategory, selectCategoryByCode } from './records/categories.ts'
import { ChangeSet } from './records/change-set.ts'
import { selectContent, selectContentBySlug } from './records/contents.ts'
import { selectContentsByIds } from './records/contents-by-ids.ts'
import { selectSynonyms } from './records/synonyms.ts'
import { selectInquiryCategories, selectInquiryCategory, selectInquiryCategoryByCode } from './records/inquiry-categories.ts'
import { selectTag, selectTagByName, selectTags } from './records/tags.ts'
import { TransactionWriter } from './records/transaction-writer.ts'
import { claimKey, completeKey, releaseKey, renewKey } from './records/idempotency-keys.ts'
import { insertInquiryRow, selectInquiries, selectInquiry } from './records/inquiries.ts'
import { insertPreviewToken, selectPreviewToken, selectPreviewTokenByHash, updatePreviewTokenRevoked } from './records/preview-tokens.ts'
import { claimInstanceSecret, selectInstanceSecret } from './records/instance-secrets.ts'
import { insertTenant, selectRevision, selectTenant, selectTenantByCode, selectTenants } from './records/tenants.ts'

/** Options of `openSqliteStore`. */
export interface SqliteStoreOptions {
  /** The database file; created (with its schema) when missing. */
  path: string
  /**
   * How long a write waits for another process's write lock before it fails with
   * `StorageUnavailableError`. The wait is asynchronous: the event loop keeps running. Default 5000.
   */
  busyTimeoutMs?: number
  /**
   * How long inquiry writes (the inquiry, its idempotency claim and release) wait for another
   * process's write lock. Longer than other writes, so that a server keeps accepting inquiries
   * through a long import run by the CLI (which holds the lock until its single commit): the
   * waiting requests cost no CPU (one lock poll per batch, see `GroupCommit`). Default four
   * times `busyTimeoutMs` (20 s by default, under the HTTP server's 30 s request timeout).
   */
  inquiryBusyTimeoutMs?: number
  /**
   * How many of the newest `change_log` rows to keep; older ones are pruned at the end of each
   * content transaction. A search index that fell further behind rebuilds. Default 100,000.
   */
  changeLogRetention?: number
  /**
   * Remember reads that every request makes (API keys by hash, categories, tags, list filter
   * counts, revisions, the feed position) until the next commit of any connection, noticed
   * through `PRAGMA data_version` read at most once a millisecond. `false` reads every time:
   * the same answers, slower. Default true, unless the environment variable `FRONTDESK_NO_MEMO` is `1`.
   */
  memo?: boolean
  /**
   * The file of the rate limits' token buckets, shared by every process on this database
   * (`Store.rateLimits`, see `SqliteRateLimits`). Default `<path>.rate-limits`; `null`: none
   * (each process then limits alone). A `:memory:` database has none.
   */
  rateLimitsPath?: string | null
}

/** Default of `SqliteStoreOptions.busyTimeoutMs`. */
export const DEFAULT_BUSY_TIMEOUT_MS = 5000

/** Default of `SqliteStoreOptions.changeLogRetention`. */
export const DEFAULT_CHANGE_LOG_RETENTION = 100_000

/** Where a database's rate-limit buckets are kept by default: `<path>.rate-limits`; `null` for a database that is no file. */
export function defaultRateLimitsPath(path: string): string | null {
  return path === '' || path === ':memory:' || path.startsWith('file:') ? null : `${path}.rate-limits`
}

/**
 * Opens (creating and migrating when needed) a SQLite database file as frontdesk's store.
 * Synchronous: it waits up to `busyTimeoutMs` for a migration lock held by another process.
 */
export function openSqliteStore(options: SqliteStoreOptions): SqliteStore {
  return new SqliteStore(options)
}

/**
 * The storage port over SQLite (better-sqlite3, WAL). Two connections: a reader for every read
 * outside a transaction, and a writer for every write. Writes of this process queue on an
 * async mutex; writes of other processes are waited for asynchronously, with backoff.
 *
 * Durability: commits are fsynced before they resolve (`synchronous = FULL`), so an
 * acknowledged inquiry or content change survives a crash of the process and of the machine.
 * Idempotency claims and last-use stamps commit at `NORMAL` (they survive `kill -9`, not power
 * loss, where losing them is harmless) because they sit on hot paths.
 */
export class SqliteStore implements Store {
  /** The database file. */
  readonly path: string
  /** The reader connection (`query_only`), for tests and diagnostics; writes go through the store's methods. */
  readonly db: Database

  readonly #reader: Connection
  readonly #writer: Connection
  readonly #busyTimeoutMs: number
  readonly #inquiryBusyTimeoutMs: number
  readonly #changeLogRetention: number
  readonly #gate: WriteGate
  readonly #inquiries: GroupCommit<{ record: InquiryRecord; idempotency: { key: string; holder: string; response: StoredResponse } | undefined; events: readonly OutboxEvent[] }>
  readonly #remembers: boolean
  readonly #revisions = new Map<string, number>()
  /** Keys, categories, tags and filter counts, read on almost every request, kept until any connection commits. */
  readonly #memo: ReadMemo
  #dataVersion = -1
  /** The feed position as of reader `data_version` `#positionVersion`. */
  #position: FeedPosition = '0'
  #positionVersion = -1

  /** The rate limits' token buckets, in a file of their own beside the database; `undefined` for `rateLimitsPath: null`. */
  readonly rateLimits?: SqliteRateLimits

  /** Webhook endpoints and their delivery state, in the database. */
  readonly webhooks: WebhookStore = {
    createWebhookEndpoint: (record: WebhookEndpointRecord) => this.#write(() => insertEndpoint(this.#writer, record)),
    getWebhookEndpoint: (id: string) => this.#read(() => selectEndpoint(this.#reader, id)),
    listWebhookEndpoints: (tenantId: string) => this.#read(() => selectEndpoints(this.#reader, tenantId)),
    updateWebhookEndpoint: (id: string, patch: WebhookEndpointPatch) => this.#write(() => updateEndpoint(this.#writer, id, patch)),
    deleteWebhookEndpoint: (id: string) => this.#write(() => deleteEndpoint(this.#writer, id)),
    leaseWebhookEndpoint: async (owner: string, now: string, until: string, limit: number): Promise<WebhookLease | null> => {
      // Hint: read first, so that an idle delivery loop never takes the write lock.
      const due = await this.#read(() => selectDueEndpoint(this.#reader, now))
      if (due === null) return null
      return this.#write(() => leaseEndpoint(this.#writer, due, owner, now, until, limit), 'normal')
    },
    // Hint: at NORMAL (survives kill -9, not power loss): a lost cursor move only sends an event again, with the same webhook-id.
    finishWebhookAttempts: (endpointId: string, owner: string, attempts: readonly WebhookAttemptRecord[], patch: WebhookEndpointPatch, release: boolean) =>
      this.#write(() => finishAttempts(this.#writer, endpointId, owner, attempts, patch, release), 'normal'),
    queueWebhookReplays: (replays: readonly WebhookReplayRecord[]) => this.#write(() => insertReplays(this.#writer, replays)),
    leaseWebhookReplay: async (owner: string, now: string, until: string): Promise<WebhookReplayLease | null> => {
      // Hint: read first, as endpoints' leases do.
      const due = await this.#read(() => selectDueReplay(this.#reader, now))
      if (due === null) return null
      return this.#write(() => leaseReplay(this.#writer, due, owner, now, until), 'normal')
    },
    finishWebhookReplay: (id: number, owner: string, attempt: WebhookAttemptRecord | null, next: { attempts: number; next_attempt_at: string } | null) =>
      this.#write(() => finishReplay(this.#writer, id, owner, attempt, next)),
    listWebhookAttempts: (tenantId: string, options: { endpointId?: string; limit: number }) => this.#read(() => selectAttempts(this.#reader, tenantId, options)),
    pruneWebhookHistory: async (tenantId: string, before: string, limit: number): Promise<number> => {
      // Hint: read first, as leases do: a pass with nothing to prune takes no write lock.
      if (!(await this.#read(() => hasHistoryToPrune(this.#reader, tenantId, before, limit)))) return 0
      return this.#write(() => pruneHistory(this.#writer, tenantId, before, limit), 'normal')
    },
  }

  /** Every process on this machine opening the file shares its state; a first import may load in bulk. */
  readonly capabilities: StoreCapabilities = { bulkLoad: true, scope: 'machine' }

  constructor(options: SqliteStoreOptions) {
    this.path = options.path
    this.#busyTimeoutMs = options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS
    this.#inquiryBusyTimeoutMs = options.inquiryBusyTimeoutMs ?? 4 * this.#busyTimeoutMs
    this.#changeLogRetention = Math.max(0, Math.floor(options.changeLogRetention ?? DEFAULT_CHANGE_LOG_RETENTION))
    let writer: Connection | undefined
    try {
      writer = openConnection(options.path, 'writer', this.#busyTimeoutMs)
      migrate(writer.db)
      writer.db.pragma(`busy_timeout = ${LOCK_WAIT_SLICE_MS}`)
      this.#reader = openConnection(options.path, 'reader')
    } catch (error) {
      writer?.db.close()
      throw toOpenError(error)
    }
    this.#writer = writer
    this.db = this.#reader.db
    this.#gate = new WriteGate(this.#writer, this.#busyTimeoutMs)
    this.#inquiries = new GroupCommit(this.#gate, this.#writer, ({ record, idempotency, events }) => {
      insertInquiryRow(this.#writer, record)
      if (idempotency !== undefined) completeKey(this.#writer, record.tenant_id, idempotency.key, idempotency.holder, idempotency.response)
      insertEvents(this.#writer, events)
    }, this.#inquiryBusyTimeoutMs)
    const limitsPath = options.rateLimitsPath === undefined ? defaultRateLimitsPath(options.path) : options.rateLimitsPath
    if (limitsPath !== null) this.rateLimits = new SqliteRateLimits({ path: limitsPath })
    this.#remembers = options.memo ?? memoByDefault()
    this.#memo = this.#remembers ? new DataVersionMemo(this.#reader) : READ_AFRESH
  }

  // ── content model (reads; writes go through `transaction`)

  getCategory(tenantId: string, id: string): Promise<CategoryRecord | null> {
    return this.#read(() => this.#memo.get('category', `${tenantId}\u0000${id}`, () => selectCategory(this.#reader, tenantId, id)))
  }
  getCategoryByCode(tenantId: string, code: string): Promise<CategoryRecord | null> {
    return this.#read(() => selectCategoryByCode(this.#reader, tenantId, code))
  }
  listCategories(tenantId: string): Promise<CategoryRecord[]> {
    return this.#read(() => this.#memo.get('categories', tenantId, () => selectCategories(this.#reader, tenantId)))
  }
  getTag(tenantId: string, id: string): Promise<TagRecord | null> {
    return this.#read(() => selectTag(this.#reader, tenantId, id))
  }
  getTagByName(tenantId: string, name: string): Promise<TagRecord | null> {
    return this.#read(() => selectTagByName(this.#reader, tenantId, name))
  }
  listTags(tenantId: string): Promise<TagRecord[]> {
    return this.#read(() => selectTags(this.#reader, tenantId))
  }
  getContent(tenantId: string, id: string): Promise<ContentRecord | null> {
    return this.#read(() => selectContent(this.#reader, tenantId, id, tagLookup(this.#reader, this.#memo, tenantId)))
  }
  getContentBySlug(tenantId: string, slug: string): Promise<ContentRecord | null> {
    return this.#read(() => selectContentBySlug(this.#reader, tenantId, slug, tagLookup(this.#reader, this.#memo, tenantId)))
  }
  getContents(tenantId: string, ids: readonly string[]): Promise<(ContentRecord | null)[]> {
    return this.#read(() => selectContentsByIds(this.#reader, tenantId, ids, tagLookup(this.#reader, this.#memo, tenantId)))
  }
  listContents(tenantId: string, query: ContentQuery): Promise<ContentRecord[]> {
    return this.#read(() => this.#reader.snapshot(() => listContentsPage(this.#reader, this.#memo, tenantId, query)))
  }
  getInquiryCategory(tenantId: string, id: string): Promise<InquiryCategoryRecord | null> {
    return this.#read(() => selectInquiryCategory(this.#reader, tenantId, id))
  }
  getInquiryCategoryByCode(tenantId: string, code: string): Promise<InquiryCategoryRecord | null> {
    return this.#read(() => selectInquiryCategoryByCode(this.#reader, tenantId, code))
  }
  listInquiryCategories(tenantId: string): Promise<InquiryCategoryRecord[]> {
    return this.#read(() => selectInquiryCategories(this.#reader, tenantId))
  }
  getSynonyms(tenantId: string): Promise<string[]> {
    return this.#read(() => selectSynonyms(this.#reader, tenantId))
  }

  // ── tenants

  createTenant(tenant: Tenant): Promise<void> {
    return this.#write(() => insertTenant(this.#writer, tenant))
  }
  getTenant(id: string): Promise<Tenant | null> {
    return this.#read(() => selectTenant(this.#reader, id))
  }
  getTenantByCode(code: string): Promise<Tenant | null> {
    return this.#read(() => selectTenantByCode(this.#reader, code))
  }
  listTenants(): Promise<Tenant[]> {
    return this.#read(() => selectTenants(this.#reader))
  }

  // ── API keys

  createApiKey(record: ApiKeyRecord): Promise<void> {
    return this.#write(() => insertApiKey(this.#writer, record))
  }
  findApiKeyByHash(hash: string): Promise<{ key: ApiKeyRecord; tenant: Tenant } | null> {
    return this.#read(() => this.#memo.get('apiKey', hash, () => selectApiKeyByHash(this.#reader, hash)))
  }
  getApiKey(id: string): Promise<ApiKeyRecord | null> {
    return this.#read(() => selectApiKey(this.#reader, id))
  }
  listApiKeys(tenantId: string): Promise<ApiKeyRecord[]> {
    return this.#read(() => selectApiKeys(this.#reader, tenantId))
  }
  updateApiKey(id: string, patch: Partial<Pick<ApiKeyRecord, 'disabled_at' | 'last_used_at' | 'rate_limit'>>): Promise<boolean> {
    // Hint: a lost last-use stamp is harmless; a lost disable or rate limit is not.
    const stampOnly = Object.keys(patch).every((column) => column === 'last_used_at')
    return this.#write(() => updateApiKeyColumns(this.#writer, id, patch), stampOnly ? 'normal' : 'full')
  }
  deleteApiKey(id: string): Promise<boolean> {
    return this.#write(() => deleteApiKeyRow(this.#writer, id))
  }

  // ── preview tokens

  createPreviewToken(record: PreviewTokenRecord): Promise<void> {
    return this.#write(() => insertPreviewToken(this.#writer, record))
  }
  findPreviewTokenByHash(hash: string): Promise<PreviewTokenRecord | null> {
    return this.#read(() => selectPreviewTokenByHash(this.#reader, hash))
  }
  getPreviewToken(id: string): Promise<PreviewTokenRecord | null> {
    return this.#read(() => selectPreviewToken(this.#reader, id))
  }
  revokePreviewToken(id: string, at: string): Promise<boolean> {
    return this.#write(() => updatePreviewTokenRevoked(this.#writer, id, at))
  }

  // ── inquiries

  /**
   * Group-committed (see `GroupCommit`): inserts requested while a commit is under way are
   * written together in the next transaction with one fsync; each resolves once its own row
   * (and its idempotency record, in the same transaction) is committed and synced.
   */
  insertInquiry(record: InquiryRecord, idempotency?: { key: string; holder: string; response: StoredResponse }, events: readonly OutboxEvent[] = []): Promise<void> {
    return this.#inquiries.add({ record, idempotency, events })
  }
  getInquiry(tenantId: string, id: string): Promise<InquiryRecord | null> {
    return this.#read(() => selectInquiry(this.#reader, tenantId, id))
  }
  listInquiries(tenantId: string, options: { status?: InquiryStatus; before?: string; limit: number }): Promise<InquiryRecord[]> {
    return this.#read(() => selectInquiries(this.#reader, tenantId, options))
  }
  claimIdempotencyKey(tenantId: string, key: string, requestHash: string, terms: IdempotencyClaimTerms): Promise<IdempotencyClaim> {
    return this.#write(() => claimKey(this.#writer, tenantId, key, requestHash, terms), 'normal', this.#inquiryBusyTimeoutMs)
  }
  renewIdempotencyKey(tenantId: string, key: string, holder: string, now: string): Promise<boolean> {
    return this.#write(() => renewKey(this.#writer, tenantId, key, holder, now), 'normal', this.#inquiryBusyTimeoutMs)
  }
  releaseIdempotencyKey(tenantId: string, key: string, holder: string): Promise<void> {
    return this.#write(() => releaseKey(this.#writer, tenantId, key, holder), 'normal', this.#inquiryBusyTimeoutMs)
  }

  // ── instance secrets

  async instanceSecret(name: string, candidate: string): Promise<string> {
    // Hint: read first, so that only the very first call of an installation ever writes.
    const stored = await this.#read(() => selectInstanceSecret(this.#reader, name))
    if (stored !== null) return stored
    return this.#write(() => claimInstanceSecret(this.#writer, name, candidate))
  }

  // ── transactions, revision, lifecycle

  /**
   * See `Store.transaction`. With `bulk` on a database without items (a first import), the item
   * tables' secondary indexes are built once at the end instead of row by row (see
   * `deferIndexes`): same result, same commit. An `observer` sees every write, and is told the
   * feed position once the bookkeeping is written, before the deferred indexes are built and
   * the transaction commits (an import's search indexing then finishes meanwhile).
   */
  transaction<T>(work: (tx: ContentWriter) => Promise<T>, options: TransactionOptions = {}): Promise<T> {
    return this.#gate.run(async () => {
      let open = true
      const changes = new ChangeSet()
      const observer = options.observer ?? null
      const tx = new TransactionWriter(this.#writer, (step) => {
        if (!open) return Promise.reject(new Error('The transaction has already ended'))
        try {
          return Promise.resolve(step())
        } catch (error) {
          return Promise.reject(toStorageError(error))
        }
      }, changes, observer)
      try {
        const deferred = options.bulk === true ? deferIndexes(this.#writer) : null
        await observer?.begun(tx)
        const result = await work(tx)
        // Hint: no more writes may land after the bookkeeping: the transaction object closes first.
        open = false
        changes.flush(this.#writer)
        pruneChangeLog(this.#writer, this.#changeLogRetention)
        if (observer !== null) {
          open = true
          try {
            await observer.committing(tx, currentPosition(this.#writer))
          } finally {
            open = false
          }
        }
        // Hint: after `committing`, so that an import's search indexing finishes while the indexes are built.
        if (deferred !== null) restoreIndexes(this.#writer, deferred)
        return result
      } finally {
        open = false
      }
    }, 'full', this.#busyTimeoutMs, TRANSACTION_CACHE_KIB)
  }

  // ── event outbox (see the port)

  readEvents(after: number, limit: number, tenantId?: string): Promise<StoredEvent[]> {
    return this.#read(() => selectEvents(this.#reader, after, limit, tenantId))
  }
  getEvent(tenantId: string, id: string): Promise<StoredEvent | null> {
    return this.#read(() => selectEvent(this.#reader, tenantId, id))
  }
  lastEventSeq(): Promise<number> {
    return this.#read(() => selectLastEventSeq(this.#reader))
  }
  newestPublications(now: string): Promise<Map<string, string>> {
    return this.#read(() => selectNewestPublications(this.#reader, now))
  }

  // ── change feed and search source (see the port)

  feedPosition(): Promise<FeedPosition> {
    return this.#read(() => {
      if (!this.#remembers) return currentPosition(this.#reader)
      const version = dataVersionOf(this.#reader)
      if (version !== this.#positionVersion) {
        // Hint: the version is noted before the read, so a commit landing meanwhile is read next time.
        this.#position = currentPosition(this.#reader)
        this.#positionVersion = version
      }
      return this.#position
    })
  }
  readChanges(after: FeedPosition, limit: number, tenantId?: string): Promise<ChangeBatch | null> {
    return this.#read(() => readChanges(this.#reader, after, limit, tenantId))
  }
  readSearchItems(tenantId: string, range: { after: string | null; before?: string | null }, limit: number): Promise<SearchSourceItem[]> {
    return this.#read(() => selectSearchItems(this.#reader, tenantId, range, limit))
  }
  countItems(tenantId: string): Promise<number> {
    return this.#read(() => countContents(this.#reader, tenantId))
  }

  ping(): Promise<void> {
    return this.#read(() => {
      this.#reader.prepare('SELECT 1').get()
    })
  }

  revision(tenantId: string): Promise<number> {
    return this.#read(() => {
      if (!this.#remembers) return selectRevision(this.#reader, tenantId)
      const version = dataVersionOf(this.#reader)
      if (version !== this.#dataVersion || this.#revisions.size > 10_000) {
        this.#revisions.clear()
        this.#dataVersion = version
      }
      let revision = this.#revisions.get(tenantId)
      if (revision === undefined) {
        revision = selectRevision(this.#reader, tenantId)
        this.#revisions.set(tenantId, revision)
      }
      return revision
    })
  }

  async close(): Promise<void> {
    if (this.#gate.closed) return
    await this.#inquiries.drain()
    await this.#gate.close()
    // Hint: a WAL grown by a big transaction (an import) keeps its size until a writer starts it
    // over; a process leaving after writing empties it, so that a server which only reads does
    // not keep hundreds of MB of WAL on disk. Best effort: a reader mid-read makes it a no-op.
    try {
      this.#writer.db.pragma('wal_checkpoint(TRUNCATE)')
    } catch {
      // Busy or failing storage: the WAL is checkpointed by the next writer instead.
    }
    this.#reader.db.close()
    this.#writer.db.close()
    await this.rateLimits?.close()
  }

  #read<T>(step: () => T): Promise<T> {
    if (this.#gate.closed) return Promise.reject(new Error('The store is closed'))
    return withBusyRetry(this.#busyTimeoutMs, step)
  }

  #write<T>(step: () => T, durability?: CommitDurability, lockWaitMs?: number): Promise<T> {
    return this.#gate.run(async () => step(), durability, lockWaitMs)
  }
}
