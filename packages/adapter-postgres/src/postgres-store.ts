import type { ClientBase } from 'pg'
import type {
  ApiKeyRecord, CategoryRecord, ChangeBatch, ContentQuery, ContentRecord, ContentWriter, FeedPosition, IdempotencyClaim, IdempotencyClaimTerms,
  InquiryCategoryRecord, InquiryRecord, InquiryStatus, OutboxEvent, PreviewTokenRecord, SearchSourceItem, Store, StoreCapabilities,
  StoredEvent, StoredResponse, TagRecord, Tenant, TransactionOptions, WebhookStore,
} from '@frontdesk/core'
import { memoByDefault } from '@frontdesk/core'
import { clientSql, Database } from './connection/database.ts'
import type { ConnectionSettings } from './connection/database.ts'
import { GenerationMemo } from './connection/generation-memo.ts'
import { GroupCommit } from './connection/group-commit.ts'
import { toOpenError } from './connection/open-error.ts'
import { StateWatch } from './connection/state-watch.ts'
import type { StoreState } from './connection/state-watch.ts'
import { toStorageError } from './connection/storage-error.ts'
import { migrate, SCHEMA_VERSION } from './migrations/migrate.ts'
import { PostgresRateLimits } from './postgres-rate-limits.ts'
import { listContents } from './query/list-contents.ts'
import { deleteApiKeyRow, insertApiKey, selectApiKey, selectApiKeyByHash, selectApiKeys, updateApiKeyColumns } from './records/api-keys.ts'
import { selectCategories, selectCategory, selectCategoryByCode } from './records/categories.ts'
import { positionOf, readChanges } from './records/change-feed.ts'
import { ChangeSet } from './records/change-set.ts'
import { deferIndexes, restoreIndexes } from './records/deferred-indexes.ts'
import { selectEvent, selectEvents, selectLastEventSeq, selectNewestPublications } from './records/events.ts'
import { postgresWebhooks } from './records/webhooks.ts'
import { selectContent, selectContentBySlug, selectContentsByIds } from './records/contents.ts'
import { claimKey, pruneKeys, releaseKey, renewKey } from './records/idempotency-keys.ts'
import { selectInquiries, selectInquiry } from './records/inquiries.ts'
import { selectSynonyms } from './records/synonyms.ts'
import { selectInquiryCategories, selectInquiryCategory, selectInquiryCategoryByCode } from './records/inquiry-categories.ts'
import { insertPreviewToken, selectPreviewToken, selectPreviewTokenByHash, updatePreviewTokenRevoked } from './records/preview-tokens.ts'
import { countContents, selectSearchItems } from './records/search-items.ts'
import { selectTag, selectTagByName, selectTags } from './records/tags.ts'
import { instanceSecret } from './records/instance-secrets.ts'
import { insertTenant, selectRevision, selectTenant, selectTenantByCode, selectTenants } from './records/tenants.ts'
import { TransactionWriter } from './transaction-writer.ts'

/** Options of `openPostgresStore`. */
export interface PostgresStoreOptions {
  /**
   * `postgres://user:password@host:port/database`. Query parameters: node-postgres's (`sslmode`,
   * `application_name`…), and `pool_size`, `connect_timeout` (s) and `statement_timeout` (ms)
   * for the options below when they are not given in code.
   */
  url: string
  /** Connections of the pool (each process has its own). Default 10. */
  poolSize?: number
  /** How long opening a connection may take before the request fails with 503. Default 5000. */
  connectTimeoutMs?: number
  /**
   * How long one statement may run (PostgreSQL's `statement_timeout`; the client gives up 2 s
   * later, for a server that stopped answering) before it fails with 503. Waiting for another
   * process's content transaction counts. Default 15000.
   */
  statementTimeoutMs?: number
  /** How often each process reads the store's state (feed head, generation) besides LISTEN/NOTIFY. Default 200. */
  pollIntervalMs?: number
  /** How many of the newest change-feed rows to keep (a search index further behind rebuilds). Default 100,000. */
  changeFeedRetention?: number
  /**
   * Answer key lookups, categories, revisions and the feed position from memory while the
   * store's generation stays the same (`GenerationMemo`). `false` reads the database every
   * time: the same answers, slower. Default true, unless the environment variable
   * `FRONTDESK_NO_MEMO` is `1`.
   */
  memo?: boolean
}

/** Defaults of `PostgresStoreOptions`. */
export const POSTGRES_DEFAULTS = {
  poolSize: 10,
  connectTimeoutMs: 5_000,
  statementTimeoutMs: 15_000,
  pollIntervalMs: 200,
  changeFeedRetention: 100_000,
} as const

