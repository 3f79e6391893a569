import type { BucketPolicy, BucketStep, RateLimitStore } from '../port/rate-limit-store.ts'

/** A token bucket's state: its tokens as of `at` (clock ms). */
export interface BucketState {
  tokens: number
  at: number
}

/**
 * The bucket after refilling it from `state` (`null`: never seen, so full) up to `now`, at
 * `policy`'s rate and never past its capacity. Time going backwards (a caller whose clock is
 * behind) refills nothing and keeps the later time: skewed clocks never mint tokens. The one
 * rule every `RateLimitStore` applies, here as a function; the SQL stores say the same in SQL.
 */
export function refilled(state: BucketState | null, policy: BucketPolicy, now: number): BucketState {
  if (state === null) return { tokens: policy.capacity, at: now }
  const elapsed = Math.max(0, now - state.at)
  return { tokens: Math.min(policy.capacity, state.tokens + (elapsed * policy.rate) / 1000), at: Math.max(state.at, now) }
}

/** Options of `ProcessRateLimits`. */
export interface ProcessRateLimitsOptions {
  /** Buckets kept before full ones (which are as good as forgotten) are dropped. Default 10 000. */
  maxBuckets?: number
}

/**
 * Token buckets held in this process's memory: the `RateLimitStore` of a single process (and of
 * embedders and tests). Several processes each holding one each enforce the limits alone, so a
 * key gets its rate once per process; use the store's own (`Store.rateLimits`) to share them.
 */
export class ProcessRateLimits implements RateLimitStore {
  readonly scope = 'process'
  readonly #maxBuckets: number
  readonly #buckets = new Map<string, BucketState & { full: number }>()

  constructor(options: ProcessRateLimitsOptions = {}) {
    this.#maxBuckets = Math.max(1, options.maxBuckets ?? 10_000)
  }

  take(name: string, policy: BucketPolicy, count: number, now: number): Promise<BucketStep> {
    return Promise.resolve(this.step(name, policy, count, now))
  }

  giveBack(name: string, policy: BucketPolicy, count: number, now: number): Promise<BucketStep> {
    return Promise.resolve(this.step(name, policy, -count, now))
  }

  /** `take` (`count` ≥ 0) or `giveBack` (`count` < 0: that many tokens back), synchronously. */
  step(name: string, policy: BucketPolicy, count: number, now: number): BucketStep {
    const known = this.#buckets.get(name)
    if (known === undefined && this.#buckets.size >= this.#maxBuckets) this.#sweep(now)
    const bucket = refilled(known ?? null, policy, now)
    const taken = count >= 0 ? Math.min(Math.floor(count), Math.floor(bucket.tokens)) : 0
    const tokens = count >= 0 ? bucket.tokens - taken : Math.min(policy.capacity, bucket.tokens - count)
    // Hint: when the bucket will be full again, and so as good as forgotten (see `#sweep`).
    const full = bucket.at + ((policy.capacity - tokens) * 1000) / policy.rate
    if (known === undefined) this.#buckets.set(name, { tokens, at: bucket.at, full })
    else {
      known.tokens = tokens
      known.at = bucket.at
      known.full = full
    }
    return { taken, tokens }
  }

  close(): Promise<void> {
    this.#buckets.clear()
    return Promise.resolve()
  }

  /** Drops buckets that have refilled completely: forgetting them changes nothing. */
  #sweep(now: number): void {
    for (const [name, bucket] of this.#buckets) {
      if (bucket.full <= now) this.#buckets.delete(name)
    }
    // Still full of busy buckets: drop the oldest rather than grow without bound.
    while (this.#buckets.size >= this.#maxBuckets) {
      const oldest = this.#buckets.keys().next().value
      if (oldest === undefined) break
      this.#buckets.delete(oldest)
    }
  }
}
