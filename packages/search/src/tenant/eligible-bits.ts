/** At most this many eligibility bit sets are kept (one per set of searchable categories: all, or one category). */
const MAX_ELIGIBILITY_SETS = 32

/**
 * The documents a query may return — visible at its time, in a category it may search — as
 * a bit set (see `Eligibility` of the term matcher), made from two typed arrays by document
 * number: core's `visibleSince` of each item (NaN: never, or dead) and its category number.
 * A set is kept (with `memo`) while it holds: for one version of the index, from the time it
 * was made until the next item becomes visible (time only ever makes items visible).
 */
export class EligibleBits {
  readonly #memo: boolean
  readonly #sets = new Map<string, { bits: Uint32Array; version: number; from: number; until: number }>()

  constructor(memo: boolean) {
    this.#memo = memo
  }

  /**
   * The bit set of the `count` first documents for categories `allowed` (by category number,
   * 1: searchable) at `now`, index `version`.
   */
  get(visibleFrom: Float64Array, categoryOf: Uint32Array, count: number, allowed: Uint8Array, now: number, version: number): Uint32Array {
    const key = allowed.join('')
    const kept = this.#memo ? this.#sets.get(key) : undefined
    if (kept !== undefined && kept.version === version && kept.from <= now && now < kept.until) return kept.bits
    const bits = new Uint32Array((count + 31) >>> 5)
    let until = Number.POSITIVE_INFINITY
    for (let doc = 0; doc < count; doc++) {
      const from = visibleFrom[doc] ?? Number.NaN
      // Core's `isVisibleAt(from, allowed, now)`, by category number; NaN (never visible, dead) fails both comparisons.
      if (from <= now) {
        if (allowed[categoryOf[doc] ?? 0] === 1) bits[doc >>> 5] = (bits[doc >>> 5] ?? 0) | (1 << (doc & 31))
      } else if (from < until) until = from
    }
    if (!this.#memo) return bits
    if (this.#sets.size >= MAX_ELIGIBILITY_SETS) this.#sets.clear()
    this.#sets.set(key, { bits, version, from: now, until })
    return bits
  }
}