/** The transaction-level advisory lock every content transaction holds ("fdwriter" as a number). */
export const WRITER_LOCK = 0x6664777269746572n.toString()

/** How often one process drops a tenant's expired idempotency records, at most. */
const PRUNE_KEYS_MS = 60_000

/**
 * Opens a PostgreSQL database as frontdesk's store: connects, creates or migrates the schema
 * (under an advisory lock, so processes starting at once take turns) and starts watching the
 * store's state. Fails with `UsageError` (bad login, no such database) or
 * `StorageUnavailableError` (unreachable); messages never carry the URL or its password.
 */
export async function openPostgresStore(options: PostgresStoreOptions): Promise<PostgresStore> {
  const given = urlSettings(options.url)
  const settings: ConnectionSettings = {
    url: options.url,
    poolSize: Math.max(1, Math.floor(options.poolSize ?? given.poolSize ?? POSTGRES_DEFAULTS.poolSize)),
    connectTimeoutMs: options.connectTimeoutMs ?? given.connectTimeoutMs ?? POSTGRES_DEFAULTS.connectTimeoutMs,
    statementTimeoutMs: options.statementTimeoutMs ?? given.statementTimeoutMs ?? POSTGRES_DEFAULTS.statementTimeoutMs,
  }
  // Hint: opened through the pool, so that its first connection serves the process afterwards.
  const db = new Database(settings)
  let initial: { epoch: string; state: StoreState }
  try {
    initial = await db.opening(async (client) => {
      const found = await readState(client)
      if (found?.schemaVersion === SCHEMA_VERSION) return found
      await migrate(client)
      const migrated = await readState(client)
      if (migrated === null) throw new Error('frontdesk_state has no row')
      return migrated
    })
  } catch (error) {
    await db.close().catch(() => undefined)
    throw toOpenError(error)
  }
  return new PostgresStore(settings, options, db, initial.epoch, initial.state)
}

/**
 * The store's state and schema version (`frontdesk_state`) in one round trip, `null` without
 * the table (a new database) or its row: most opens find the schema at this code's version
 * and nothing to migrate, and a short-lived process (one `frontdesk import`) should not pay
 * the migration lock's round trips; only a missing, older or newer schema goes to `migrate`.
 */
async function readState(client: ClientBase): Promise<{ schemaVersion: number; epoch: string; state: StoreState } | null> {
  let row: { schema_version: number; epoch: string; feed_pos: string; generation: string } | undefined
  try {
    row = (await client.query<{ schema_version: number; epoch: string; feed_pos: string; generation: string }>('SELECT schema_version, epoch, feed_pos, generation FROM frontdesk_state')).rows[0]
  } catch (error) {
    // Hint: no table yet (42P01): a new database, migrate creates the schema.
    if ((error as { code?: unknown } | null)?.code === '42P01') return null
    throw error
  }
  if (row === undefined) return null
  return { schemaVersion: row.schema_version, epoch: row.epoch, state: { feedPos: Number(row.feed_pos), generation: Number(row.generation) } }
}

/**
 * Settings given in the URL's query, for whoever has only a URL (the CLI's `--db`):
 * `pool_size`, `connect_timeout` (seconds, as libpq's) and `statement_timeout` (ms, as
 * PostgreSQL's setting). Options given in code win.
 */
function urlSettings(url: string): { poolSize?: number; connectTimeoutMs?: number; statementTimeoutMs?: number } {
  let query: URLSearchParams
  try {
    query = new URL(url).searchParams
  } catch {
    return {}
  }
  const number = (name: string): number | undefined => {
    const value = Number(query.get(name) ?? Number.NaN)
    return Number.isFinite(value) && value > 0 ? value : undefined
  }
  const connect = number('connect_timeout')
  return {
    ...(number('pool_size') === undefined ? {} : { poolSize: number('pool_size') as number }),
    ...(connect === undefined ? {} : { connectTimeoutMs: connect * 1000 }),
    ...(number('statement_timeout') === undefined ? {} : { statementTimeoutMs: number('statement_timeout') as number }),
  }
}

