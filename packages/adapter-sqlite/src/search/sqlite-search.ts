import type { ContentRecord, SearchPort, SearchQuery, SearchResult, Store } from '@frontdesk/core'
import type { Database } from 'better-sqlite3'
import type { ChangeRow } from './snapshot-file.ts'
import { defaultSnapshotDir, readSnapshot, writeSnapshot } from './snapshot-file.ts'
import type { BulkBuildOptions } from './bulk-build.ts'
import { buildTenantIndex } from './bulk-build.ts'
import { TenantSearchIndex } from './tenant-index.ts'
import { toStorageError } from '../connection/busy-retry.ts'

/** Options of `createSqliteSearch`. */
export interface SqliteSearchOptions {
  /**
   * A tenant with more changed entities than this since the last search is rebuilt from the
   * database instead of updated item by item (e.g. after a large import). Default 2000.
   */
  rebuildThreshold?: number
  /**
   * Items read (and indexed) per step while building a tenant's index; between steps other
   * requests of the process run. Default 500.
   */
  pageSize?: number
  /**
   * Worker threads a tenant's build from the database is split across, each reading and
   * analysing a range of the items through its own read-only connection (the result is the
   * same index; 2 suits a machine with two free cores). Default 1: in this
   * thread — on the shared 2-vCPU benchmark machine two threads were no faster than one
   * (20,000 items: 3.8–7.3 s with two workers, 3.2–9.9 s in this thread, same runs interleaved).
   */
  buildWorkers?: number
  /** Tenants with fewer items than this are built in this thread (starting workers costs ~0.1 s). Default 5000. */
  parallelBuildFrom?: number
  /**
   * Start building every tenant's index at once, in the background (searches wait for the
   * tenant they need). With `false`, a tenant's index is built on its first search. Default true.
   */
  warmUp?: boolean
  /**
   * A directory for snapshot files (one per tenant). A tenant's index is saved there after it
   * is built from the database and, when it changed since, when the search index closes; it is
   * restored from there on the next start, then caught up from `change_log`: a restart then
   * costs reading one file (about a second for 100,000 items) instead of re-indexing every
   * item (about 30 s). A snapshot is used only when it matches this database and the analyzer,
   * and the log still reaches back to it. The files hold every item's terms and filter data,
   * drafts included, so they are as private as the database (directory 0700, files 0600).
   * Default: `<database file>.search` beside the database; `null`: none (always build from the
   * database).
   */
  snapshotDir?: string | null
  /** Called after each tenant's index is built. */
  onBuild?: (info: SearchBuildInfo) => void
}

/** What the search index needs of the SQLite store: the port, and the reader connection for `change_log`. */
export interface SearchableStore extends Store {
  readonly db: Database
  /** The database file (the default snapshot directory is beside it). */
  readonly path?: string
  /** The reader's `PRAGMA data_version`, when the store keeps a shared reading of it (`SqliteStore` does). */
  dataVersion?(): number
}

/** How a tenant's index was built, for logs and tests. */
export interface SearchBuildInfo {
  tenantId: string
  /** `snapshot`: restored from a snapshot file, then caught up; `database`: read item by item. */
  source: 'snapshot' | 'database'
  /** Items indexed (any status). */
  items: number
  ms: number
}

/**
 * A full-text index per tenant (`TenantSearchIndex`: postings in typed arrays, MiniSearch's
 * radix tree for the vocabulary), over a SQLite store. Built from the database when created
 * (in the background; or on a tenant's first search with `warmUp: false`). Kept fresh from
 * any process: before each search it reads `PRAGMA data_version` (cheap) and, when a commit
 * happened, the `change_log` rows after the last one applied, and re-indexes just those
 * entities (a content item; a category's items when its fields changed; a tag's items). A gap
 * in the log (rows pruned unseen) or a tenant with very many changes rebuilds.
 */
export function createSqliteSearch(store: SearchableStore, options: SqliteSearchOptions = {}): SqliteSearchIndex {
  return new SqliteSearchIndex(store, options)
}

