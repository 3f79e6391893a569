import { AsyncLocalStorage } from 'node:async_hooks'
import type { ChangeBatch, EntityChange, FeedPosition } from '../../port/change-feed.ts'
import type { MemoryTables } from './memory-tables.ts'
import { emptyTables } from './memory-tables.ts'

let databases = 0

/**
 * The state that several memory stores can share, as processes share a database file: open
 * two stores on one `MemoryDatabase` and each sees what the other commits, and their writes
 * take turns (one lock for the database). Create one with `createMemoryDatabase()`.
 */
export class MemoryDatabase {
  /** Names the database in feed positions: another database's positions are not this one's. */
  readonly name: string
  /** The committed state; replaced as a whole by every commit. */
  #tables: MemoryTables = emptyTables()
  /** Every change ever committed, oldest first; the change at index `i` is at position `i + 1`. */
  readonly #log: EntityChange[] = []
  #tail: Promise<unknown> = Promise.resolve()
  readonly #inside = new AsyncLocalStorage<true>()

  constructor() {
    databases += 1
    this.name = `mem${databases}`
  }

  /** The committed state (never change it: writes go through `write`). */
  get tables(): MemoryTables {
    return this.#tables
  }

  /**
   * Runs `work` holding the database's write lock: writes of every store on the database run
   * one after another, in the order asked. `work` returns the tables to commit and the changes
   * they hold (or throws, and nothing is committed). A write asked for while holding the lock
   * (a transaction inside a transaction) is refused: it could only wait for itself.
   */
  write<T>(work: () => Promise<{ result: T; tables: MemoryTables; changes: readonly EntityChange[] }>): Promise<T> {
    if (this.#inside.getStore() === true) {
      return Promise.reject(new Error('memory store: transactions do not nest: use the transaction object for writes inside it'))
    }
    const run = this.#tail.then(() =>
      this.#inside.run(true, async () => {
        const outcome = await work()
        this.#commit(outcome.tables, outcome.changes)
        return outcome.result
      }),
    )
    this.#tail = run.catch(() => undefined)
    return run
  }

  /** Resolves once every write asked for so far has ended. */
  async settled(): Promise<void> {
    await this.#tail
  }

  /** The position the feed stands at (after its newest change). */
  position(): FeedPosition {
    return this.#positionAt(this.#log.length)
  }

  /** The position the feed will stand at once `count` more changes are committed (for `TransactionObserver.committing`). */
  positionAfter(count: number): FeedPosition {
    return this.#positionAt(this.#log.length + count)
  }

  /** See `ChangeFeed.readChanges`: `null` for a position this database did not make. */
  readChanges(after: FeedPosition, limit: number, tenantId?: string): ChangeBatch | null {
    const start = this.#parsePosition(after)
    if (start === null) return null
    const take = Math.max(1, Math.floor(limit))
    const changes: EntityChange[] = []
    let position = start
    let more = false
    for (let index = start; index < this.#log.length; index++) {
      const change = this.#log[index]
      if (change === undefined || (tenantId !== undefined && change.tenantId !== tenantId)) continue
      if (changes.length === take) {
        more = true
        break
      }
      changes.push({ ...change })
      position = index + 1
    }
    return { changes, position: changes.length === 0 ? after : this.#positionAt(position), more }
  }

  #commit(tables: MemoryTables, changes: readonly EntityChange[]): void {
    this.#tables = tables
    for (const change of changes) this.#log.push({ ...change })
  }

  #positionAt(count: number): FeedPosition {
    return `${this.name}.${count}`
  }

  /** The number of changes before a position of this database, or `null`. */
  #parsePosition(position: FeedPosition): number | null {
    const match = /^(mem[1-9][0-9]*)\.(0|[1-9][0-9]{0,15})$/.exec(position)
    if (match === null || match[1] !== this.name) return null
    const count = Number(match[2])
    return count <= this.#log.length ? count : null
  }
}

/** A new, empty database for memory stores (see `MemoryDatabase`). */
export function createMemoryDatabase(): MemoryDatabase {
  return new MemoryDatabase()
}
