import { AsyncLocalStorage } from 'node:async_hooks'
import { AsyncMutex } from './async-mutex.ts'
import { withBusyRetry, toStorageError } from './busy-retry.ts'
import { WRITER_CACHE_KIB } from './open-connection.ts'
import { noteLocalCommit } from './data-version-watch.ts'
import type { Connection } from './statement-cache.ts'

/**
 * How hard a commit is pushed to disk. `full` (the default) fsyncs the WAL before the commit
 * returns: it survives power loss. `normal` leaves the sync to the next checkpoint or `full`
 * commit: it survives a crash of the process (`kill -9`), not of the machine, at a fraction of
 * the cost; for bookkeeping whose loss is harmless (idempotency claims, last-use stamps).
 */
export type CommitDurability = 'full' | 'normal'

/**
 * The single way to write: holds the writer connection for one transaction at a time.
 * In-process writers queue on an async mutex; another process's lock is waited for with
 * `BEGIN IMMEDIATE` retried asynchronously (see `withBusyRetry`) up to `busyTimeoutMs`.
 */
export class WriteGate {
  readonly #writer: Connection
  readonly #busyTimeoutMs: number
  readonly #mutex = new AsyncMutex()
  readonly #inside = new AsyncLocalStorage<true>()
  /** Runs asked for and not yet settled (queued or running). */
  #pending = 0
  #closed = false

  constructor(writer: Connection, busyTimeoutMs: number) {
    this.#writer = writer
    this.#busyTimeoutMs = busyTimeoutMs
  }

  /** Whether `close()` was called. */
  get closed(): boolean {
    return this.#closed
  }

  /** Whether the caller runs inside a transaction of this gate (a write now would wait for itself). */
  get inside(): boolean {
    return this.#inside.getStore() === true
  }

  /**
   * Runs `work` in one transaction on the writer: COMMIT when it resolves, ROLLBACK when it
   * rejects (the rejection passes on, busy errors as `StorageUnavailableError`).
   * Refused inside another `run` (it would wait for itself forever). `lockWaitMs` overrides
   * how long it waits for another process's lock (default: the gate's `busyTimeoutMs`);
   * `cacheKib` enlarges the page cache for this transaction (see `TRANSACTION_CACHE_KIB`).
   */
  run<T>(work: () => Promise<T>, durability: CommitDurability = 'full', lockWaitMs = this.#busyTimeoutMs, cacheKib?: number): Promise<T> {
    if (this.inside) {
      return Promise.reject(new Error('Transactions do not nest: use the transaction object for writes inside it'))
    }
    if (this.#closed) return Promise.reject(new Error('The store is closed'))
    this.#pending++
    const settled = this.#mutex.run(() =>
      this.#inside.run(true, async () => {
        const conn = this.#writer
        // Hint: the safety level may not change inside a transaction; it applies to the commit.
        if (durability === 'normal') conn.prepare('PRAGMA synchronous = NORMAL').run()
        if (cacheKib !== undefined) conn.prepare(`PRAGMA cache_size = -${cacheKib}`).run()
        try {
          await withBusyRetry(lockWaitMs, () => conn.prepare('BEGIN IMMEDIATE').run())
          try {
            const result = await work()
            conn.prepare('COMMIT').run()
            noteLocalCommit()
            return result
          } catch (error) {
            if (conn.db.inTransaction) conn.db.exec('ROLLBACK')
            throw toStorageError(error)
          }
        } finally {
          if (durability === 'normal') conn.prepare('PRAGMA synchronous = FULL').run()
          // Hint: shrinking the cache frees the pages above the limit.
          if (cacheKib !== undefined) conn.prepare(`PRAGMA cache_size = -${WRITER_CACHE_KIB}`).run()
        }
      }),
    )
    // Hint: an enabled AsyncLocalStorage turns on promise hooks for the whole process (every
    // await of every request pays for them); off while no write is due.
    return settled.finally(() => {
      if (--this.#pending === 0) this.#inside.disable()
    })
  }

  /** Lets queued writes finish, then refuses new ones. */
  async close(): Promise<void> {
    this.#closed = true
    await this.#mutex.run(async () => undefined)
  }
}