/** See `createSqliteSearch`. */
export class SqliteSearchIndex implements SearchPort {
  readonly #store: SearchableStore
  readonly #rebuildThreshold: number
  readonly #buildOptions: BulkBuildOptions
  readonly #snapshotDir: string | null
  readonly #onBuild: ((info: SearchBuildInfo) => void) | null
  readonly #tenants = new Map<string, TenantSearchIndex>()
  /** Per tenant, the `change_log` row its snapshot file reflects (restored from or saved at). */
  readonly #snapshotSeq = new Map<string, number>()
  /** Per tenant, the `change_log` row a snapshot could not be written at (not tried again there). */
  readonly #failedSeq = new Map<string, number>()
  #dataVersion: number | null = null
  #lastSeq = 0
  #queue: Promise<unknown> = Promise.resolve()
  #closed = false

  constructor(store: SearchableStore, options: SqliteSearchOptions = {}) {
    this.#store = store
    this.#rebuildThreshold = options.rebuildThreshold ?? 2000
    this.#buildOptions = { pageSize: options.pageSize ?? 500, workers: options.buildWorkers ?? 1, parallelFrom: options.parallelBuildFrom ?? 5000 }
    this.#snapshotDir = options.snapshotDir === undefined ? defaultSnapshotDir(store.path ?? '') : options.snapshotDir
    this.#onBuild = options.onBuild ?? null
    // Hint: a failed warm-up is not an error of anyone's request: the first search builds again.
    if (options.warmUp ?? true) this.warmUp().catch(() => undefined)
  }

