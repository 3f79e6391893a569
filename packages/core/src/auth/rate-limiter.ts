import type { Clock } from '../app/clock.ts'
import type { BucketPolicy, BucketStep, RateLimitStore } from '../port/rate-limit-store.ts'
import { ProcessRateLimits } from './process-rate-limits.ts'

/** Default sustained rate per key, in requests per second (README "Security"). */
export const DEFAULT_RATE_LIMIT = 100

/**
 * The state of one bucket after a request, in the terms of the IETF RateLimit header fields
 * (draft-ietf-httpapi-ratelimit-headers-06, the last draft with separate fields, which
 * README "Security" names). A token bucket of `capacity` tokens refilling at `rate` per second is
 * described as the quota policy "`capacity` requests per `window` seconds" (`window` =
 * capacity / rate): a client that keeps to it is never refused. The three fields always agree:
 * `remaining` ≤ `limit`, and on a refusal `retryAfter` equals `reset`.
 */
export interface RateLimitState {
  /** Whether the request may proceed. */
  allowed: boolean
  /** The quota: the bucket's capacity, the most requests that can come at once (`RateLimit-Limit`). */
  limit: number
  /** Whole requests left now, from 0 to `limit` (`RateLimit-Remaining`). */
  remaining: number
  /** Whole seconds until `remaining` is back to `limit` (`RateLimit-Reset`); 0 when it is. */
  reset: number
  /** The policy's window in seconds: `limit` requests per `window` seconds (`RateLimit-Policy: limit;w=window`). */
  window: number
  /** When refused: whole seconds to wait (`Retry-After`), the same moment as `reset`; else 0. */
  retryAfter: number
}

/** Options of a `RateLimiter`. */
export interface RateLimiterOptions {
  /** Bucket size as a multiple of the rate. Default 2 (100 req/s → burst 200). */
  burstFactor?: number
  /** Where the buckets live. Default: this process's memory (`ProcessRateLimits`). */
  store?: RateLimitStore
  /** Names this process keeps lease state for before idle ones are dropped. Default 10 000. */
  maxBuckets?: number
  /**
   * With a shared store: how long (ms) leased tokens may stay unused before they go back to the
   * shared bucket (see `RateLimiter`). Also what a process that dies holding a lease costs its
   * key at most. Default 250.
   */
  leaseMs?: number
  /** With a shared store: how long (ms) a step of the store may take before this process decides alone. Default 500. */
  stepTimeoutMs?: number
  /** Called when the shared store fails (then the process limits alone for a second). Default: ignore. */
  onStoreError?: (error: unknown) => void
}

/** A shared store's lease is sized to cover this much of the recent demand (ms). */
const LEASE_HORIZON_MS = 50
/** A lease holds at most this share of the bucket, so that the tokens other processes hold stay few. */
const LEASE_SHARE = 1 / 16
/** After a failure of the shared store, each process limits alone this long before asking it again. */
const STORE_DOWN_MS = 1_000

const UNLIMITED: RateLimitState = { allowed: true, limit: 0, remaining: 0, reset: 0, window: 0, retryAfter: 0 }

/** What this process knows of one shared bucket, and the tokens it holds of it. */
interface Lease {
  policy: BucketPolicy
  /** Whole tokens taken from the shared bucket and not used yet. */
  tokens: number
  /** When the current lease was taken (clock ms). */
  leasedAt: number
  /** Requests allowed since `leasedAt`, and requests waiting for a step: the demand the next lease is sized by. */
  used: number
  waiting: number
  /** The shared bucket's tokens after this process's last step, and when that was. */
  shared: number
  syncedAt: number
  /** The shared bucket holds no whole token before this moment (from the last step's answer). */
  blockedUntil: number
  /** The step under way, which other requests of the name wait for. */
  pending: Promise<void> | null
}

/**
 * Token buckets, one per name (a key id, or a client address for failed authentications), kept
 * in a `RateLimitStore`. A rate of 0 means unlimited. A refused request takes nothing: a client
 * that keeps knocking while refused is back in as soon as its bucket has refilled.
 *
 * With the process's own store every request takes its token from the store. With a shared
 * store (a database every process uses) a request would cost a round trip, so each process
 * takes tokens in small **leases**, as API gateways sync "cluster" rate-limit counters: a
 * request uses a token this process already holds, else it asks the store for a lease sized to
 * the last 50 ms of this process's demand for the name (at most 1/16 of the bucket), and the
 * requests arriving meanwhile wait for that one step. Tokens are counted when leased, so all
 * processes together never get more than the bucket gives, plus the few tokens leased before a
 * window; unused ones go back after `leaseMs`, and a process that dies loses at most its lease.
 * When the store answers that it is empty, the process refuses that name without asking again
 * until the store's next token is due. Headers describe the shared bucket as last seen, refilled
 * since, plus the tokens this process holds.
 *
 * If the shared store fails or is slow (`stepTimeoutMs`), requests are not failed: for a second
 * each process limits alone, going on from the bucket as it last saw it (each process then
 * refills at the whole rate: the limit fails open to a per-process one rather than failing
 * every request).
 */
