import type {
  ChangeBatch, ChangeFeed, ContentReader, FeedPosition, SearchPort, SearchQuery, SearchResult, SearchSource, SnapshotStore, TenantStore,
} from '@frontdesk/core'
import { phraseChecker, phraseTexts } from '@frontdesk/core'
import { buildTenantIndex } from './build/bulk-build.ts'
import { AnalyzedReader } from './matching/analyzed-docs.ts'
import { memoByDefault } from './memo-switch.ts'
import { decodeSnapshot, encodeSnapshot } from './snapshots/snapshot-codec.ts'
import type { SnapshotDelta } from './snapshots/snapshot-delta.ts'
import { decodeDelta, deltaName } from './snapshots/snapshot-delta.ts'
import type { PreparedChanges } from './tenant/apply-changes.ts'
import { applyChanges, prepareChanges } from './tenant/apply-changes.ts'
import { TenantSearchIndex } from './tenant/tenant-index.ts'

/**
 * What the engine needs of a store, all of it in the storage port of `@frontdesk/core` (any
 * `Store` is one): the change feed, the lean reads of a build, and reads of categories, items
 * and tenants.
 */
export type SearchEngineStore = ChangeFeed &
  Pick<SearchSource, 'readSearchItems'> &
  Pick<ContentReader, 'getCategory' | 'getContents' | 'listCategories' | 'listContents'> &
  Pick<TenantStore, 'listTenants'>

/** Items whose texts are read at once to check a search's phrases. */
const PHRASE_READ_PAGE = 250

/** `SearchEngineOptions.rebuildThreshold` when none is given. */
export const DEFAULT_REBUILD_THRESHOLD = 2000

/** Options of `createSearchEngine`. */
export interface SearchEngineOptions {
  /** The store whose content is searched. The engine reads it, never writes it, and does not close it. */
  store: SearchEngineStore
  /**
   * Where each tenant's index is saved (after it is built from the store, and on `close` when
   * it changed since) and restored from on the next start, then caught up from the change
   * feed: a restart then costs reading one snapshot (about a second for 100,000 items) instead
   * of indexing every item again. A snapshot is used only when it was made by this format and
   * analyzer and the feed still reaches back to its position (else the index is built from the
   * store). Snapshots hold every item's terms and filter data, drafts included: keep them as
   * private as the database (`directorySnapshots` does). `null` or absent: none.
   */
  snapshots?: SnapshotStore | null
  /**
   * A tenant with more changes than this since its index was last brought up to date (e.g. a
   * large import) is rebuilt — from a snapshot written since, when there is one (the importing
   * process writes one), else from the store — instead of updated item by item. Default 2000.
   */
  rebuildThreshold?: number
  /** Items read per page while building a tenant's index; between pages other work of the process runs. Default 500. */
  pageSize?: number
  /**
   * Start building every tenant's index at once, in the background (searches wait for the
   * tenant they need). With `false`, a tenant's index is built on its first search. Default true.
   */
  warmUp?: boolean
  /**
   * With a store that offers `watchChanges`: how long (ms) a reading of `feedPosition()` is
   * trusted when no wake-up came since, so that a lost wake-up delays a change by at most this
   * much. Without a watch, the position is read before every search. Default 500.
   */
  pollMs?: number
  /**
   * Keep what is worth keeping between searches: pages of recent searches, eligibility bit
   * sets, term expansions and merged matches, custom-field value columns. `false` computes
   * every search from the index alone: the same answers, slower (tests compare both). Default
   * true, unless the environment variable `FRONTDESK_NO_MEMO` is `1`.
   */
  memo?: boolean
  /** Called after each tenant's index is built or restored. */
  onBuild?: (info: SearchBuildInfo) => void
}