/**
 * The storage port over PostgreSQL (node-postgres). Every read runs on a pooled connection;
 * a transaction holds one connection from BEGIN to COMMIT.
 *
 * - Durability: synchronous commit is on for every connection, so a write is on disk before
 *   its promise resolves. Inquiries are group-committed (`GroupCommit`).
 * - Content transactions take one after another, in this process and across processes: each
 *   holds a transaction-level advisory lock (`WRITER_LOCK`) from its start, as SQLite's single
 *   writer does, so read-modify-write transactions never lose an update.
 * - Freshness: `feedPosition`, `revision`, key lookups and categories are answered from memory
 *   while the store's generation stays the same (`StateWatch`, `GenerationMemo`); other
 *   processes' commits are seen within ~`pollIntervalMs` (LISTEN/NOTIFY makes it sooner).
 * - Faults: an unreachable, stopped or overloaded server makes calls fail with
 *   `StorageUnavailableError` (503) within the connect or statement timeout; broken connections
 *   are dropped, and the pool reconnects once the server is back.
 */
export class PostgresStore implements Store {
  /** Several machines may share the database; a first import may load in bulk (see `transaction`). */
  readonly capabilities: StoreCapabilities = { bulkLoad: true, scope: 'network' }
  /** The rate limits' token buckets, shared by every process on the database. */
  readonly rateLimits: PostgresRateLimits
  /** Webhook endpoints and their delivery state. */
  readonly webhooks: WebhookStore

  readonly #db: Database
  readonly #watch: StateWatch
  readonly #memo: GenerationMemo
  readonly #remembers: boolean
  readonly #inquiries: GroupCommit
  readonly #epoch: string
  readonly #retention: number
  readonly #revisions = new Map<string, number>()
  #revisionsAt = -1
  readonly #prunedAt = new Map<string, number>()
  #queue: Promise<unknown> = Promise.resolve()
  #closed = false

