/** Rows of the sketch: a key's estimate is the least of its four counters. */
const DEPTH = 4

/** The largest count a counter holds (TinyLFU's 4-bit counters: popularity, not totals). */
export const MAX_FREQUENCY = 15

/**
 * How often each key was seen lately, approximately: a count-min sketch (four rows of small
 * counters, a key's estimate the least of its own four), all counters halved every
 * `sampleSize` additions so that what was popular long ago fades — the frequency half of
 * TinyLFU (Einziger, Friedman and Manes), as Caffeine's `FrequencySketch`. Updates are
 * conservative (only the counters at the key's least are raised), so an estimate is never
 * below the key's true count since the last halving (up to `MAX_FREQUENCY`) and exceeds it
 * only where other keys share all four of its counters.
 */
export class FrequencySketch {
  readonly #counters: Uint8Array
  readonly #mask: number
  readonly #sampleSize: number
  #additions = 0

  /** `width` counters a row (a power of two); halved every `sampleSize` additions (default 8 × width). */
  constructor(width = 1 << 16, sampleSize = 8 * width) {
    if (!Number.isInteger(Math.log2(width))) throw new RangeError(`width must be a power of two, not ${width}`)
    this.#counters = new Uint8Array(DEPTH * width)
    this.#mask = width - 1
    this.#sampleSize = Math.max(1, sampleSize)
  }

  /** The estimated count of the key of `hash` (a 32-bit hash of it). */
  frequency(hash: number): number {
    let least = MAX_FREQUENCY
    for (let row = 0; row < DEPTH; row++) least = Math.min(least, this.#counters[this.#slot(hash, row)] ?? 0)
    return least
  }

  /** Counts one more sight of the key of `hash`; returns its estimate after it. */
  add(hash: number): number {
    const least = this.frequency(hash)
    if (least < MAX_FREQUENCY) {
      for (let row = 0; row < DEPTH; row++) {
        const slot = this.#slot(hash, row)
        if (this.#counters[slot] === least) this.#counters[slot] = least + 1
      }
    }
    if (++this.#additions >= this.#sampleSize) this.#halve()
    return Math.min(least + 1, MAX_FREQUENCY)
  }

  /** The counter of `hash` in `row`: the hash and the row's own constant through murmur3's finaliser. */
  #slot(hash: number, row: number): number {
    let h = hash ^ (ROW_SEEDS[row] ?? 0)
    h ^= h >>> 16
    h = Math.imul(h, 0x85ebca6b)
    h ^= h >>> 13
    h = Math.imul(h, 0xc2b2ae35)
    h ^= h >>> 16
    return row * (this.#mask + 1) + (h & this.#mask)
  }

  #halve(): void {
    const counters = this.#counters
    for (let i = 0; i < counters.length; i++) counters[i] = (counters[i] ?? 0) >>> 1
    this.#additions >>>= 1
  }
}

const ROW_SEEDS = [0x9e3779b9, 0x7f4a7c15, 0x3c6ef372, 0xdaa66d2b]
