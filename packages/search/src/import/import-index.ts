import type { CategoryRecord, ContentReader, ContentRecord, FeedPosition, SnapshotStore, StagedSnapshotFile, TransactionObserver } from '@frontdesk/core'
import { closeSync, openSync, writeSync } from 'node:fs'
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads'
import type { ByteSpill, ListSpill } from '../build/list-spill.ts'
import { fileByteSpill, fileSpill, memoryByteSpill } from '../build/list-spill.ts'
import { encodeSnapshot, snapshotPieces } from '../snapshots/snapshot-codec.ts'
import type { Writes } from './import-analysis.ts'
import { ImportAnalysis, WriteBatch } from './import-analysis.ts'

/** How `indexWhileImporting` ended. */
export type ImportIndexOutcome =
  /** The snapshot was written. */
  | 'saved'
  /** It was built but could not be written (read-only directory, full disk…). */
  | 'unwritable'
  /** Not built this way (the tenant had items, something changed under it, the worker failed…): build it from the store. */
  | 'unused'

/** An import's search indexing on a worker thread (see `indexWhileImporting`). */
export interface ImportIndexing {
  /** Pass it as the import's `TransactionOptions.observer`. */
  readonly observer: TransactionObserver
  /** After the import committed: writes the snapshot (waiting for the worker, at most `timeoutMs`). Stops the worker. */
  finish(): Promise<ImportIndexOutcome>
  /** After an import that failed, rolled back or changed nothing searchable: stops the worker, writes nothing. */
  abandon(): Promise<void>
}

