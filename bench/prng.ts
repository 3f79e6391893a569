/**
 * A small seeded pseudo-random generator (mulberry32): the benchmark's data set is the same
 * on every run, so runs can be compared.
 */
export class Prng {
  #state: number

  constructor(seed: number) {
    this.#state = seed >>> 0
  }

  /** A float in [0, 1). */
  next(): number {
    this.#state = (this.#state + 0x6d2b79f5) >>> 0
    let t = this.#state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296
  }

  /** An integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1))
  }

  /** `true` with probability `p`. */
  chance(p: number): boolean {
    return this.next() < p
  }

  /** One element of a non-empty list, uniformly. */
  pick<T>(list: readonly T[]): T {
    const value = list[Math.floor(this.next() * list.length)]
    if (value === undefined) throw new Error('pick from an empty list')
    return value
  }
}

/**
 * Draws ranks 0…n-1 with probability ∝ 1/(rank+1+offset)^s (Zipf; with an offset,
 * Zipf–Mandelbrot, flatter at the top), as words occur in real text: a few very common, a long
 * tail of rare ones.
 */
export class Zipf {
  readonly #cumulative: Float64Array

  constructor(n: number, s = 1, offset = 0) {
    this.#cumulative = new Float64Array(n)
    let sum = 0
    for (let i = 0; i < n; i++) {
      sum += 1 / Math.pow(i + 1 + offset, s)
      this.#cumulative[i] = sum
    }
    for (let i = 0; i < n; i++) this.#cumulative[i] = (this.#cumulative[i] ?? 0) / sum
  }

  /** A rank drawn with `prng`. */
  draw(prng: Prng): number {
    const x = prng.next()
    let lo = 0
    let hi = this.#cumulative.length - 1
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if ((this.#cumulative[mid] ?? 1) < x) lo = mid + 1
      else hi = mid
    }
    return lo
  }
}
