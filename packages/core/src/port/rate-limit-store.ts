/*
 * Where token buckets are kept: the state behind the per-key rate limit and the per-address
 * limit of failed authentications (README "Security"), shared by every process that uses the same
 * `RateLimitStore` (one database, say), so that a key limited to r requests/s gets r in all.
 *
 * Rules every implementation follows (the conformance suite `testRateLimitStore` in
 * `@frontdesk/core/testing` checks them):
 * - A bucket is named by its caller (`key:<id>`, `address:<ip>`) and shaped by the `policy` of
 *   each call: it holds up to `capacity` tokens and refills at `rate` tokens per second. A
 *   bucket never used, or forgotten, is full: a store may drop any bucket that has refilled.
 * - Each call is one atomic step, whatever other calls run at the same time on any handle of
 *   the same store (other processes included): first refill for the time since the bucket's
 *   last step (time is the caller's `now`, ms; a `now` earlier than the last step's refills
 *   nothing and does not move the bucket's time back), capped at `capacity`; then take or give.
 * - Tokens may be fractional; takes are whole tokens.
 */

/** The shape of a bucket, given with every call (a key's limit may change between calls). */
export interface BucketPolicy {
  /** Tokens added per second. > 0. */
  rate: number
  /** Most tokens the bucket holds. ≥ 1. */
  capacity: number
}

/** The outcome of one step on a bucket. */
export interface BucketStep {
  /** Whole tokens taken (from 0 to the count asked); for `giveBack`, 0. */
  taken: number
  /** Tokens in the bucket after the step, from 0 to `capacity` (fractional). */
  tokens: number
}

/** Token buckets behind the rate limits. */
export interface RateLimitStore {
  /**
   * Who shares these buckets: only this process (`process`), every process on this machine
   * using the same store (`machine`: a file), or every process anywhere using it (`network`:
   * a database server). A process-wide store is cheap to ask on every request; a shared one is
   * asked for small leases of tokens (see `RateLimiter`).
   */
  readonly scope: 'process' | 'machine' | 'network'
  /** Takes up to `count` whole tokens (as many as the bucket holds) from bucket `name` at `now`. */
  take(name: string, policy: BucketPolicy, count: number, now: number): Promise<BucketStep>
  /** Puts back `count` tokens taken earlier and not used (a lease given back), at `now`; never past `capacity`. */
  giveBack(name: string, policy: BucketPolicy, count: number, now: number): Promise<BucketStep>
  /** Releases the store's resources (a store handed out by a `Store` is closed with it). */
  close(): Promise<void>
}
