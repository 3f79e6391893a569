import type { CategoryRecord, ContentRecord } from '@frontdesk/core'
import { rmSync } from 'node:fs'
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads'
import type { Connection } from '../connection/statement-cache.ts'
import type { TransactionObserver } from '../connection/transaction-observer.ts'
import { selectCategories } from '../records/categories.ts'
import type { SqliteStore } from '../sqlite-store.ts'
import type { Writes } from './import-analysis.ts'
import { ImportAnalysis, WriteBatch } from './import-analysis.ts'
import type { ChangeRow, PreparedSnapshot } from './snapshot-file.ts'
import { defaultSnapshotDir, prepareSnapshot, publishSnapshot, temporaryName } from './snapshot-file.ts'

/** How `indexWhileImporting` ended. */
export type ImportIndexOutcome =
  /** The snapshot was written. */
  | 'saved'
  /** It was built but could not be written (read-only directory, full disk…). */
  | 'unwritable'
  /** Not built this way (the tenant had items, something changed under it, the worker failed…): build it from the database. */
  | 'unused'

/** An import's search indexing on a worker thread (see `indexWhileImporting`). */
export interface ImportIndexing {
  /** After the import committed: puts the snapshot in place (waiting for the worker, at most `timeoutMs`). Stops the worker. */
  finish(): Promise<ImportIndexOutcome>
  /** After an import that failed, rolled back or changed nothing searchable: stops the worker, writes nothing. */
  abandon(): Promise<void>
}

/** Options of `indexWhileImporting`. */
export interface ImportIndexOptions {
  /** Items sent to the worker per message. Default 256. */
  batch?: number
  /** How long `finish` waits for the worker after the commit before giving up ('unused'). Default 120 s. */
  timeoutMs?: number
}

const WORKER_TASK = 'frontdesk-import-index'

/** Messages of the import to its worker, in order. */
type ToWorker =
  | { kind: 'begin'; categories: CategoryRecord[] }
  | { kind: 'writes'; writes: Writes }
  | { kind: 'end'; categories: CategoryRecord[]; tags: [string, string][]; seq: number; anchor: ChangeRow | null }
  | { kind: 'publish' }

/** Messages of the worker to the import. */
type FromWorker = { kind: 'done'; outcome: ImportIndexOutcome } | { kind: 'failed'; message: string }

/**
 * Indexes the tenant's items for search while the next transaction of `store` (an import)
 * writes them, on a worker thread: the store shows each write to this (`observeNextTransaction`),
 * the items go to the worker in batches, and the worker analyses them meanwhile
 * (`ImportAnalysis`). When the import's writes end, inside its transaction, the worker is
 * told the committed state (categories, tag names, the last `change_log` row), puts the
 * index together and writes the snapshot under a temporary name while the import commits;
 * `finish`, after the commit, has it renamed into place beside the database: the file
 * `SqliteSearchIndex.saveSnapshot` would write after reading every item back and analysing
 * it then, one phase after the other on one core.
 *
 * Only for a tenant with no items when the transaction begins (its first import): anything
 * else, a changed category or tag name under analysed items, a worker that fails or is too
 * slow, ends as 'unused', and the caller builds from the database as before. The snapshot is
 * renamed into place only by `finish`, so a failed or rolled-back import leaves none
 * (`abandon` removes the temporary file).
 */