/** How a tenant's index was made, for logs and tests. */
export interface SearchBuildInfo {
  tenantId: string
  /** `snapshot`: restored from a snapshot, then caught up; `store`: every item read from the store. */
  source: 'snapshot' | 'store'
  /**
   * With `source: 'store'` and snapshots: why none was restored. `none`: there is none;
   * `unusable`: written by another format or analyzer version, for another byte order, or
   * damaged; `behind`: at a position the feed no longer reaches (another database, pruned) or
   * more than `rebuildThreshold` changes behind.
   */
  snapshot?: 'none' | 'unusable' | 'behind'
  /** Items indexed (any status). */
  items: number
  ms: number
}

/** A tenant's index and where it stands in the change feed. */
interface TenantState {
  index: TenantSearchIndex
  /** The index reflects every change of the tenant up to this position (maybe some after it). */
  position: FeedPosition
  /** The `feedPosition()` reading it was last caught up at: a search at the same reading needs no catch-up. */
  checked: FeedPosition
  /** Whether the index changed since its snapshot was written or read. */
  unsaved: boolean
  /** The position at which writing its snapshot failed (not tried again there). */
  failedAt: FeedPosition | null
}

/**
 * A full-text search engine over any store of the port: an in-memory index per tenant
 * (`TenantSearchIndex`: postings in typed arrays, MiniSearch's radix tree for the vocabulary),
 * built from `SearchSource.readSearchItems` (in the background, or on a tenant's first search
 * with `warmUp: false`) or restored from a snapshot, and kept fresh from any process through the
 * change feed: before each search it reads `feedPosition()` (cheap) and, when it moved, the
 * tenant's changes since its index's position, and indexes again just those entities. A feed
 * that no longer reaches back to that position, or very many changes, rebuild the tenant.
 */
export function createSearchEngine(options: SearchEngineOptions): SearchEngine {
  return new SearchEngine(options)
}

/** See `createSearchEngine`. */
export class SearchEngine implements SearchPort {
  readonly #store: SearchEngineStore
  readonly #snapshots: SnapshotStore | null
  readonly #rebuildThreshold: number
  readonly #pageSize: number
  readonly #pollMs: number
  readonly #memo: boolean
  readonly #onBuild: ((info: SearchBuildInfo) => void) | null
  readonly #tenants = new Map<string, TenantState>()
  readonly #unwatch: (() => void) | null
  /** With a watch: the last `feedPosition()` reading, when it was taken, and whether a wake-up came since. */
  #reading: FeedPosition | null = null
  #readAt = Number.NEGATIVE_INFINITY
  #woken = false
  #catchUpQueued = false
  /** When (`performance.now()`) each tenant's index was first known to be behind the feed, until it caught up. */
  readonly #behindSince = new Map<string, number>()
  #queue: Promise<unknown> = Promise.resolve()
  #closed = false

  constructor(options: SearchEngineOptions) {
    this.#store = options.store
    this.#snapshots = options.snapshots ?? null
    this.#rebuildThreshold = Math.max(0, Math.floor(options.rebuildThreshold ?? DEFAULT_REBUILD_THRESHOLD))
    this.#pageSize = Math.max(1, Math.floor(options.pageSize ?? 500))
    this.#pollMs = Math.max(0, options.pollMs ?? 500)
    this.#memo = options.memo ?? memoByDefault()
    this.#onBuild = options.onBuild ?? null
    this.#unwatch = this.#store.watchChanges?.(() => this.#wake()) ?? null
    // Hint: a failed warm-up is not an error of anyone's request: the first search builds again.
    if (options.warmUp ?? true) this.warmUp().catch(() => undefined)
  }