/** Options of `indexWhileImporting`. */
export interface ImportIndexOptions {
  /** The tenant the import writes. */
  tenantId: string
  /** Where the snapshot goes (the engine of the next `serve` reads it from there); `null`: nowhere (nothing is done). */
  snapshots: SnapshotStore | null
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
  /** `file`: where to write the snapshot (a staging file), else its bytes come back. */
  | { kind: 'end'; categories: CategoryRecord[]; tags: [string, string][]; position: FeedPosition; file: string | null }

/**
 * Messages of the worker to the import: the snapshot written to the staging file (`written`:
 * whether that worked), or its bytes, or `null` when it was not built (see `ImportAnalysis.end`).
 */
type FromWorker =
  | { kind: 'built'; chunks: Uint8Array[] | null }
  | { kind: 'written'; written: boolean }
  | { kind: 'failed'; message: string }

/**
 * Indexes a tenant's items for search while an import's transaction writes them, on a worker
 * thread: the store shows each write to `observer` (the port's `TransactionObserver`, passed
 * in the transaction's options), the items go to the worker in batches, and the worker
 * analyses them meanwhile (`ImportAnalysis`). When the writes end, still inside the
 * transaction, the worker is told the committed state (categories, tag names, the feed
 * position the commit will stand at) and puts the snapshot together while the store commits,
 * writing it to a staging file when `snapshots` offers one (`stagingFile`, as a directory
 * does); `finish`, after the commit, publishes that file (a rename), or writes the bytes the
 * worker handed back: the snapshot `SearchEngine.saveSnapshot` would write after reading every
 * item back from the store and analysing it then, one phase after the other on one core.
 *
 * Only for a tenant with no items when the transaction begins (its first import): anything
 * else, a changed category or tag name under analysed items, a worker that fails or is too
 * slow, ends as 'unused', and the caller builds from the store as before. Nothing is published
 * before `finish`, so a failed or rolled-back import leaves no snapshot behind.
 */
export function indexWhileImporting(options: ImportIndexOptions): ImportIndexing {
  const { tenantId, snapshots } = options
  const batchSize = options.batch ?? 256
  const timeoutMs = options.timeoutMs ?? 120_000
  let worker: Worker | null = null
  let failed = snapshots === null
  let ended = false
  let result: FromWorker | null = null
  let reply: ((message: FromWorker) => void) | null = null
  let staged: StagedSnapshotFile | null = null
  /** Whether the transaction wrote any item of the tenant (else nothing is staged: no directory made for an import of inquiry categories). */
  let wroteItems = false
  const batch = new WriteBatch()
  const stop = async () => {
    failed = true
    const running = worker
    worker = null
    if (running !== null) await running.terminate()
  }
  // Hint: after `stop`: the worker may have written the staging file, which is never published then.
  const discard = async () => {
    await stop()
    await staged?.discard()
    staged = null
  }
  const received = (message: FromWorker) => {
    result ??= message
    // Hint: its answer is its last word; ended now, its index (the size of the snapshot) is not held through the rest of the commit.
    void worker?.terminate()
    reply?.(result)
  }
  if (!failed) {
    try {
      worker = spawnWorker(tenantId)
      // Hint: never what keeps the process alive; `finish` refs it while it waits.
      worker.unref()
      worker.on('message', received)
      worker.on('error', (error: Error) => {
        void stop()
        received({ kind: 'failed', message: error.message })
      })
      // Hint: a worker exits once it has answered; only an exit before that is a failure.
      worker.on('exit', () => {
        if (result !== null) return
        failed = true
        received({ kind: 'failed', message: 'the indexing worker exited' })
      })
    } catch {
      failed = true
    }
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
  const guardedAsync = async (step: () => Promise<void>) => {
    try {
      if (!failed) await step()
    } catch {
      await stop()
    }
  }
  const observer: TransactionObserver = {
    begun: (tx: ContentReader) =>
      guardedAsync(async () => {
        const any = await tx.listContents(tenantId, { visibility: { kind: 'all' }, sort: { key: 'id', direction: 'asc' }, limit: 1 })
        if (any.length > 0) return void (await stop())
        send({ kind: 'begin', categories: await tx.listCategories(tenantId) })
      }),
    content: (r: ContentRecord) =>
      guarded(() => {
        if (r.tenant_id !== tenantId) return
        wroteItems = true
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
    committing: (tx: ContentReader, position: FeedPosition) =>
      guardedAsync(async () => {
        flush()
        const [categories, tags] = await Promise.all([tx.listCategories(tenantId), tx.listTags(tenantId)])
        if (wroteItems) staged = (await snapshots?.stagingFile?.(tenantId).catch(() => null)) ?? null
        send({ kind: 'end', categories, tags: tags.map((tag): [string, string] => [tag.id, tag.name]), position, file: staged?.path ?? null })
        ended = true
      }),
  }
  return {
    observer,
    finish: async () => {
      const running = worker
      if (failed || !ended || running === null || snapshots === null) {
        await discard()
        return 'unused'
      }
      running.ref()
      const answer = new Promise<FromWorker>((resolve) => {
        if (result !== null) return resolve(result)
        reply = resolve
        setTimeout(() => resolve({ kind: 'failed', message: 'timed out' }), timeoutMs).unref()
      })
      let outcome: ImportIndexOutcome = 'unused'
      try {
        const message = await answer
        if (message.kind === 'written' && staged !== null) {
          outcome = message.written && (await staged.publish()) ? 'saved' : 'unwritable'
          if (outcome === 'saved') staged = null
        } else if (message.kind === 'built' && message.chunks !== null) {
          outcome = (await snapshots.write(tenantId, message.chunks).catch(() => false)) ? 'saved' : 'unwritable'
        }
        return outcome
      } finally {
        await discard()
      }
    },
    abandon: () => discard(),
  }
}

/**
 * A worker running this module. From the TypeScript sources (tests, the benchmark) the worker
 * registers tsx first (`--import tsx` of the parent does not reach worker threads); the
 * bundled CLI runs its own JavaScript chunk.
 */
function spawnWorker(tenantId: string): Worker {
  const url = new URL(import.meta.url)
  const data: WorkerInput = { task: WORKER_TASK, tenantId }
  if (!url.pathname.endsWith('.ts')) return new Worker(url, { workerData: data })
  const boot = `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(url.href)}) })`
  return new Worker(boot, { eval: true, workerData: data })
}

/** What the worker is given. */
interface WorkerInput {
  task: typeof WORKER_TASK
  tenantId: string
}

/**
 * The worker side: analyse the writes as they come; at their end (while the import commits),
 * put the index together and encode its snapshot, and hand the bytes over (moved, not copied).
 */
function runWorker(): void {
  const port = parentPort
  if (port === null) return
  let analysis: ImportAnalysis | null = null
  const answer = (message: FromWorker, transfer: ArrayBuffer[] = []) => {
    port.postMessage(message, transfer)
    port.close()
  }
  port.on('message', (message: ToWorker) => {
    try {
      if (message.kind === 'begin') analysis = new ImportAnalysis(message.categories, spillOrNull(), byteSpill())
      else if (message.kind === 'writes') analysis?.take(message.writes)
      else {
        const tenant = analysis?.end({ categories: message.categories, tags: new Map(message.tags) }) ?? null
        analysis = null
        if (tenant === null) return answer({ kind: 'built', chunks: null })
        // Hint: to a file, the items' bytes are read back and the postings made a piece at a time as they are written, never whole in memory.
        if (message.file !== null) answer({ kind: 'written', written: writeFile(message.file, snapshotPieces(message.position, tenant)) })
        else {
          const chunks = encodeSnapshot(message.position, tenant)
          answer({ kind: 'built', chunks }, ownBuffers(chunks))
        }
      }
    } catch (error) {
      answer({ kind: 'failed', message: error instanceof Error ? error.message : String(error) })
    }
  })
}

/** A spill file for the analysed items (see `ListSpill`), or none when no temporary file can be made: they stay in memory then. */
function spillOrNull(): ListSpill | null {
  try {
    return fileSpill()
  } catch {
    return null
  }
}

/** Where the analysed items' search data wait (see `DocBytes`): an unnamed temporary file, else memory. */
function byteSpill(): ByteSpill {
  try {
    return fileByteSpill()
  } catch {
    return memoryByteSpill()
  }
}

/**
 * Writes the chunks to a new file readable by its owner only; `false` when the file could not
 * be written (it is then left to `discard`). A chunk that cannot be made (`chunks` throws) is
 * thrown: the index was not built.
 */
function writeFile(path: string, chunks: Iterable<Uint8Array>): boolean {
  let fd: number
  try {
    fd = openSync(path, 'w', 0o600)
  } catch {
    return false
  }
  try {
    for (const chunk of chunks) {
      try {
        for (let offset = 0; offset < chunk.length; ) offset += writeSync(fd, chunk, offset, chunk.length - offset)
      } catch {
        return false
      }
    }
    return true
  } finally {
    closeSync(fd)
  }
}

/** The buffers that only these chunks use, which can be moved to the other thread instead of copied. */
function ownBuffers(chunks: readonly Uint8Array[]): ArrayBuffer[] {
  const buffers = new Set<ArrayBuffer>()
  for (const chunk of chunks) {
    const buffer = chunk.buffer
    if (buffer instanceof ArrayBuffer && chunk.byteOffset === 0 && chunk.byteLength === buffer.byteLength) buffers.add(buffer)
  }
  return [...buffers]
}

if (!isMainThread && (workerData as { task?: unknown } | null)?.task === WORKER_TASK) runWorker()
