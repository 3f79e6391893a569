import type { Database } from 'better-sqlite3'
import type {
  ApiKeyRecord, CategoryRecord, ContentQuery, ContentRecord, ContentWriter, IdempotencyClaim, InquiryCategoryRecord,
  InquiryRecord, InquiryStatus, PreviewTokenRecord, Store, StoredResponse, TagRecord, Tenant,
} from '@frontdesk/core'
import { toStorageError, withBusyRetry } from './connection/busy-retry.ts'
import { LOCK_WAIT_SLICE_MS, openConnection, TRANSACTION_CACHE_KIB } from './connection/open-connection.ts'
import { toOpenError } from './connection/open-error.ts'
import type { Connection } from './connection/statement-cache.ts'
import { GroupCommit } from './connection/group-commit.ts'
import { WriteGate } from './connection/write-gate.ts'
import type { CommitDurability } from './connection/write-gate.ts'
import { ContentAccess } from './content-access.ts'
import type { TransactionObserver } from './connection/transaction-observer.ts'
import { migrate } from './migrations/migrate.ts'
import { DataVersionMemo } from './query/data-version-memo.ts'
import { dataVersionOf } from './query/data-version-watch.ts'
import { deleteApiKeyRow, insertApiKey, selectApiKey, selectApiKeyByHash, selectApiKeys, updateApiKeyColumns } from './records/api-keys.ts'
import { pruneChangeLog } from './records/change-log.ts'
import { deferIndexes, restoreIndexes } from './records/deferred-indexes.ts'
import { selectCategories, selectCategory } from './records/categories.ts'
import { ChangeSet } from './records/change-set.ts'
import { claimKey, completeKey, releaseKey } from './records/idempotency-keys.ts'
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
}

/** Default of `SqliteStoreOptions.busyTimeoutMs`. */
export const DEFAULT_BUSY_TIMEOUT_MS = 5000