  /** See `SearchPort.search`. */
  search(tenantId: string, query: SearchQuery): Promise<SearchResult> {
    return this.#exclusive(async () => {
      const { index } = await this.#fresh(tenantId)
      if (query.phrases === undefined || query.phrases.length === 0 || query.terms.length === 0) return index.search(query)
      return index.search(query, await this.#phraseHolders(tenantId, index, query))
    })
  }

  /**
   * The document numbers of the items holding every phrase of the query (core's `hasPhrase`),
   * among the candidates the index names (see `phraseCandidates`): their texts are read from
   * the store, a page at a time. Searches and updates wait meanwhile, so the numbers stay valid;
   * an item changed since the index caught up is checked as it is now.
   */
  async #phraseHolders(tenantId: string, index: TenantSearchIndex, query: SearchQuery): Promise<number[]> {
    const holds = phraseChecker(query.phrases ?? [])
    const candidates = index.phraseCandidates(query)
    const held: number[] = []
    for (let from = 0; from < candidates.length; from += PHRASE_READ_PAGE) {
      const page = candidates.slice(from, from + PHRASE_READ_PAGE)
      const records = await this.#store.getContents(tenantId, page.map(({ item }) => item.id))
      records.forEach((record, i) => {
        const doc = page[i]?.doc
        if (record === null || doc === undefined) return
        const tags = record.tags.map((tag) => tag.name)
        if (holds(phraseTexts(record.title, record.summary, record.body, tags, record.fields, index.category(record.category_id)))) held.push(doc)
      })
    }
    return held
  }

  /** See `SearchPort.ping`: resolves while the engine is open, rejects once it is closed. */
  async ping(): Promise<void> {
    if (this.#closed) throw new Error('The search engine is closed')
  }

  /** Builds (or refreshes) the index of every tenant now, instead of on each one's first search. */
  warmUp(): Promise<void> {
    return this.#exclusive(async () => {
      for (const tenant of await this.#store.listTenants()) await this.#fresh(tenant.id)
    })
  }

  /** Number of items indexed for a tenant (any status), building its index if needed. */
  indexedCount(tenantId: string): Promise<number> {
    return this.#exclusive(async () => (await this.#fresh(tenantId)).index.size)
  }

  /**
   * Where each tenant's index stands, for metrics: items indexed (any status), and how long (ms)
   * it has been behind the newest committed change, 0 when caught up. An index is known to be
   * behind from the first reading of a newer position (by a search, a wake-up of the store's
   * watch, or this call) until it caught up. This only reads `feedPosition()`: it never builds
   * nor catches up an index, and waits for no search.
   */
  async stats(): Promise<{ tenantId: string; items: number; lagMs: number }[]> {
    const current = await this.#store.feedPosition()
    const now = performance.now()
    return [...this.#tenants].map(([tenantId, state]) => {
      if (state.checked === current || state.position === current) {
        this.#behindSince.delete(tenantId)
        return { tenantId, items: state.index.size, lagMs: 0 }
      }
      const since = this.#behindSince.get(tenantId) ?? now
      this.#behindSince.set(tenantId, since)
      return { tenantId, items: state.index.size, lagMs: now - since }
    })
  }

  /**
   * Brings the tenant's index up to date (restoring or building it when needed) and makes sure
   * its snapshot reflects every committed change: what an import calls after its commit, so
   * that the next start restores instead of rebuilding. Returns `false` when there are no
   * snapshots or the snapshot could not be written (read-only directory, full disk…):
   * snapshots only save time, the next start then builds from the store.
   */
  saveSnapshot(tenantId: string): Promise<boolean> {
    return this.#exclusive(async () => {
      const state = await this.#fresh(tenantId)
      if (this.#snapshots === null) return false
      if (!state.unsaved) return true
      if (state.failedAt === state.position) return false
      return this.#save(tenantId, state)
    })
  }

  /** Saves the snapshots of indexes changed since they were saved, and drops the indexes. The store stays open (its owner closes it). */
  async close(): Promise<void> {
    if (this.#closed) return
    this.#closed = true
    this.#unwatch?.()
    await this.#queue.catch(() => undefined)
    for (const [tenantId, state] of this.#tenants) {
      if (state.unsaved && state.failedAt !== state.position) await this.#save(tenantId, state)
    }
    this.#tenants.clear()
  }

  /** Runs `work` after every earlier search or update: the indexes change one step at a time. */
  #exclusive<T>(work: () => Promise<T>): Promise<T> {
    if (this.#closed) return Promise.reject(new Error('The search engine is closed'))
    const run = this.#queue.then(work, work)
    this.#queue = run.catch(() => undefined)
    return run
  }

  /** The tenant's index, caught up with every change committed before the call. */
  async #fresh(tenantId: string): Promise<TenantState> {
    const current = await this.#feedPosition()
    const state = this.#tenants.get(tenantId)
    if (state !== undefined && state.checked === current) return state
    if (state !== undefined && !this.#behindSince.has(tenantId)) this.#behindSince.set(tenantId, performance.now())
    const fresh = state === undefined ? await this.#build(tenantId, current) : await this.#catchUp(tenantId, state, current)
    this.#tenants.set(tenantId, fresh)
    this.#behindSince.delete(tenantId)
    return fresh
  }

  /**
   * The store's `feedPosition()`; with a watching store, the last reading while it is recent
   * and no wake-up came since (see `pollMs`).
   */
  async #feedPosition(): Promise<FeedPosition> {
    const now = performance.now()
    if (this.#unwatch !== null && !this.#woken && this.#reading !== null && now - this.#readAt < this.#pollMs) return this.#reading
    // Hint: cleared before the read, so that a wake-up arriving meanwhile makes the next search read again.
    this.#woken = false
    const reading = await this.#store.feedPosition()
    this.#reading = reading
    this.#readAt = now
    return reading
  }

  /** A wake-up from the store's watch: the next search reads the position again, and built tenants catch up now. */
  #wake(): void {
    this.#woken = true
    const now = performance.now()
    for (const tenantId of this.#tenants.keys()) if (!this.#behindSince.has(tenantId)) this.#behindSince.set(tenantId, now)
    if (this.#catchUpQueued || this.#closed) return
    this.#catchUpQueued = true
    this.#exclusive(async () => {
      this.#catchUpQueued = false
      for (const tenantId of [...this.#tenants.keys()]) await this.#fresh(tenantId)
    }).catch(() => undefined)
  }

  /**
   * Applies the tenant's changes after its index's position, read at `current` or later; a
   * feed that no longer reaches back there (changes pruned unseen), or more changes than
   * `rebuildThreshold`, rebuild it instead.
   */
  async #catchUp(tenantId: string, state: TenantState, current: FeedPosition): Promise<TenantState> {
    const batch = await this.#store.readChanges(state.position, this.#rebuildThreshold + 1, tenantId)
    if (batch === null || batch.more) return this.#build(tenantId, current)
    if (batch.changes.length > 0) {
      // Hint: what was applied stays applied if this fails midway (applying again is harmless); the next search retries from the same position.
      await applyChanges(state.index, this.#store, tenantId, batch.changes, this.#pageSize)
      state.position = batch.position
      state.unsaved = true
    } else {
      // No change of the tenant up to the read, which came after `current` was read: the index reflects every change up to `current`.
      state.position = current
    }
    state.checked = current
    return state
  }

  /** A tenant's index as of `current` at least: restored from its snapshot and caught up when it can be, else built from the store. */
  async #build(tenantId: string, current: FeedPosition): Promise<TenantState> {
    const started = performance.now()
    const restored = await this.#restore(tenantId, current)
    if (typeof restored !== 'string') {
      this.#onBuild?.({ tenantId, source: 'snapshot', items: restored.index.size, ms: performance.now() - started })
      return restored
    }
    const categories = await this.#store.listCategories(tenantId)
    // Hint: read after `current` was: the index reflects at least every change up to it (later ones are applied again: harmless).
    const index = await buildTenantIndex(this.#store, tenantId, categories, { pageSize: this.#pageSize, memo: this.#memo })
    this.#onBuild?.({ tenantId, source: 'store', items: index.size, ms: performance.now() - started, ...(this.#snapshots === null ? {} : { snapshot: restored }) })
    const state: TenantState = { index, position: current, checked: current, unsaved: true, failedAt: null }
    await this.#save(tenantId, state)
    return state
  }

  /**
   * The tenant's snapshot, its delta applied when it has one (see `SnapshotDelta`), caught up
   * with the feed; else why not (see `SearchBuildInfo.snapshot`):
   * none, none usable, or so far behind (more than `rebuildThreshold` changes) that reading
   * the store is faster than indexing the changed items one by one.
   */
  async #restore(tenantId: string, current: FeedPosition): Promise<TenantState | 'none' | 'unusable' | 'behind'> {
    if (this.#snapshots === null) return 'none'
    const snapshots = this.#snapshots
    // Hint: the delta first: the thread pool reads files in the order asked.
    const deltaBytes = await snapshots.read(deltaName(tenantId)).catch(() => null)
    // Hint: while the thread pool reads the snapshot's file (1.46 GB at 1,000,000 items), this thread reads the changes after the delta's position and analyses their items.
    const reading = snapshots.read(tenantId).catch(() => null)
    const claimed = deltaBytes === null ? null : decodeDelta(deltaBytes, tenantId, null)
    const early = claimed === null ? null : await this.#catchUpPlan(tenantId, claimed.base, claimed)
    const bytes = await reading
    if (bytes === null) return 'none'
    const file = decodeSnapshot(bytes)
    if (file === null) return 'unusable'
    // Hint: only a delta made over this very snapshot; one left beside a snapshot written since is not (see `SnapshotDelta`).
    const plan = early !== null && early.base === file.position ? early : await this.#catchUpPlan(tenantId, file.position, null)
    if (plan.batch === null) return 'behind'
    const { delta, batch, prepared } = plan
    let index: TenantSearchIndex
    try {
      index = new TenantSearchIndex(delta?.categories ?? file.tenant.categories, file.tenant, { memo: this.#memo })
      if (delta !== null) {
        for (const id of delta.removed) index.remove(id)
        index.upsertAnalyzedAll(delta.items, new AnalyzedReader(delta.terms))
      }
    } catch {
      return 'unusable'
    }
    // Hint: restored with a delta, it is unsaved: a server writes the merged snapshot (on stop, or now and then), which a later import starts a delta from.
    if (batch.changes.length === 0) return { index, position: delta?.position ?? file.position, checked: current, unsaved: delta !== null, failedAt: null }
    await applyChanges(index, this.#store, tenantId, batch.changes, this.#pageSize, prepared ?? undefined)
    return { index, position: batch.position, checked: current, unsaved: true, failedAt: null }
  }

  /**
   * What restoring the tenant's snapshot at `base` with `delta` (made over it, or none) adds
   * to it: the changes after (`batch` `null`: more than `rebuildThreshold`, or the feed no
   * longer reaches back), and what applying them reads from the store, their items analysed
   * when the delta names the categories they are indexed with (else that is left to
   * `applyChanges`).
   */
  async #catchUpPlan(tenantId: string, base: FeedPosition, delta: SnapshotDelta | null): Promise<{ base: FeedPosition; delta: SnapshotDelta | null; batch: ChangeBatch | null; prepared: PreparedChanges | null }> {
    const batch = await this.#store.readChanges(delta?.position ?? base, this.#rebuildThreshold + 1, tenantId)
    if (batch === null || batch.more) return { base, delta, batch: null, prepared: null }
    const prepared = batch.changes.length === 0 ? null : await prepareChanges(this.#store, tenantId, batch.changes, this.#pageSize, delta?.categories ?? null)
    return { base, delta, batch, prepared }
  }

  /** Writes the tenant's snapshot at its position; `false` when it could not (then not tried again at that position). */
  async #save(tenantId: string, state: TenantState): Promise<boolean> {
    if (this.#snapshots === null) return false
    const position = state.position
    let written = false
    try {
      written = await this.#snapshots.write(tenantId, encodeSnapshot(position, state.index.toSnapshot()))
    } catch {
      written = false
    }
    if (written) state.unsaved = false
    else state.failedAt = position
    return written
  }
}