export function indexWhileImporting(store: SqliteStore, tenantId: string, options: ImportIndexOptions = {}): ImportIndexing {
  const dir = defaultSnapshotDir(store.path)
  if (dir === null) return { finish: () => Promise.resolve('unused'), abandon: () => Promise.resolve() }
  const batchSize = options.batch ?? 256
  const timeoutMs = options.timeoutMs ?? 120_000
  let worker: Worker | null = null
  let failed = false
  let ended = false
  let reply: ((message: FromWorker) => void) | null = null
  const batch = new WriteBatch()
  const stop = async () => {
    failed = true
    const running = worker
    worker = null
    if (running !== null) await running.terminate()
  }
  // Hint: after `stop`: the worker may have written the snapshot's temporary file (at the end of the writes) but never renames it then.
  const discard = async () => {
    await stop()
    try {
      rmSync(temporaryName(dir, tenantId), { force: true })
    } catch {
      // Hint: no such directory (or not one): nothing was written.
    }
  }
  try {
    worker = spawnWorker(tenantId, dir)
    // Hint: never what keeps the process alive; `finish` waits with a timer of its own.
    worker.unref()
    worker.on('message', (message: FromWorker) => reply?.(message))
    worker.on('error', (error: Error) => {
      void stop()
      reply?.({ kind: 'failed', message: error.message })
    })
    worker.on('exit', () => {
      failed = true
      reply?.({ kind: 'failed', message: 'the indexing worker exited' })
    })
  } catch {
    failed = true
  }
  const send = (message: ToWorker) => worker?.postMessage(message)
  const flush = () => {
    if (batch.size > 0) send({ kind: 'writes', writes: batch.take() })
  }
  const full = () => {
    if (batch.size >= batchSize) flush()
  }
  // Hint: an observer must not throw into the import: any failure here only drops the worker.
  const guarded = (step: () => void) => {
    try {
      if (!failed) step()
    } catch {
      void stop()
    }
  }
  let begun = false
  const observer: TransactionObserver = {
    begun: (conn) => {
      begun = true
      guarded(() => {
        const any = conn.prepare('SELECT 1 FROM contents WHERE tenant_id = ? LIMIT 1').get(tenantId)
        if (any !== undefined) return void stop()
        send({ kind: 'begin', categories: selectCategories(conn, tenantId) })
      })
    },
    content: (r: ContentRecord) =>
      guarded(() => {
        if (r.tenant_id !== tenantId) return
        batch.item(r)
        full()
      }),
    contentDeleted: (tenant, id) =>
      guarded(() => {
        if (tenant !== tenantId) return
        batch.deleted(id)
        full()
      }),
    category: (category) =>
      guarded(() => {
        if (category.tenant_id !== tenantId) return
        batch.category(category)
        full()
      }),
    tag: () => undefined,
    committing: (conn) =>
      guarded(() => {
        flush()
        const { seq, anchor } = lastChange(conn)
        // Hint: as `SqliteSearchIndex` saves a snapshot: without its anchor row it could not be checked on load.
        if (seq !== 0 && anchor === null) return void stop()
        const tags = conn.prepare('SELECT id, name FROM tags WHERE tenant_id = ?').raw(true).all(tenantId) as [string, string][]
        send({ kind: 'end', categories: selectCategories(conn, tenantId), tags, seq, anchor })
        ended = true
      }),
  }
  store.observeNextTransaction(observer)
  return {
    finish: async () => {
      const running = worker
      if (failed || !ended || running === null) {
        await discard()
        return 'unused'
      }
      const answer = new Promise<FromWorker>((resolve) => {
        reply = resolve
        setTimeout(() => resolve({ kind: 'failed', message: 'timed out' }), timeoutMs).unref()
      })
      running.ref()
      // Hint: a timer that keeps the process alive while the worker writes (the worker itself is unref'd).
      const alive = setInterval(() => undefined, 1000)
      send({ kind: 'publish' })
      let outcome: ImportIndexOutcome = 'unused'
      try {
        const message = await answer
        if (message.kind === 'done') outcome = message.outcome
        return outcome
      } finally {
        clearInterval(alive)
        if (outcome === 'saved') await stop()
        else await discard()
      }
    },
    abandon: () => {
      // Hint: an import that failed before its transaction began must not leave this to the store's next one.
      if (!begun) store.observeNextTransaction(null)
      return discard()
    },
  }
}

/** The last `change_log` row (0 and `null`: none), read inside the import's transaction: the state the snapshot is of. */
function lastChange(conn: Connection): { seq: number; anchor: ChangeRow | null } {
  const last = conn.prepare("SELECT seq FROM sqlite_sequence WHERE name = 'change_log'").get() as { seq: number } | undefined
  const seq = last?.seq ?? 0
  if (seq === 0) return { seq, anchor: null }
  const anchor = conn.prepare('SELECT tenant_id, entity, entity_id FROM change_log WHERE seq = ?').get(seq) as ChangeRow | undefined
  return { seq, anchor: anchor ?? null }
}

/**
 * A worker running this module. From the TypeScript sources (tests, the benchmark) the worker
 * registers tsx first (`--import tsx` of the parent does not reach worker threads); the
 * bundled CLI runs its own JavaScript chunk (as `bulk-build.ts`).
 */
function spawnWorker(tenantId: string, dir: string): Worker {
  const url = new URL(import.meta.url)
  const data: WorkerInput = { task: WORKER_TASK, tenantId, dir }
  if (!url.pathname.endsWith('.ts')) return new Worker(url, { workerData: data })
  const boot = `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(url.href)}) })`
  return new Worker(boot, { eval: true, workerData: data })
}

/** What the worker is given. */
interface WorkerInput {
  task: typeof WORKER_TASK
  tenantId: string
  /** The snapshot directory. */
  dir: string
}

/**
 * The worker side: analyse the writes as they come; at their end, put the index together and
 * write the snapshot under its temporary name (while the import commits); rename it into place
 * when told the import committed.
 */
function runWorker({ tenantId, dir }: WorkerInput): void {
  const port = parentPort
  if (port === null) return
  let analysis: ImportAnalysis | null = null
  let prepared: PreparedSnapshot | null = null
  let built = false
  const answer = (message: FromWorker) => {
    port.postMessage(message)
    port.close()
  }
  port.on('message', (message: ToWorker) => {
    try {
      if (message.kind === 'begin') analysis = new ImportAnalysis(message.categories)
      else if (message.kind === 'writes') analysis?.take(message.writes)
      else if (message.kind === 'end') {
        const tenant = analysis?.end({ categories: message.categories, tags: new Map(message.tags) }) ?? null
        analysis = null
        built = tenant !== null
        if (tenant !== null) prepared = prepareSnapshot(dir, tenantId, { seq: message.seq, anchor: message.anchor, tenant })
      } else if (message.kind === 'publish') {
        if (!built) return answer({ kind: 'done', outcome: 'unused' })
        answer({ kind: 'done', outcome: prepared !== null && publishSnapshot(prepared) ? 'saved' : 'unwritable' })
      }
    } catch (error) {
      answer({ kind: 'failed', message: error instanceof Error ? error.message : String(error) })
    }
  })
}

if (!isMainThread && (workerData as { task?: unknown } | null)?.task === WORKER_TASK) runWorker(workerData as WorkerInput)
