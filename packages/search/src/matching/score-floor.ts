/**
 * The lowest score that may still be among the `k` best of a stream of scores: a min-heap of
 * the `k` best seen so far (−∞ until `k` were seen). A matcher streaming thousands of matches
 * keeps only those at or above it, so that the page's ranking (which breaks ties newest first)
 * compares a few dozen candidates instead of every match.
 */
export class ScoreFloor {
  readonly #heap: Float64Array
  #size = 0

  constructor(k: number) {
    this.#heap = new Float64Array(Math.max(1, k))
  }

  /** Offers a score at or above the current floor; returns the new floor. */
  offer(score: number): number {
    const heap = this.#heap
    if (this.#size < heap.length) {
      let i = this.#size++
      while (i > 0) {
        const parent = (i - 1) >> 1
        const above = heap[parent] ?? 0
        if (above <= score) break
        heap[i] = above
        i = parent
      }
      heap[i] = score
      return this.#size === heap.length ? (heap[0] ?? 0) : Number.NEGATIVE_INFINITY
    }
    if (score <= (heap[0] ?? 0)) return heap[0] ?? 0
    // Replace the smallest, then sift it down.
    let i = 0
    const size = this.#size
    for (;;) {
      const left = 2 * i + 1
      if (left >= size) break
      const right = left + 1
      const child = right < size && (heap[right] ?? 0) < (heap[left] ?? 0) ? right : left
      const below = heap[child] ?? 0
      if (below >= score) break
      heap[i] = below
      i = child
    }
    heap[i] = score
    return heap[0] ?? 0
  }
}
