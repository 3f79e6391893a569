import type { CategoryRecord } from '@frontdesk/core'
import Database from 'better-sqlite3'
import type { Database as Connection } from 'better-sqlite3'
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads'
import type { SourceRange } from './build-source.ts'
import { readSourcePages } from './build-source.ts'
import { FIELDS } from './inverted-index.ts'
import { joinRanges } from './join-ranges.ts'
import type { RangePostings } from './range-indexer.ts'
import { RangeIndexer } from './range-indexer.ts'
import { TenantSearchIndex } from './tenant-index.ts'

/** How a tenant's index is built from the database (see `buildTenantIndex`). */
export interface BulkBuildOptions {
  /** Items read per page (and between two turns of the event loop when building in this thread). */
  pageSize: number
  /**
   * Worker threads sharing the work, each reading and analysing its own range of items
   * through its own read-only connection (`path`). 0 or 1: this thread alone.
   */
  workers: number
  /** Fewer items than this are built in this thread (starting workers costs more than it saves). */
  parallelFrom: number
}

const WORKER_TASK = 'frontdesk-search-build'

/** What a build worker is given. */
interface WorkerInput {
  task: typeof WORKER_TASK
  path: string
  range: SourceRange
  categories: CategoryRecord[]
  pageSize: number
}

/** Messages of a build worker to its parent. */
type WorkerMessage =
  | { kind: 'analysed'; docs: number; fieldTotals: number[] }
  | { kind: 'done'; postings: RangePostings }
  | { kind: 'failed'; message: string }

/**
 * Builds a tenant's index from the database: every item (any status) in id order, as if each
 * were `upsert`ed in turn — the same terms, postings and weights (a test compares them) — but
 * read with three statements a page instead of the store's whole records, analysed without a
 * per-item index update, and, for a large tenant with a database file (`path`), split into id
 * ranges analysed at once by worker threads (`RangeIndexer`), then joined. Workers that fail
 * to start or to read are not an error: the build then runs in this thread.
 */
export async function buildTenantIndex(
  db: Connection,
  path: string | null,
  tenantId: string,
  categories: CategoryRecord[],
  options: BulkBuildOptions,
): Promise<TenantSearchIndex> {
  const { n } = db.prepare('SELECT count(*) AS n FROM contents WHERE tenant_id = ?').get(tenantId) as { n: number }
  const workers = Math.min(options.workers, Math.ceil(n / Math.max(1, options.pageSize)))
  let ranges: { postings: RangePostings; fieldTotals: number[] }[] | null = null
  if (path !== null && workers > 1 && n >= options.parallelFrom) {
    ranges = await inWorkers(path, splitRanges(db, tenantId, n, workers), categories, options.pageSize).catch(() => null)
  }
  ranges ??= [await inThisThread(db, { tenantId, from: '', to: null }, categories, options.pageSize)]
  const totals = Array.from(FIELDS, (_, f) => ranges.reduce((sum, range) => sum + (range.fieldTotals[f] ?? 0), 0))
  const { data, postings, docs } = joinRanges(ranges.map((range) => range.postings), totals)
  return new TenantSearchIndex(categories, { docs, index: data, postings: [postings] })
}

/** `workers` ranges of about as many items each, by id. */
function splitRanges(db: Connection, tenantId: string, n: number, workers: number): SourceRange[] {
  const bounds: string[] = []
  const at = db.prepare('SELECT id FROM contents WHERE tenant_id = ? ORDER BY id LIMIT 1 OFFSET ?').pluck()
  for (let k = 1; k < workers; k++) {
    const id = at.get(tenantId, Math.floor((n * k) / workers)) as string | undefined
    if (id !== undefined && id > (bounds[bounds.length - 1] ?? '')) bounds.push(id)
  }
  return [...bounds, null].map((to, k) => ({ tenantId, from: bounds[k - 1] ?? '', to }))
}

async function inThisThread(db: Connection, range: SourceRange, categories: CategoryRecord[], pageSize: number): Promise<{ postings: RangePostings; fieldTotals: number[] }> {
  const indexer = new RangeIndexer(categories)
  for (const page of readSourcePages(db, range, pageSize)) {
    for (const item of page) indexer.add(item)
    // Hint: a server rebuilding a tenant keeps answering other requests between pages.
    await new Promise((resolve) => setImmediate(resolve))
  }
  return { postings: indexer.finish(0, new Array<number>(FIELDS.length).fill(0)), fieldTotals: indexer.fieldTotals }
}

