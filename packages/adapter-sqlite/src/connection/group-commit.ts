import { isTransientError } from './busy-retry.ts'
import type { Connection } from './statement-cache.ts'
import type { WriteGate } from './write-gate.ts'

/** Most writes one group commit holds, so that one batch never keeps the lock for long. */
export const MAX_GROUP = 1000

interface Waiting<T> {
  item: T
  resolve: () => void
  reject: (error: unknown) => void
}

/**
 * Group commit for small durable writes (inquiries): the writes requested while a commit is
 * being made are written together in the next transaction, with one fsync for all of them,
 * instead of one fsync each (an fsync takes milliseconds: one at a time would cap inquiries at
 * a few hundred a second).
 *
 * - Every caller's promise resolves only after the COMMIT holding its write returned
 *   (`synchronous = FULL`: synced), so an acknowledged write survives a crash right after.
 * - An idle store writes a lone request at once (in the same turn of the event loop, so
 *   nothing else may come first: a client that half-closes its connection still gets its
 *   answer). Under load, that is when a write arrives within one turn of the event loop after
 *   a commit, the next batch starts from `setImmediate`, after the loop has read everything
 *   that arrived during the last commit (better-sqlite3 blocks the loop while it syncs), so
 *   the batch grows with the load by itself.
 * - Each write runs in its own SAVEPOINT: one that fails by itself (a constraint) rejects its
 *   caller only, and the others commit. A storage fault (busy, full disk, I/O) or a failed
 *   COMMIT rolls the whole batch back and rejects exactly the callers of that batch.
 */
export class GroupCommit<T> {
  readonly #gate: WriteGate
  readonly #conn: Connection
  readonly #write: (item: T) => void
  readonly #lockWaitMs: number | undefined
  #pending: Waiting<T>[] = []
  #scheduled = false
  #busy = false
  #idle: (() => void)[] = []

  /** `lockWaitMs`: how long a batch waits for another process's write lock (default: the gate's). */
  constructor(gate: WriteGate, conn: Connection, write: (item: T) => void, lockWaitMs?: number) {
    this.#gate = gate
    this.#conn = conn
    this.#write = write
    this.#lockWaitMs = lockWaitMs
  }

  /** Queues `item` for the next group commit; resolves once it is committed. */
  add(item: T): Promise<void> {
    if (this.#gate.closed) return Promise.reject(new Error('The store is closed'))
    if (this.#gate.inside) {
      return Promise.reject(new Error('Transactions do not nest: use the transaction object for writes inside it'))
    }
    return new Promise<void>((resolve, reject) => {
      this.#pending.push({ item, resolve, reject })
      this.#schedule()
    })
  }

  /** Resolves once every queued write has been committed or refused. */
  drain(): Promise<void> {
    if (!this.#scheduled && this.#pending.length === 0) return Promise.resolve()
    return new Promise((resolve) => this.#idle.push(resolve))
  }

  #schedule(): void {
    if (this.#scheduled) return
    this.#scheduled = true
    if (this.#busy) setImmediate(() => void this.#flush())
    else queueMicrotask(() => void this.#flush())
  }

  async #flush(): Promise<void> {
    const batch = this.#pending.splice(0, MAX_GROUP)
    const failed = new Map<Waiting<T>, unknown>()
    try {
      await this.#gate.run(async () => {
        for (const waiting of batch) this.#writeOne(waiting, failed)
      }, 'full', this.#lockWaitMs)
      for (const waiting of batch) {
        if (failed.has(waiting)) waiting.reject(failed.get(waiting))
        else waiting.resolve()
      }
    } catch (error) {
      for (const waiting of batch) waiting.reject(error)
    } finally {
      this.#scheduled = false
      // Hint: writes arriving before the loop turns once more are under load: let them gather.
      if (!this.#busy) {
        this.#busy = true
        setImmediate(() => (this.#busy = false))
      }
      if (this.#pending.length > 0) this.#schedule()
      else for (const resolve of this.#idle.splice(0)) resolve()
    }
  }

  #writeOne(waiting: Waiting<T>, failed: Map<Waiting<T>, unknown>): void {
    const conn = this.#conn
    conn.prepare('SAVEPOINT group_member').run()
    try {
      this.#write(waiting.item)
    } catch (error) {
      // Hint: a storage fault dooms the whole transaction; the gate rolls it back and rejects all.
      if (isTransientError(error)) throw error
      conn.prepare('ROLLBACK TO group_member').run()
      failed.set(waiting, error)
    } finally {
      if (conn.db.inTransaction) conn.prepare('RELEASE group_member').run()
    }
  }
}
