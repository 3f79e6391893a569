import type { Clock } from '../app/clock.ts'

/** Default sustained rate per key, in requests per second (CONTRACT §3). */
export const DEFAULT_RATE_LIMIT = 100

/** The state of one bucket after a request, for the `RateLimit-*` headers. */
export interface RateLimitState {
  /** Whether the request may proceed. */
  allowed: boolean
  /** Requests per second this bucket refills at (`RateLimit-Limit`). */
  limit: number
  /** Whole tokens left (`RateLimit-Remaining`). */
  remaining: number
  /** Seconds until the bucket is full again (`RateLimit-Reset`). */
  reset: number
  /** When refused: whole seconds until one request is allowed (`Retry-After`). */
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

/**
 * Token buckets, one per name (a key id, or a client address for failed authentications),
 * held in this process. A rate of 0 means unlimited.
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

  /** Takes one token from `name`'s bucket refilling at `rate` per second. */
  take(name: string, rate: number): RateLimitState {
    if (rate <= 0) return { allowed: true, limit: 0, remaining: 0, reset: 0, retryAfter: 0 }
    const now = this.#clock.now()
    const capacity = rate * this.#burstFactor
    const bucket = this.#refill(name, rate, capacity, now)
    const allowed = bucket.tokens >= 1
    if (allowed) bucket.tokens -= 1
    return {
      allowed,
      limit: rate,
      remaining: Math.floor(bucket.tokens),
      reset: Math.ceil((capacity - bucket.tokens) / rate),
      retryAfter: allowed ? 0 : Math.max(1, Math.ceil((1 - bucket.tokens) / rate)),
    }
  }

  /** Whether `name` has a token left at `rate`, without taking one. */
  peek(name: string, rate: number): boolean {
    if (rate <= 0) return true
    const now = this.#clock.now()
    return this.#refill(name, rate, rate * this.#burstFactor, now).tokens >= 1
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
