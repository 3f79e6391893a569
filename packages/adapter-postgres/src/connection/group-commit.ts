import { idempotencyInProgress } from '@frontdesk/core'
import type { Database } from './database.ts'
import type { InquiryWrite } from '../records/inquiries.ts'
import { insertInquiries } from '../records/inquiries.ts'
import { isTransientError, toStorageError } from './storage-error.ts'

/** Most inquiries one statement writes. */
export const MAX_GROUP = 1_000
/** Group commits under way at once (each on its own connection). */
const IN_FLIGHT = 2

interface Waiting {
  write: InquiryWrite
  resolve: () => void
  reject: (error: unknown) => void
}

/**
 * Group commit for inquiries: the inquiries requested while a commit is under way are written
 * together by the next one, one statement that commits (and is flushed to disk: synchronous
 * commit is on) for all of them, instead of one commit each.
 *
 * - Each caller's promise resolves only after the commit holding its row returned, so an
 *   acknowledged inquiry survives a crash of this process right after, and of the server.
 * - An idle store writes a lone inquiry at once; under load, inquiries arriving while a commit
 *   is under way wait for the next one (at most `IN_FLIGHT` at once), so groups grow with load.
 * - An inquiry whose id is taken is refused by itself and the others commit; a statement that
 *   fails for another reason (a constraint) is retried one inquiry at a time, so that only the
 *   faulty one is refused. A transient failure (the database unreachable) refuses the whole
 *   group with `StorageUnavailableError`: none of it was acknowledged.
 */
export class GroupCommit {
  readonly #db: Database
  #pending: Waiting[] = []
  #inFlight = 0
  #scheduled = false
  #idle: (() => void)[] = []

  constructor(db: Database) {
    this.#db = db
  }

  /** Queues `write` for the next group commit; resolves once it is committed. */
  add(write: InquiryWrite): Promise<void> {
    if (this.#db.closed) return Promise.reject(new Error('The store is closed'))
    return new Promise<void>((resolve, reject) => {
      this.#pending.push({ write, resolve, reject })
      this.#schedule()
    })
  }

  /** Resolves once every queued inquiry has been committed or refused. */
  drain(): Promise<void> {
    if (this.#inFlight === 0 && this.#pending.length === 0) return Promise.resolve()
    return new Promise((resolve) => this.#idle.push(resolve))
  }

  #schedule(): void {
    if (this.#scheduled || this.#pending.length === 0 || this.#inFlight >= IN_FLIGHT) return
    this.#scheduled = true
    // Hint: with a commit under way, wait for this turn of the event loop to read what else arrived.
    if (this.#inFlight > 0) setImmediate(() => void this.#flush())
    else queueMicrotask(() => void this.#flush())
  }

  async #flush(): Promise<void> {
    this.#scheduled = false
    const batch = this.#pending.splice(0, MAX_GROUP)
    if (batch.length === 0) return
    this.#inFlight++
    try {
      const failed = await this.#commit(batch)
      for (const waiting of batch) {
        const error = failed.get(waiting)
        if (error === undefined) waiting.resolve()
        else waiting.reject(error)
      }
    } catch (error) {
      const reason = toStorageError(error)
      for (const waiting of batch) waiting.reject(reason)
    } finally {
      this.#inFlight--
      this.#schedule()
      if (this.#inFlight === 0 && this.#pending.length === 0) for (const resolve of this.#idle.splice(0)) resolve()
    }
  }

  /** Commits the batch; returns the inquiries refused, with why. */
  async #commit(batch: Waiting[]): Promise<Map<Waiting, unknown>> {
    const failed = new Map<Waiting, unknown>()
    let written: { inserted: Set<string>; lost: Set<string> }
    try {
      written = await insertInquiries(this.#db, batch.map((waiting) => waiting.write))
    } catch (error) {
      if (isTransientError(error) || batch.length === 1) throw error
      // Hint: one faulty inquiry failed the statement; each alone tells which.
      written = { inserted: new Set(), lost: new Set() }
      let broken: unknown = null
      for (const waiting of batch) {
        // Hint: those committed before the database went away stay acknowledged; the rest are refused.
        if (broken !== null) {
          failed.set(waiting, broken)
          continue
        }
        try {
          const alone = await insertInquiries(this.#db, [waiting.write])
          for (const id of alone.inserted) written.inserted.add(id)
          for (const id of alone.lost) written.lost.add(id)
        } catch (single) {
          if (isTransientError(single)) broken = toStorageError(single)
          failed.set(waiting, isTransientError(single) ? broken : single)
        }
      }
    }
    const { inserted, lost } = written
    const seen = new Set<string>()
    for (const waiting of batch) {
      if (failed.has(waiting)) continue
      const id = `${waiting.write.record.tenant_id}\u0000${waiting.write.record.id}`
      if (lost.has(id)) {
        failed.set(waiting, idempotencyInProgress())
        continue
      }
      // Hint: the first of two inquiries with one id got the row; the second is a duplicate.
      if (!inserted.has(id) || seen.has(id)) failed.set(waiting, new Error(`An inquiry with id ${waiting.write.record.id} already exists`))
      seen.add(id)
    }
    return failed
  }
}
