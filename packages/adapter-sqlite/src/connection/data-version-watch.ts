import type { Connection } from './statement-cache.ts'

/** Commits made by writers of this process (any store); see `noteLocalCommit`. */
let localCommits = 0

/**
 * Tells every watch that a writer of this process has just committed, so the next
 * `dataVersionOf` re-reads `PRAGMA data_version` instead of trusting its last reading.
 * Called by the write gate right after each COMMIT.
 */
export function noteLocalCommit(): void {
  localCommits++
}

/** How long one reading of `PRAGMA data_version` is trusted, in milliseconds. */
export const DATA_VERSION_TRUST_MS = 1

/**
 * A connection's `PRAGMA data_version`, read at most once per `DATA_VERSION_TRUST_MS`.
 *
 * The pragma is a round trip into SQLite through the driver, and the hottest request (a cached
 * detail) needs it twice: for the key memo and for the tenant's revision, which would be a
 * large part of that request's own CPU. Under load the requests of one millisecond share one
 * reading. A commit of this process (`noteLocalCommit`) forces a fresh reading at once, so
 * a writer always reads its own writes; another process's commit (a CLI import, a disabled
 * key) is seen at most 1 ms after it returned.
 */
class DataVersionWatch {
  readonly #conn: Connection
  #version = -1
  #seenCommits = -1
  #readAt = -Infinity

  constructor(conn: Connection) {
    this.#conn = conn
  }

  current(): number {
    const now = performance.now()
    if (this.#seenCommits === localCommits && now - this.#readAt < DATA_VERSION_TRUST_MS) return this.#version
    this.#version = this.#conn.prepare('PRAGMA data_version').pluck().get() as number
    this.#seenCommits = localCommits
    this.#readAt = now
    return this.#version
  }
}

const watches = new WeakMap<Connection, DataVersionWatch>()

/** `PRAGMA data_version` of a (reader) connection, at most one SQLite call per millisecond (see `DataVersionWatch`). */
export function dataVersionOf(conn: Connection): number {
  let watch = watches.get(conn)
  if (watch === undefined) {
    watch = new DataVersionWatch(conn)
    watches.set(conn, watch)
  }
  return watch.current()
}
