import type { BucketPolicy, BucketStep, RateLimitStore } from '@frontdesk/core'
import type { Sql } from './connection/sql.ts'
import { pruneBuckets, stepBucket } from './records/rate-limit-buckets.ts'

/** How often one process drops the buckets that have refilled. */
const PRUNE_EVERY_MS = 60_000

/**
 * The token buckets of every server process on one PostgreSQL database (`rate_limit_buckets`,
 * an UNLOGGED table): each step is one `INSERT … ON CONFLICT DO UPDATE … RETURNING` on the
 * store's pool, atomic by the row lock it takes. Owned and closed by its `PostgresStore`.
 */
export class PostgresRateLimits implements RateLimitStore {
  readonly scope = 'network'
  readonly #sql: Sql
  #prunedAt = Number.NEGATIVE_INFINITY

  constructor(sql: Sql) {
    this.#sql = sql
  }

  take(name: string, policy: BucketPolicy, count: number, now: number): Promise<BucketStep> {
    return this.#step(name, policy, Math.max(0, Math.floor(count)), now)
  }

  giveBack(name: string, policy: BucketPolicy, count: number, now: number): Promise<BucketStep> {
    return this.#step(name, policy, -Math.max(0, count), now)
  }

  /** Nothing of its own to release: the store's pool is closed with the store. */
  close(): Promise<void> {
    return Promise.resolve()
  }

  async #step(name: string, policy: BucketPolicy, count: number, now: number): Promise<BucketStep> {
    const step = await stepBucket(this.#sql, name, policy, count, now)
    if (now - this.#prunedAt >= PRUNE_EVERY_MS) {
      this.#prunedAt = now
      pruneBuckets(this.#sql, now).catch(() => undefined)
    }
    return step
  }
}
