import Database from 'better-sqlite3'
import { closeSync, openSync } from 'node:fs'
import { withBusyRetrySync } from './busy-retry.ts'
import { Connection } from './statement-cache.ts'

/**
 * How long one SQLite call may wait for a lock before it fails and is retried asynchronously.
 * Short, because better-sqlite3 waits synchronously and blocks the event loop meanwhile.
 */
export const LOCK_WAIT_SLICE_MS = 25

/**
 * Bytes of WAL kept after a checkpoint has emptied it. Without a limit the file stays as large
 * as the largest transaction ever made (a big import) for as long as any connection is open;
 * SQLite's auto-checkpoint (every ~4 MiB) keeps it small in between.
 */
export const WAL_SIZE_LIMIT = 16 * 1024 * 1024

/** The writer's page cache, in KiB. */
export const WRITER_CACHE_KIB = 32_000

/**
 * The writer's page cache during a content transaction (an import above all), in KiB. Pages
 * are allocated only as a transaction touches them, and the cache shrinks back to
 * `WRITER_CACHE_KIB` after it: a large import then keeps its random index leaves in memory
 * instead of spilling them to the WAL and reading them back (less system time, for more RSS
 * while it runs).
 */
export const TRANSACTION_CACHE_KIB = 262_144

/**
 * The page size of a new database file. An item's row (1–2 KB of HTML body and its other
 * columns) is often just over half of a 4 KiB page, so 4 KiB pages held one row each and the
 * contents table was a third empty; 8 KiB pages hold three. The file is smaller and an import
 * writes that much less, while reads cost the same and a small commit (an inquiry) only a
 * little more (figures in bench/NOTES.md).
 */
export const PAGE_SIZE_BYTES = 8192

/**
 * Opens one connection to the database file with frontdesk's pragmas, waiting up to
 * `lockWaitMs` (default `LOCK_WAIT_SLICE_MS`) for a lock in each call.
 *
 * - `page_size` (`PAGE_SIZE_BYTES`) on the writer, before anything is written to a new file.
 * - `journal_mode = WAL`: readers never block the writer, and the writer never blocks readers.
 * - `journal_size_limit` (`WAL_SIZE_LIMIT`) on the writer: the WAL shrinks back after a big
 *   transaction once the next write restarts it.
 * - `synchronous = FULL`: every commit is fsynced before it returns, so an acknowledged write
 *   (an inquiry above all) survives a crash of the process *and* of the machine. `NORMAL` would
 *   survive `kill -9` only.
 * - `foreign_keys = ON` on the writer; the reader is `query_only`, so a stray write through
 *   it fails loudly instead of bypassing the writer's lock and transaction.
 */
export function openConnection(path: string, role: 'reader' | 'writer', lockWaitMs = LOCK_WAIT_SLICE_MS): Connection {
  if (role === 'writer') createPrivately(path)
  const db = new Database(path)
  try {
    // Hint: opening may wait longer (it is synchronous anyway); the store shortens it afterwards.
    db.pragma(`busy_timeout = ${Math.max(0, Math.floor(lockWaitMs))}`)
    db.pragma('synchronous = FULL')
    if (role === 'writer') {
      // Hint: takes effect only in a new, empty file (an existing one keeps its page size).
      db.pragma(`page_size = ${PAGE_SIZE_BYTES}`)
      // Hint: turning a new file to WAL takes its exclusive lock without calling the busy handler:
      // of two processes opening a new file at the same moment, one got SQLITE_BUSY at once (7
      // tries in 40) despite `busy_timeout`. Once the file is in WAL, this changes nothing.
      withBusyRetrySync(lockWaitMs, () => db.pragma('journal_mode = WAL'))
      db.pragma(`journal_size_limit = ${WAL_SIZE_LIMIT}`)
      db.pragma('foreign_keys = ON')
      // Hint: a larger page cache (32 MB) keeps the indexes of a big import hot.
      db.pragma(`cache_size = -${WRITER_CACHE_KIB}`)
    } else {
      db.pragma('query_only = ON')
      // Hint: the default 2 MB page cache is a sliver of the indexes the read path probes (the
      // link and field indexes of a large tenant are tens of MB). 32 MB: at 100,000 items 64 MB
      // read details, pages and filtered lists no faster (bench/micro/read-paths.ts) and held
      // 32 MB more RSS; the file's other pages stay in the OS's cache.
      db.pragma('cache_size = -32768')
    }
    return new Connection(db)
  } catch (error) {
    db.close()
    throw error
  }
}

/**
 * Creates a missing database file readable and writable by its owner only (0600): it holds
 * inquirers' names, e-mails and phone numbers. SQLite gives the `-wal` and `-shm` files it
 * makes beside it the database file's permissions. An existing file keeps its own; a path
 * SQLite handles itself (`:memory:`, a `file:` URI) or one that cannot be created here (a
 * missing directory…) is left to SQLite and its error.
 */
function createPrivately(path: string): void {
  if (path === '' || path === ':memory:' || path.startsWith('file:')) return
  try {
    closeSync(openSync(path, 'wx', 0o600))
  } catch {
    // Hint: EEXIST is the usual case; any other failure is reported by SQLite's open below.
  }
}