  constructor(settings: ConnectionSettings, options: PostgresStoreOptions, db: Database, epoch: string, state: StoreState) {
    this.#db = db
    this.#epoch = epoch
    this.#retention = Math.max(0, Math.floor(options.changeFeedRetention ?? POSTGRES_DEFAULTS.changeFeedRetention))
    this.#watch = new StateWatch(settings, options.pollIntervalMs ?? POSTGRES_DEFAULTS.pollIntervalMs, state)
    this.#watch.start()
    this.#remembers = options.memo ?? memoByDefault()
    this.#memo = new GenerationMemo(this.#watch, this.#remembers)
    this.#inquiries = new GroupCommit(this.#db)
    this.rateLimits = new PostgresRateLimits(this.#db)
    this.webhooks = postgresWebhooks(this.#db, WRITER_LOCK)
  }

  // ── content model (reads; writes go through `transaction`)

  getCategory(tenantId: string, id: string): Promise<CategoryRecord | null> {
    return this.#memo.get('category', `${tenantId}\u0000${id}`, () => selectCategory(this.#db, tenantId, id))
  }
  getCategoryByCode(tenantId: string, code: string): Promise<CategoryRecord | null> {
    return selectCategoryByCode(this.#db, tenantId, code)
  }
  async listCategories(tenantId: string): Promise<CategoryRecord[]> {
    return (await this.#memo.get('categories', tenantId, () => selectCategories(this.#db, tenantId))) ?? []
  }
  getTag(tenantId: string, id: string): Promise<TagRecord | null> {
    return selectTag(this.#db, tenantId, id)
  }
  getTagByName(tenantId: string, name: string): Promise<TagRecord | null> {
    return selectTagByName(this.#db, tenantId, name)
  }
  listTags(tenantId: string): Promise<TagRecord[]> {
    return selectTags(this.#db, tenantId)
  }
  getContent(tenantId: string, id: string): Promise<ContentRecord | null> {
    return selectContent(this.#db, tenantId, id)
  }
  getContentBySlug(tenantId: string, slug: string): Promise<ContentRecord | null> {
    return selectContentBySlug(this.#db, tenantId, slug)
  }
  getContents(tenantId: string, ids: readonly string[]): Promise<(ContentRecord | null)[]> {
    return selectContentsByIds(this.#db, tenantId, ids)
  }
  listContents(tenantId: string, query: ContentQuery): Promise<ContentRecord[]> {
    return listContents(this.#db, tenantId, query)
  }
  getInquiryCategory(tenantId: string, id: string): Promise<InquiryCategoryRecord | null> {
    return selectInquiryCategory(this.#db, tenantId, id)
  }
  getInquiryCategoryByCode(tenantId: string, code: string): Promise<InquiryCategoryRecord | null> {
    return selectInquiryCategoryByCode(this.#db, tenantId, code)
  }
  listInquiryCategories(tenantId: string): Promise<InquiryCategoryRecord[]> {
    return selectInquiryCategories(this.#db, tenantId)
  }
  getSynonyms(tenantId: string): Promise<string[]> {
    return selectSynonyms(this.#db, tenantId)
  }

  // ── tenants

  createTenant(tenant: Tenant): Promise<void> {
    return insertTenant(this.#db, tenant)
  }
  getTenant(id: string): Promise<Tenant | null> {
    return selectTenant(this.#db, id)
  }
  getTenantByCode(code: string): Promise<Tenant | null> {
    return selectTenantByCode(this.#db, code)
  }
  listTenants(): Promise<Tenant[]> {
    return selectTenants(this.#db)
  }

  // ── API keys

  async createApiKey(record: ApiKeyRecord): Promise<void> {
    this.#moved(await insertApiKey(this.#db, record))
  }
  findApiKeyByHash(hash: string): Promise<{ key: ApiKeyRecord; tenant: Tenant } | null> {
    return this.#memo.get('apiKey', hash, () => selectApiKeyByHash(this.#db, hash))
  }
  getApiKey(id: string): Promise<ApiKeyRecord | null> {
    return selectApiKey(this.#db, id)
  }
  listApiKeys(tenantId: string): Promise<ApiKeyRecord[]> {
    return selectApiKeys(this.#db, tenantId)
  }
  async updateApiKey(id: string, patch: Partial<Pick<ApiKeyRecord, 'disabled_at' | 'last_used_at' | 'rate_limit'>>): Promise<boolean> {
    return this.#moved(await updateApiKeyColumns(this.#db, id, patch))
  }
  async deleteApiKey(id: string): Promise<boolean> {
    return this.#moved(await deleteApiKeyRow(this.#db, id))
  }

  // ── preview tokens (never memoised: a revoked token is refused at once)

  createPreviewToken(record: PreviewTokenRecord): Promise<void> {
    return insertPreviewToken(this.#db, record)
  }
  findPreviewTokenByHash(hash: string): Promise<PreviewTokenRecord | null> {
    return selectPreviewTokenByHash(this.#db, hash)
  }
  getPreviewToken(id: string): Promise<PreviewTokenRecord | null> {
    return selectPreviewToken(this.#db, id)
  }
  async revokePreviewToken(id: string, at: string): Promise<boolean> {
    return this.#moved(await updatePreviewTokenRevoked(this.#db, id, at))
  }

  // ── inquiries

  /** Group-committed (see `GroupCommit`): resolves once the inquiry (and its key's record) is committed. */
  insertInquiry(record: InquiryRecord, idempotency?: { key: string; holder: string; response: StoredResponse }, events: readonly OutboxEvent[] = []): Promise<void> {
    return this.#inquiries.add({ record, idempotency, events })
  }
  getInquiry(tenantId: string, id: string): Promise<InquiryRecord | null> {
    return selectInquiry(this.#db, tenantId, id)
  }
  listInquiries(tenantId: string, options: { status?: InquiryStatus; before?: string; limit: number }): Promise<InquiryRecord[]> {
    return selectInquiries(this.#db, tenantId, options)
  }
  async claimIdempotencyKey(tenantId: string, key: string, requestHash: string, terms: IdempotencyClaimTerms): Promise<IdempotencyClaim> {
    const last = this.#prunedAt.get(tenantId) ?? 0
    if (Date.now() - last >= PRUNE_KEYS_MS) {
      this.#prunedAt.set(tenantId, Date.now())
      if (this.#prunedAt.size > 10_000) this.#prunedAt.clear()
      await pruneKeys(this.#db, tenantId, terms.expiredBefore)
    }
    return claimKey(this.#db, tenantId, key, requestHash, terms)
  }
  renewIdempotencyKey(tenantId: string, key: string, holder: string, now: string): Promise<boolean> {
    return renewKey(this.#db, tenantId, key, holder, now)
  }
  releaseIdempotencyKey(tenantId: string, key: string, holder: string): Promise<void> {
    return releaseKey(this.#db, tenantId, key, holder)
  }

  // ── transactions, revision, lifecycle

  transaction<T>(work: (tx: ContentWriter) => Promise<T>, options: TransactionOptions = {}): Promise<T> {
    const run = this.#queue.then(() => this.#transaction(work, options))
    this.#queue = run.catch(() => undefined)
    return run
  }

  async #transaction<T>(work: (tx: ContentWriter) => Promise<T>, options: TransactionOptions): Promise<T> {
    if (this.#closed) throw new Error('The store is closed')
    const observer = options.observer ?? null
    let committed: StoreState | null = null
    const result = await this.#db.connect(async (client) => {
      const sql = clientSql(client)
      const changes = new ChangeSet()
      const tx = new TransactionWriter(sql, changes, observer)
      await sql.run('BEGIN')
      try {
        // Hint: one content writer at a time across every process (see the class comment).
        await sql.run('SELECT pg_advisory_xact_lock($1)', [WRITER_LOCK])
        const deferred = options.bulk === true ? await deferIndexes(sql) : null
        await observer?.begun(tx)
        const value = await work(tx)
        await tx.flush()
        tx.close()
        committed = await changes.flush(sql, this.#retention)
        if (observer !== null) {
          const head = committed?.feedPos ?? Number((await sql.rows<{ feed_pos: string }>('SELECT feed_pos FROM frontdesk_state'))[0]?.feed_pos ?? 0)
          tx.reopen()
          try {
            await observer.committing(tx, positionOf(head, this.#epoch))
          } finally {
            tx.close()
          }
        }
        // Hint: after \`committing\`, so that an import's search indexing finishes while the indexes are built.
        if (deferred !== null) await restoreIndexes(sql, deferred)
        await tx.flushEvents()
        await sql.run('COMMIT')
        return value
      } catch (error) {
        tx.close()
        await client.query('ROLLBACK').catch(() => undefined)
        throw toStorageError(error)
      }
    })
    if (committed !== null) this.#watch.advance(committed)
    return result
  }

  async revision(tenantId: string): Promise<number> {
    if (!this.#remembers || !this.#watch.fresh) return selectRevision(this.#db, tenantId)
    const generation = this.#watch.state.generation
    if (generation !== this.#revisionsAt || this.#revisions.size > 10_000) {
      this.#revisions.clear()
      this.#revisionsAt = generation
    }
    const known = this.#revisions.get(tenantId)
    if (known !== undefined) return known
    const revision = await selectRevision(this.#db, tenantId)
    if (this.#revisionsAt === generation) this.#revisions.set(tenantId, revision)
    return revision
  }

  // ── event outbox (see the port)

  readEvents(after: number, limit: number, tenantId?: string): Promise<StoredEvent[]> {
    return selectEvents(this.#db, after, limit, tenantId)
  }
  getEvent(tenantId: string, id: string): Promise<StoredEvent | null> {
    return selectEvent(this.#db, tenantId, id)
  }
  lastEventSeq(): Promise<number> {
    return selectLastEventSeq(this.#db)
  }
  newestPublications(now: string): Promise<Map<string, string>> {
    return selectNewestPublications(this.#db, now)
  }

  // ── change feed and search source (see the port)

  async feedPosition(): Promise<FeedPosition> {
    if (this.#remembers && this.#watch.fresh) return positionOf(this.#watch.state.feedPos, this.#epoch)
    const row = (await this.#db.rows<{ feed_pos: string }>('SELECT feed_pos FROM frontdesk_state'))[0]
    return positionOf(Math.max(Number(row?.feed_pos ?? 0), this.#watch.state.feedPos), this.#epoch)
  }
  readChanges(after: FeedPosition, limit: number, tenantId?: string): Promise<ChangeBatch | null> {
    return readChanges(this.#db, this.#epoch, after, limit, tenantId)
  }
  /** Calls `listener` soon after any process committed a change (LISTEN/NOTIFY, and the poll). */
  watchChanges(listener: () => void): () => void {
    return this.#watch.watch(listener)
  }
  readSearchItems(tenantId: string, range: { after: string | null; before?: string | null }, limit: number): Promise<SearchSourceItem[]> {
    return selectSearchItems(this.#db, tenantId, range, limit)
  }
  countItems(tenantId: string): Promise<number> {
    return countContents(this.#db, tenantId)
  }

  async ping(): Promise<void> {
    await this.#db.rows('SELECT 1')
  }

  instanceSecret(name: string, candidate: string): Promise<string> {
    return instanceSecret(this.#db, name, candidate)
  }

  async close(): Promise<void> {
    if (this.#closed) return
    this.#closed = true
    await this.#inquiries.drain()
    await this.#queue
    await this.#watch.close()
    await this.#db.close()
  }

  /** Applies a generation this process committed; `true` when something was written. */
  #moved(generation: number | null): boolean {
    if (generation === null) return false
    this.#watch.advance({ feedPos: this.#watch.state.feedPos, generation })
    return true
  }
}