  /** See `SearchPort.search`. */
  search(tenantId: string, query: SearchQuery): Promise<SearchResult> {
    return this.#exclusive(async () => {
      const index = await this.#fresh(tenantId)
      return index.search(query)
    })
  }

  /** Builds (or refreshes) the index of every tenant now, instead of on each one's first search. */
  warmUp(): Promise<void> {
    return this.#exclusive(async () => {
      for (const tenant of await this.#store.listTenants()) await this.#fresh(tenant.id)
    })
  }

  /** Number of items indexed for a tenant (any status), building its index if needed. */
  indexedCount(tenantId: string): Promise<number> {
    return this.#exclusive(async () => (await this.#fresh(tenantId)).size)
  }

  /**
   * Brings the tenant's index up to date (restoring or building it when needed) and makes sure
   * its snapshot file reflects every committed change: what an import calls after its commit,
   * so that the next start restores instead of rebuilding. The snapshot only ever covers
   * committed rows (it is read through the reader connection). Returns `false` when there is no
   * snapshot directory or the file could not be written (read-only directory, full disk…):
   * snapshots only save time, the next start then builds from the database.
   */
  saveSnapshot(tenantId: string): Promise<boolean> {
    return this.#exclusive(async () => {
      const index = await this.#fresh(tenantId)
      if (this.#snapshotDir === null) return false
      if (this.#snapshotSeq.get(tenantId) === this.#lastSeq) return true
      if (this.#failedSeq.get(tenantId) === this.#lastSeq) return false
      return this.#saveSnapshot(tenantId, index, this.#lastSeq)
    })
  }

  /** Saves snapshots (with `snapshotDir`) and drops the in-memory indexes. The store stays open (its owner closes it). */
  async close(): Promise<void> {
    if (this.#closed) return
    this.#closed = true
    await this.#queue.catch(() => undefined)
    for (const [tenantId, index] of this.#tenants) {
      // An index changes only by applying log rows, which moves `#lastSeq`: an unchanged one is on disk already.
      if (this.#snapshotSeq.get(tenantId) !== this.#lastSeq && this.#failedSeq.get(tenantId) !== this.#lastSeq) this.#saveSnapshot(tenantId, index, this.#lastSeq)
    }
    this.#tenants.clear()
  }

  /** Runs `work` after every earlier search or update: the indexes change one step at a time. */
  #exclusive<T>(work: () => Promise<T>): Promise<T> {
    if (this.#closed) return Promise.reject(new Error('The search index is closed'))
    // Hint: the index reads the reader connection directly; a driver fault (busy, full disk, I/O) becomes a 503 like the store's.
    const run = this.#queue.then(work, work).catch((error: unknown) => Promise.reject(toStorageError(error)))
    this.#queue = run.catch(() => undefined)
    return run
  }

  /** The tenant's index, caught up with every committed change. */
  async #fresh(tenantId: string): Promise<TenantSearchIndex> {
    await this.#catchUp()
    const existing = this.#tenants.get(tenantId)
    if (existing !== undefined) return existing
    const built = await this.#build(tenantId)
    this.#tenants.set(tenantId, built)
    return built
  }

  /** Applies the `change_log` rows committed since the last call (by any connection). */
  async #catchUp(): Promise<void> {
    const version = this.#store.dataVersion?.() ?? (this.#store.db.pragma('data_version', { simple: true }) as number)
    if (version === this.#dataVersion) return
    // Read the version first: a commit landing while we read bumps it again for the next call.
    this.#dataVersion = version
    try {
      await this.#applyLog()
    } catch (error) {
      // Hint: what was applied stays applied (re-applying is harmless); the next search retries the rest.
      this.#dataVersion = null
      throw error
    }
  }

  async #applyLog(): Promise<void> {
    const db = this.#store.db
    // Hint: sqlite_sequence remembers the last seq even when the log has been emptied.
    const bounds = db
      .prepare(
        `SELECT (SELECT min(seq) FROM change_log) AS first,
                coalesce((SELECT max(seq) FROM change_log), (SELECT seq FROM sqlite_sequence WHERE name = 'change_log'), 0) AS last`,
      )
      .get() as { first: number | null; last: number }
    const last = bounds.last
    if (last <= this.#lastSeq) return
    const from = this.#lastSeq
    if (this.#tenants.size === 0) {
      this.#lastSeq = last
      return
    }
    if (bounds.first === null || bounds.first > from + 1) {
      // Rows we never saw were pruned: nothing tells what changed, so start again.
      this.#tenants.clear()
      this.#lastSeq = last
      return
    }
    const counts = db
      .prepare('SELECT tenant_id, count(*) AS n FROM change_log WHERE seq > ? AND seq <= ? GROUP BY tenant_id')
      .all(from, last) as { tenant_id: string; n: number }[]
    for (const { tenant_id: tenantId, n } of counts) {
      const index = this.#tenants.get(tenantId)
      if (index === undefined) continue
      if (n > this.#rebuildThreshold) {
        // Many changes (an import): a snapshot written since (the importing process writes one) caught up to `last`, else the database.
        this.#tenants.set(tenantId, await this.#build(tenantId, last))
        continue
      }
      const rows = db
        .prepare('SELECT DISTINCT tenant_id, entity, entity_id FROM change_log WHERE seq > ? AND seq <= ? AND tenant_id = ?')
        .all(from, last, tenantId) as ChangeRow[]
      await this.#apply(index, tenantId, rows)
    }
    this.#lastSeq = last
  }

  async #apply(index: TenantSearchIndex, tenantId: string, rows: ChangeRow[]): Promise<void> {
    const contentIds = new Set<string>()
    // Categories first: an item's indexed custom text depends on its category's fields.
    for (const row of rows.filter((r) => r.entity === 'category')) {
      const before = index.category(row.entity_id)
      const after = await this.#store.getCategory(tenantId, row.entity_id)
      index.setCategory(row.entity_id, after)
      // Switching a category on or off needs no re-indexing: visibility is checked per query.
      if (JSON.stringify(before?.fields ?? null) !== JSON.stringify(after?.fields ?? null)) {
        for (const id of index.idsInCategory(row.entity_id)) contentIds.add(id)
      }
    }
    for (const row of rows) {
      if (row.entity === 'content') contentIds.add(row.entity_id)
      else if (row.entity === 'tag') {
        for await (const page of this.#pages(tenantId, [row.entity_id])) for (const record of page) contentIds.add(record.id)
      }
    }
    for (const id of contentIds) {
      const record = await this.#store.getContent(tenantId, id)
      if (record === null) index.remove(id)
      else index.upsert(record)
    }
  }

  /**
   * A tenant's index as of `change_log` row `upTo` at least: restored from its snapshot and
   * caught up when it can be, else built from the database.
   */
  async #build(tenantId: string, upTo = this.#lastSeq): Promise<TenantSearchIndex> {
    const started = performance.now()
    const restored = await this.#restore(tenantId, upTo)
    if (restored !== null) {
      this.#onBuild?.({ tenantId, source: 'snapshot', items: restored.size, ms: performance.now() - started })
      return restored
    }
    const path = this.#store.path === undefined || defaultSnapshotDir(this.#store.path) === null ? null : this.#store.path
    const index = await buildTenantIndex(this.#store.db, path, tenantId, await this.#store.listCategories(tenantId), this.#buildOptions)
    this.#onBuild?.({ tenantId, source: 'database', items: index.size, ms: performance.now() - started })
    // Hint: read after `upTo` was committed, the index reflects at least that row (later ones are re-applied on restore: harmless).
    this.#saveSnapshot(tenantId, index, upTo)
    return index
  }

  /**
   * The tenant's snapshot, caught up to `upTo`; `null` when there is none usable, or when it is
   * so far behind (more than `rebuildThreshold` rows) that reading the database is faster than
   * re-indexing the changed items one by one.
   */
  async #restore(tenantId: string, upTo: number): Promise<TenantSearchIndex | null> {
    if (this.#snapshotDir === null) return null
    const file = readSnapshot(this.#snapshotDir, tenantId)
    if (file === null) return null
    const db = this.#store.db
    // The row the snapshot ends at must still be there, unchanged: then every later row is too.
    if (file.seq === 0 || file.anchor === null) {
      const first = db.prepare('SELECT min(seq) AS first FROM change_log').get() as { first: number | null }
      const last = db.prepare("SELECT seq FROM sqlite_sequence WHERE name = 'change_log'").get() as { seq: number } | undefined
      if (first.first !== 1 && (last?.seq ?? 0) !== 0) return null
    } else {
      const row = db.prepare('SELECT tenant_id, entity, entity_id FROM change_log WHERE seq = ?').get(file.seq) as ChangeRow | undefined
      if (row === undefined || row.tenant_id !== file.anchor.tenant_id || row.entity !== file.anchor.entity || row.entity_id !== file.anchor.entity_id) return null
    }
    let rows: ChangeRow[] = []
    if (file.seq < upTo) {
      const behind = db.prepare('SELECT count(*) AS n FROM change_log WHERE seq > ? AND seq <= ? AND tenant_id = ?').get(file.seq, upTo, tenantId) as { n: number }
      if (behind.n > this.#rebuildThreshold) return null
      rows = db
        .prepare('SELECT DISTINCT tenant_id, entity, entity_id FROM change_log WHERE seq > ? AND seq <= ? AND tenant_id = ?')
        .all(file.seq, upTo, tenantId) as ChangeRow[]
    }
    let index: TenantSearchIndex
    try {
      index = new TenantSearchIndex(file.tenant.categories, file.tenant)
    } catch {
      return null
    }
    this.#snapshotSeq.set(tenantId, file.seq)
    if (rows.length > 0) await this.#apply(index, tenantId, rows)
    return index
  }

  /** Writes the tenant's snapshot as of `change_log` row `seq` (the index reflects at least that row); `false` when it could not. */
  #saveSnapshot(tenantId: string, index: TenantSearchIndex, seq: number): boolean {
    if (this.#snapshotDir === null) return false
    let anchor: ChangeRow | undefined
    try {
      anchor = seq === 0 ? undefined : (this.#store.db.prepare('SELECT tenant_id, entity, entity_id FROM change_log WHERE seq = ?').get(seq) as ChangeRow | undefined)
    } catch {
      return false // Hint: the store was closed first; snapshots only save time.
    }
    // Hint: without its anchor row (pruned), a snapshot could not be checked on load: skip it.
    if (seq !== 0 && anchor === undefined) return false
    if (!writeSnapshot(this.#snapshotDir, tenantId, { seq, anchor: anchor ?? null, tenant: index.toSnapshot() })) {
      this.#failedSeq.set(tenantId, seq)
      return false
    }
    this.#snapshotSeq.set(tenantId, seq)
    return true
  }

  /** Every item of a tenant (any status), or those carrying a tag, page by page. */
  async *#pages(tenantId: string, tagIds?: string[]): AsyncGenerator<ContentRecord[]> {
    let after: { value: string; id: string } | undefined
    for (;;) {
      const page = await this.#store.listContents(tenantId, {
        visibility: { kind: 'all' },
        ...(tagIds === undefined ? {} : { tagIds }),
        sort: { key: 'id', direction: 'asc' },
        ...(after === undefined ? {} : { after }),
        limit: this.#buildOptions.pageSize,
      })
      yield page
      const last = page[page.length - 1]
      if (page.length < this.#buildOptions.pageSize || last === undefined) return
      after = { value: last.id, id: last.id }
    }
  }
}