/** Default of `SqliteStoreOptions.changeLogRetention`. */
export const DEFAULT_CHANGE_LOG_RETENTION = 100_000

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
  /**
   * The reader connection, for adapter-internal reads (the search index). It is `query_only`:
   * writes go through the store's methods.
   */
  readonly db: Database

  readonly #reader: Connection
  readonly #writer: Connection
  readonly #busyTimeoutMs: number
  readonly #inquiryBusyTimeoutMs: number
  readonly #changeLogRetention: number
  readonly #gate: WriteGate
  #nextObserver: TransactionObserver | null = null
  #bulkNext = false
  readonly #inquiries: GroupCommit<{ record: InquiryRecord; idempotency: { key: string; response: StoredResponse } | undefined }>
  readonly #contents: ContentAccess
  readonly #revisions = new Map<string, number>()
  /** Keys and categories, read on almost every request, kept until any connection commits. */
  readonly #memo: DataVersionMemo
  #dataVersion = -1

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
    this.#inquiries = new GroupCommit(this.#gate, this.#writer, ({ record, idempotency }) => {
      insertInquiryRow(this.#writer, record)
      if (idempotency !== undefined) completeKey(this.#writer, record.tenant_id, idempotency.key, idempotency.response)
    }, this.#inquiryBusyTimeoutMs)
    this.#contents = new ContentAccess(this.#reader, (step) => this.#read(step))
    this.#memo = new DataVersionMemo(this.#reader)
  }

  // ── content model (reads; writes go through `transaction`)

  getCategory(tenantId: string, id: string): Promise<CategoryRecord | null> {
    return this.#read(() => this.#memo.get('category', `${tenantId}\u0000${id}`, () => selectCategory(this.#reader, tenantId, id)))
  }
  getCategoryByCode(tenantId: string, code: string): Promise<CategoryRecord | null> {
    return this.#contents.getCategoryByCode(tenantId, code)
  }
  listCategories(tenantId: string): Promise<CategoryRecord[]> {
    return this.#read(() => this.#memo.get('categories', tenantId, () => selectCategories(this.#reader, tenantId)))
  }
  getTag(tenantId: string, id: string): Promise<TagRecord | null> {
    return this.#contents.getTag(tenantId, id)
  }
  getTagByName(tenantId: string, name: string): Promise<TagRecord | null> {
    return this.#contents.getTagByName(tenantId, name)
  }
  listTags(tenantId: string): Promise<TagRecord[]> {
    return this.#contents.listTags(tenantId)
  }
  getContent(tenantId: string, id: string): Promise<ContentRecord | null> {
    return this.#contents.getContent(tenantId, id)
  }
  getContentBySlug(tenantId: string, slug: string): Promise<ContentRecord | null> {
    return this.#contents.getContentBySlug(tenantId, slug)
  }
  getContents(tenantId: string, ids: readonly string[]): Promise<(ContentRecord | null)[]> {
    return this.#contents.getContents(tenantId, ids)
  }
  listContents(tenantId: string, query: ContentQuery): Promise<ContentRecord[]> {
    return this.#contents.listContents(tenantId, query)
  }
  getInquiryCategory(tenantId: string, id: string): Promise<InquiryCategoryRecord | null> {
    return this.#contents.getInquiryCategory(tenantId, id)
  }
  getInquiryCategoryByCode(tenantId: string, code: string): Promise<InquiryCategoryRecord | null> {
    return this.#contents.getInquiryCategoryByCode(tenantId, code)
  }
  listInquiryCategories(tenantId: string): Promise<InquiryCategoryRecord[]> {
    return this.#contents.listInquiryCategories(tenantId)
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
  insertInquiry(record: InquiryRecord, idempotency?: { key: string; response: StoredResponse }): Promise<void> {
    return this.#inquiries.add({ record, idempotency })
  }
  getInquiry(tenantId: string, id: string): Promise<InquiryRecord | null> {
    return this.#read(() => selectInquiry(this.#reader, tenantId, id))
  }
  listInquiries(tenantId: string, options: { status?: InquiryStatus; before?: string; limit: number }): Promise<InquiryRecord[]> {
    return this.#read(() => selectInquiries(this.#reader, tenantId, options))
  }
  claimIdempotencyKey(
    tenantId: string,
    key: string,
    requestHash: string,
    times: { now: string; expiredBefore: string; staleBefore: string },
  ): Promise<IdempotencyClaim> {
    return this.#write(() => claimKey(this.#writer, tenantId, key, requestHash, times), 'normal', this.#inquiryBusyTimeoutMs)
  }
  releaseIdempotencyKey(tenantId: string, key: string): Promise<void> {
    return this.#write(() => releaseKey(this.#writer, tenantId, key), 'normal', this.#inquiryBusyTimeoutMs)
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
   * Lets `observer` see the writes of the next transaction this store runs (one only), as they
   * are made: `frontdesk import` indexes the items it writes for search meanwhile, on another
   * thread (see `indexWhileImporting`). `null`: none (an observer not used after all).
   */
  observeNextTransaction(observer: TransactionObserver | null): void {
    this.#nextObserver = observer
  }

  /**
   * Makes the next transaction this store runs (one only) a bulk load when it begins on a
   * database without items (a first import): the item tables' secondary indexes are built once
   * at its end instead of row by row (see `deferIndexes`). Same result, same commit.
   */
  loadInBulkNextTransaction(): void {
    this.#bulkNext = true
  }

  transaction<T>(work: (tx: ContentWriter) => Promise<T>): Promise<T> {
    return this.#gate.run(async () => {
      let open = true
      const changes = new ChangeSet()
      const observer = this.#nextObserver
      this.#nextObserver = null
      const bulk = this.#bulkNext
      this.#bulkNext = false
      const tx = new ContentAccess(this.#writer, (step) => {
        if (!open) return Promise.reject(new Error('The transaction has already ended'))
        try {
          return Promise.resolve(step())
        } catch (error) {
          return Promise.reject(toStorageError(error))
        }
      }, changes, observer)
      try {
        const deferred = bulk ? deferIndexes(this.#writer) : null
        observer?.begun(this.#writer)
        const result = await work(tx)
        // Hint: no more writes may land after the bookkeeping: the transaction object closes first.
        open = false
        changes.flush(this.#writer)
        pruneChangeLog(this.#writer, this.#changeLogRetention)
        observer?.committing(this.#writer)
        // Hint: after `committing`, so that an import's search indexing finishes while the indexes are built.
        if (deferred !== null) restoreIndexes(this.#writer, deferred)
        return result
      } finally {
        open = false
      }
    }, 'full', this.#busyTimeoutMs, TRANSACTION_CACHE_KIB)
  }

  /**
   * The reader's `PRAGMA data_version` (changes with every commit of another connection),
   * read at most once a millisecond and at once after this process's own commits (see
   * `dataVersionOf`). For the search index's freshness check.
   */
  dataVersion(): number {
    return dataVersionOf(this.#reader)
  }

  revision(tenantId: string): Promise<number> {
    return this.#read(() => {
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
  }

  #read<T>(step: () => T): Promise<T> {
    if (this.#gate.closed) return Promise.reject(new Error('The store is closed'))
    return withBusyRetry(this.#busyTimeoutMs, step)
  }

  #write<T>(step: () => T, durability?: CommitDurability, lockWaitMs?: number): Promise<T> {
    return this.#gate.run(async () => step(), durability, lockWaitMs)
  }
}
