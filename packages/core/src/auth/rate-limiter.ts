import type { Clock } from '../app/clock.ts'

/** Default sustained rate per key, in requests per second (CONTRACT §3). */
export const DEFAULT_RATE_LIMIT = 100

/**
 * The state of one bucket after a request, in the terms of the IETF RateLimit header fields
 * (draft-ietf-httpapi-ratelimit-headers-06, the last draft with separate fields, which
 * CONTRACT §3 names). A token bucket of `capacity` tokens refilling at `rate` per second is
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
  /** Buckets kept before idle (full) ones are dropped. Default 10 000. */
  maxBuckets?: number
}

interface Bucket {
  tokens: number
  updatedAt: number
}

const UNLIMITED: RateLimitState = { allowed: true, limit: 0, remaining: 0, reset: 0, window: 0, retryAfter: 0 }

/**
 * Token buckets, one per name (a key id, or a client address for failed authentications),
 * held in this process. A rate of 0 means unlimited. A refused request takes nothing: a client
 * that keeps knocking while refused is back in as soon as its bucket has refilled.
 */
export class RateLimiter {
  readonly #clock: Clock
  readonly #burstFactor: number
  readonly #maxBuckets: number
  readonly #buckets = new Map<string, Bucket>()

  constructor(clock: Clock, options: RateLimiterOptions = {}) {
    this.#clock = clock
    this.#burstFactor = options.burstFactor ?? 2
    this.#maxBuckets = options.maxBuckets ?? 10_000
  }

  /** Takes one token from `name`'s bucket refilling at `rate` per second, if it has one. */
  take(name: string, rate: number): RateLimitState {
    if (rate <= 0) return UNLIMITED
    const capacity = rate * this.#burstFactor
    const bucket = this.#refill(name, rate, capacity, this.#clock.now())
    const allowed = bucket.tokens >= 1
    if (allowed) bucket.tokens -= 1
    const reset = Math.ceil((capacity - bucket.tokens) / rate)
    return {
      allowed,
      limit: Math.floor(capacity),
      remaining: Math.floor(bucket.tokens),
      reset,
      window: Math.ceil(this.#burstFactor),
      retryAfter: allowed ? 0 : Math.max(1, reset),
    }
  }

  #refill(name: string, rate: number, capacity: number, now: number): Bucket {
    let bucket = this.#buckets.get(name)
    if (bucket === undefined) {
      if (this.#buckets.size >= this.#maxBuckets) this.#sweep(rate, capacity, now)
      bucket = { tokens: capacity, updatedAt: now }
      this.#buckets.set(name, bucket)
      return bucket
    }
    const elapsed = Math.max(0, now - bucket.updatedAt) / 1000
    bucket.tokens = Math.min(capacity, bucket.tokens + elapsed * rate)
    bucket.updatedAt = now
    return bucket
  }

  /** Drops buckets that have refilled completely: forgetting them changes nothing. */
  #sweep(rate: number, capacity: number, now: number): void {
    for (const [name, bucket] of this.#buckets) {
      if (bucket.tokens + ((now - bucket.updatedAt) / 1000) * rate >= capacity) this.#buckets.delete(name)
    }
    // Still full of busy buckets: drop the oldest rather than grow without bound.
    while (this.#buckets.size >= this.#maxBuckets) {
      const oldest = this.#buckets.keys().next().value
      if (oldest === undefined) break
      this.#buckets.delete(oldest)
    }
  }
}