/**
 * Runs one worker per range: each analyses its range and reports its field totals; once every
 * range before it has reported, it is told where its documents start and finishes its postings.
 */
function inWorkers(path: string, ranges: SourceRange[], categories: CategoryRecord[], pageSize: number): Promise<{ postings: RangePostings; fieldTotals: number[] }[]> {
  return new Promise((resolve, reject) => {
    const workers: Worker[] = []
    const analysed: ({ docs: number; fieldTotals: number[] } | undefined)[] = ranges.map(() => undefined)
    const done: (RangePostings | undefined)[] = ranges.map(() => undefined)
    let settled = false
    const fail = (error: unknown) => {
      if (settled) return
      settled = true
      for (const worker of workers) void worker.terminate()
      reject(error instanceof Error ? error : new Error(String(error)))
    }
    const finishReady = () => {
      if (!analysed.every((a) => a !== undefined)) return
      let docOffset = 0
      const totals = new Array<number>(FIELDS.length).fill(0)
      analysed.forEach((a, k) => {
        workers[k]?.postMessage({ docOffset, totalsBefore: [...totals] })
        docOffset += a?.docs ?? 0
        a?.fieldTotals.forEach((t, f) => (totals[f] = (totals[f] ?? 0) + t))
      })
    }
    ranges.forEach((range, k) => {
      const input: WorkerInput = { task: WORKER_TASK, path, range, categories, pageSize }
      const worker = spawnWorker(input)
      workers.push(worker)
      worker.on('message', (message: WorkerMessage) => {
        if (message.kind === 'failed') return fail(new Error(message.message))
        if (message.kind === 'analysed') {
          analysed[k] = { docs: message.docs, fieldTotals: message.fieldTotals }
          return finishReady()
        }
        done[k] = message.postings
        if (done.every((d) => d !== undefined) && !settled) {
          settled = true
          resolve(done.map((postings, i) => ({ postings: postings as RangePostings, fieldTotals: analysed[i]?.fieldTotals ?? [] })))
        }
      })
      worker.on('error', fail)
      worker.on('exit', (code) => {
        if (done[k] === undefined) fail(new Error(`search build worker exited (${code}) before it finished`))
      })
    })
  })
}

/**
 * A worker running this module. From the TypeScript sources (tests, the benchmark) the worker
 * registers tsx first (`--import tsx` of the parent does not reach worker threads); the
 * bundled CLI runs its own JavaScript chunk.
 */
function spawnWorker(input: WorkerInput): Worker {
  const url = new URL(import.meta.url)
  if (!url.pathname.endsWith('.ts')) return new Worker(url, { workerData: input })
  const boot = `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(url.href)}) })`
  return new Worker(boot, { eval: true, workerData: input })
}

/** The worker side: read and analyse the range, report, wait for the offsets, send the postings. */
function runWorker(input: WorkerInput): void {
  const port = parentPort
  if (port === null) return
  const send = (message: WorkerMessage, transfer: ArrayBuffer[] = []) => port.postMessage(message, transfer)
  let indexer: RangeIndexer
  try {
    const db = new Database(input.path, { readonly: true, fileMustExist: true })
    try {
      db.pragma('busy_timeout = 5000')
      indexer = new RangeIndexer(input.categories)
      for (const page of readSourcePages(db, input.range, input.pageSize)) for (const item of page) indexer.add(item)
    } finally {
      db.close()
    }
  } catch (error) {
    send({ kind: 'failed', message: error instanceof Error ? error.message : String(error) })
    port.close()
    return
  }
  send({ kind: 'analysed', docs: indexer.size, fieldTotals: indexer.fieldTotals })
  port.once('message', ({ docOffset, totalsBefore }: { docOffset: number; totalsBefore: number[] }) => {
    try {
      const postings = indexer.finish(docOffset, totalsBefore)
      send({ kind: 'done', postings }, [postings.postings.buffer, postings.used.buffer, postings.cjk.buffer])
    } catch (error) {
      send({ kind: 'failed', message: error instanceof Error ? error.message : String(error) })
    }
    port.close()
  })
}

if (!isMainThread && (workerData as { task?: unknown } | null)?.task === WORKER_TASK) runWorker(workerData as WorkerInput)
