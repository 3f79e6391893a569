import Database from 'better-sqlite3'
import type { Statement } from 'better-sqlite3'
import { closeSync, openSync } from 'node:fs'
import type { BucketPolicy, BucketStep, RateLimitStore } from '@frontdesk/core'
import { withBusyRetry } from '../connection/busy-retry.ts'

/** Options of `SqliteRateLimits`. */
export interface SqliteRateLimitsOptions {
  /** The buckets' file, e.g. `<database>.rate-limits` (created, 0600, when missing). */
  path: string
  /** How long a step waits for another process's step before it fails (the limiter then decides alone). Default 100 ms. */
  busyTimeoutMs?: number
}

/** The buckets' schema version (`PRAGMA user_version` of the file). */
export const RATE_LIMITS_SCHEMA_VERSION = 1

const SCHEMA = `
CREATE TABLE IF NOT EXISTS buckets (
  name TEXT PRIMARY KEY,
  tokens REAL NOT NULL,
  at REAL NOT NULL,
  taken INTEGER NOT NULL,
  full_at REAL NOT NULL
) WITHOUT ROWID;
PRAGMA user_version = ${RATE_LIMITS_SCHEMA_VERSION};
`

/*
 * One statement per step, atomic by itself (see `RateLimitStore`). `avail` is the bucket
 * refilled to :now (`refilled` of @frontdesk/core); :count ≥ 0 takes up to :count whole tokens,
 * :count < 0 gives -:count back. A missing bucket is full. Expressions are spelled out twice
 * because every SET expression sees the row as it was.
 */
const AVAIL = 'min(:capacity, tokens + max(0, :now - at) * :rate / 1000.0)'
const TAKEN = (avail: string) => `CASE WHEN :count >= 0 THEN min(:count, CAST(${avail} AS INTEGER)) ELSE 0 END`
const AFTER = (avail: string) => `CASE WHEN :count >= 0 THEN ${avail} - ${TAKEN(avail)} ELSE min(:capacity, ${avail} - :count) END`
const STEP = `
INSERT INTO buckets (name, tokens, at, taken, full_at)
VALUES (:name, ${AFTER(':capacity')}, :now, ${TAKEN(':capacity')}, :now + (:capacity - ${AFTER(':capacity')}) * 1000.0 / :rate)
ON CONFLICT (name) DO UPDATE SET
  tokens = ${AFTER(AVAIL)},
  taken = ${TAKEN(AVAIL)},
  full_at = max(at, :now) + (:capacity - ${AFTER(AVAIL)}) * 1000.0 / :rate,
  at = max(at, :now)
RETURNING tokens, taken
`

/** How often one handle drops the buckets that have refilled (a full bucket is as good as none). */
const PRUNE_EVERY_MS = 60_000

/**
 * The token buckets of every process using one SQLite database, in a small file of their own
 * beside it (`<database>.rate-limits`): a long import holds the database's write lock for
 * seconds, and a rate limit must never wait behind it. The file is WAL, not synced: bucket
 * state lost in a crash only refills buckets early. Each step is one `INSERT … ON CONFLICT DO
 * UPDATE … RETURNING` (a few µs); a step that finds the file locked by another process retries
 * asynchronously, never blocking the event loop, until `busyTimeoutMs`. Opened on first use.
 */
export class SqliteRateLimits implements RateLimitStore {
  readonly scope = 'machine'
  readonly path: string
  readonly #busyTimeoutMs: number
  #db: Database.Database | null = null
  #step: Statement | null = null
  #prunedAt = Number.NEGATIVE_INFINITY
  #closed = false

  constructor(options: SqliteRateLimitsOptions) {
    this.path = options.path
    this.#busyTimeoutMs = Math.max(0, options.busyTimeoutMs ?? 100)
  }

  take(name: string, policy: BucketPolicy, count: number, now: number): Promise<BucketStep> {
    return this.#run(name, policy, Math.max(0, Math.floor(count)), now)
  }

  giveBack(name: string, policy: BucketPolicy, count: number, now: number): Promise<BucketStep> {
    return this.#run(name, policy, -Math.max(0, count), now)
  }

  async close(): Promise<void> {
    this.#closed = true
    this.#db?.close()
    this.#db = null
    this.#step = null
  }

  #run(name: string, policy: BucketPolicy, count: number, now: number): Promise<BucketStep> {
    if (this.#closed) return Promise.reject(new Error('The rate-limit store is closed'))
    return withBusyRetry(this.#busyTimeoutMs, () => {
      const step = this.#statement()
      const row = step.get({ name, capacity: policy.capacity, rate: policy.rate, count, now }) as { tokens: number; taken: number }
      if (now - this.#prunedAt >= PRUNE_EVERY_MS) this.#prune(now)
      return { taken: row.taken, tokens: Math.max(0, row.tokens) }
    })
  }

  #statement(): Statement {
    if (this.#step !== null) return this.#step
    createPrivately(this.path)
    const db = new Database(this.path)
    try {
      // Hint: 0: a locked file is retried asynchronously (`withBusyRetry`), not waited for with the event loop blocked.
      db.pragma('busy_timeout = 0')
      db.pragma('journal_mode = WAL')
      db.pragma('synchronous = OFF')
      if ((db.pragma('user_version', { simple: true }) as number) < RATE_LIMITS_SCHEMA_VERSION) db.exec(SCHEMA)
      this.#step = db.prepare(STEP)
    } catch (error) {
      db.close()
      throw error
    }
    this.#db = db
    return this.#step
  }

  #prune(now: number): void {
    this.#prunedAt = now
    try {
      this.#db?.prepare('DELETE FROM buckets WHERE full_at <= ?').run(now)
    } catch {
      // Busy: another handle prunes, or this one next time.
    }
  }
}

/** Creates a missing file readable and writable by its owner only (it names keys and client addresses). */
function createPrivately(path: string): void {
  try {
    closeSync(openSync(path, 'wx', 0o600))
  } catch {
    // EEXIST is the usual case; anything else is reported by SQLite's open.
  }
}