export class RateLimiter {
  readonly #clock: Clock
  readonly #burstFactor: number
  readonly #store: RateLimitStore
  readonly #shared: boolean
  readonly #maxBuckets: number
  readonly #leaseMs: number
  readonly #stepTimeoutMs: number
  readonly #onStoreError: (error: unknown) => void
  readonly #leases = new Map<string, Lease>()
  #downUntil = Number.NEGATIVE_INFINITY
  #sweeper: ReturnType<typeof setInterval> | null = null
  #closed = false

  constructor(clock: Clock, options: RateLimiterOptions = {}) {
    this.#clock = clock
    this.#burstFactor = options.burstFactor ?? 2
    this.#store = options.store ?? new ProcessRateLimits({ maxBuckets: options.maxBuckets ?? 10_000 })
    this.#shared = this.#store.scope !== 'process'
    this.#maxBuckets = options.maxBuckets ?? 10_000
    this.#leaseMs = Math.max(1, options.leaseMs ?? 250)
    this.#stepTimeoutMs = Math.max(1, options.stepTimeoutMs ?? 500)
    this.#onStoreError = options.onStoreError ?? (() => {})
  }

  /** Where the buckets live. */
  get store(): RateLimitStore {
    return this.#store
  }

  /** Takes one token from `name`'s bucket refilling at `rate` per second, if it has one. */
  async take(name: string, rate: number): Promise<RateLimitState> {
    if (rate <= 0) return UNLIMITED
    // Hint: the request's own moment: what it is told describes the bucket right after its take.
    const now = this.#clock.now()
    const lease = this.#lease(name, { rate, capacity: rate * this.#burstFactor })
    for (;;) {
      if (lease.tokens >= 1) {
        lease.tokens -= 1
        lease.used += 1
        return this.#estimate(lease, true, now)
      }
      if (this.#closed || this.#clock.now() < this.#downUntil) return this.#alone(lease, this.#clock.now())
      // Hint: ends the loop: every step either leaves tokens or sets `blockedUntil` past `now`.
      if (now < lease.blockedUntil) return this.#estimate(lease, false, now)
      if (lease.pending === null) lease.pending = this.#refill(name, lease, this.#clock.now())
      lease.waiting += 1
      try {
        await lease.pending
      } finally {
        lease.waiting -= 1
      }
    }
  }

  /**
   * Gives every unused leased token back to the shared store and stops; later calls limit from
   * this process's memory. Call it before the store is closed (a server stopping).
   */
  async close(): Promise<void> {
    if (this.#closed) return
    this.#closed = true
    if (this.#sweeper !== null) clearInterval(this.#sweeper)
    this.#sweeper = null
    await this.giveBackIdle(Number.POSITIVE_INFINITY)
  }

  /**
   * Gives back to the shared store the tokens of leases older than `leaseMs` (all of them with
   * `Infinity`), and forgets names with nothing leased once more than `maxBuckets` are known.
   * Runs by itself every `leaseMs / 2` while leases are held.
   */
  async giveBackIdle(olderThanMs = this.#leaseMs): Promise<void> {
    const now = this.#clock.now()
    const returns: Promise<unknown>[] = []
    for (const [name, lease] of this.#leases) {
      if (lease.pending !== null) continue
      if (lease.tokens >= 1 && (olderThanMs === Number.POSITIVE_INFINITY || now - lease.leasedAt >= olderThanMs)) {
        const count = lease.tokens
        lease.tokens = 0
        returns.push(this.#store.giveBack(name, lease.policy, count, now).then(
          (step) => this.#synced(lease, step, now),
          (error) => this.#onStoreError(error),
        ))
      }
    }
    if (this.#leases.size > this.#maxBuckets) this.#forgetIdle()
    await Promise.all(returns)
  }

  /** Forgets the names this process holds nothing of and waits for nothing on: the store knows their buckets. */
  #forgetIdle(): void {
    for (const [name, lease] of this.#leases) {
      if (lease.tokens < 1 && lease.pending === null && lease.waiting === 0) this.#leases.delete(name)
    }
  }

  #lease(name: string, policy: BucketPolicy): Lease {
    let lease = this.#leases.get(name)
    if (lease === undefined) {
      if (this.#leases.size >= this.#maxBuckets) this.#forgetIdle()
      lease = {
        policy,
        tokens: 0,
        leasedAt: Number.NEGATIVE_INFINITY,
        used: 0,
        waiting: 0,
        shared: policy.capacity,
        syncedAt: this.#clock.now(),
        blockedUntil: Number.NEGATIVE_INFINITY,
        pending: null,
      }
      this.#leases.set(name, lease)
      if (this.#shared && this.#sweeper === null && !this.#closed) {
        this.#sweeper = setInterval(() => void this.giveBackIdle().catch(() => undefined), Math.max(1, this.#leaseMs / 2))
        this.#sweeper.unref?.()
      }
    } else if (lease.policy.rate !== policy.rate || lease.policy.capacity !== policy.capacity) {
      // The key's limit changed: what was known of the bucket no longer holds.
      lease.policy = policy
      lease.blockedUntil = Number.NEGATIVE_INFINITY
    }
    return lease
  }

  /** One step of the store for `lease`: takes a new lease of tokens sized to the recent demand. */
  async #refill(name: string, lease: Lease, now: number): Promise<void> {
    const count = this.#leaseSize(lease, now)
    const step = this.#store.take(name, lease.policy, count, now)
    try {
      const answer = this.#shared ? await withTimeout(step, this.#stepTimeoutMs) : await step
      if (lease.tokens < 1) {
        lease.leasedAt = now
        lease.used = 0
      }
      lease.tokens += answer.taken
      this.#synced(lease, answer, now)
      // Hint: fewer than asked means the bucket is empty: no whole token before the next one
      // refills (at least 1 ms on: a bucket a rounding error short of a token must not be asked
      // again and again within the same moment).
      if (answer.taken < count) lease.blockedUntil = now + Math.max(1, ((1 - answer.tokens) * 1000) / lease.policy.rate)
    } catch (error) {
      this.#downUntil = this.#clock.now() + STORE_DOWN_MS
      this.#onStoreError(error)
      // Hint: a step that answers after its time still took its tokens: they join the lease (and go back if unused).
      step.then((late) => void (lease.tokens += late.taken), () => undefined)
    } finally {
      lease.pending = null
    }
  }

  /**
   * Tokens to take: from a process-wide store one per request waiting; from a shared one enough
   * for the last `LEASE_HORIZON_MS` of demand, and at least the requests waiting, within a
   * sixteenth of the bucket.
   */
  #leaseSize(lease: Lease, now: number): number {
    const waiting = lease.waiting + 1
    if (!this.#shared) return waiting
    const most = Math.max(1, Math.floor(lease.policy.capacity * LEASE_SHARE))
    const lasted = now - lease.leasedAt
    const recent = lasted < Number.POSITIVE_INFINITY ? Math.ceil(((lease.used + waiting) * LEASE_HORIZON_MS) / Math.max(1, lasted)) : 1
    return Math.min(most, Math.max(waiting, recent))
  }

  #synced(lease: Lease, step: BucketStep, now: number): void {
    if (now < lease.syncedAt) return
    lease.shared = step.tokens
    lease.syncedAt = now
  }

  /**
   * While the shared store is down (or this limiter closed): the bucket as this process last
   * saw it, refilled since, now kept here alone. It goes on from what it held rather than
   * starting full, so a slow step does not hand every process a fresh burst.
   */
  #alone(lease: Lease, now: number): RateLimitState {
    const { rate, capacity } = lease.policy
    const shared = Math.min(capacity, lease.shared + (Math.max(0, now - lease.syncedAt) * rate) / 1000)
    const allowed = shared >= 1
    lease.shared = allowed ? shared - 1 : shared
    lease.syncedAt = Math.max(lease.syncedAt, now)
    return this.#state(lease.policy, { taken: allowed ? 1 : 0, tokens: Math.min(capacity, lease.shared + lease.tokens) })
  }

  /** The headers' view: the shared bucket as last seen, refilled since, plus the tokens held here. */
  #estimate(lease: Lease, allowed: boolean, now: number): RateLimitState {
    const { rate, capacity } = lease.policy
    const shared = Math.min(capacity, lease.shared + (Math.max(0, now - lease.syncedAt) * rate) / 1000)
    return this.#state(lease.policy, { taken: allowed ? 1 : 0, tokens: Math.min(capacity, shared + lease.tokens) })
  }

  #state(policy: BucketPolicy, step: BucketStep): RateLimitState {
    const { rate, capacity } = policy
    const allowed = step.taken >= 1
    const reset = Math.ceil((capacity - step.tokens) / rate)
    return {
      allowed,
      limit: Math.floor(capacity),
      remaining: Math.floor(step.tokens),
      reset,
      window: Math.ceil(this.#burstFactor),
      retryAfter: allowed ? 0 : Math.max(1, reset),
    }
  }
}

/** `promise`, or a rejection after `ms`. */
function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`The rate-limit store did not answer within ${ms} ms`)), ms)
    promise.then(
      (value) => {
        clearTimeout(timer)
        resolve(value)
      },
      (error: unknown) => {
        clearTimeout(timer)
        reject(error)
      },
    )
  })
}
