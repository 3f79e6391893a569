/**
 * The first `k` of a stream of items in `compare` order, without sorting them all: a bounded
 * max-heap (the worst kept item on top) of at most `k` items, O(n log k). Search pages need
 * `from + size` items (at most 10,000) of up to every item of the tenant.
 */
export class TopHits<T> {
  readonly #k: number
  readonly #compare: (a: T, b: T) => number
  readonly #heap: T[] = []

  constructor(k: number, compare: (a: T, b: T) => number) {
    this.#k = k
    this.#compare = compare
  }

  /** The worst item kept when `k` are kept (a candidate must beat it), else `undefined`. */
  get threshold(): T | undefined {
    return this.#heap.length === this.#k ? this.#heap[0] : undefined
  }

  /** Offers an item. */
  push(item: T): void {
    const heap = this.#heap
    if (this.#k <= 0) return
    if (heap.length < this.#k) {
      heap.push(item)
      this.#up(heap.length - 1)
      return
    }
    const top = heap[0]
    if (top === undefined || this.#compare(item, top) >= 0) return
    heap[0] = item
    this.#down(0)
  }

  /** The kept items, best first. */
  sorted(): T[] {
    return [...this.#heap].sort(this.#compare)
  }

  #up(at: number): void {
    const heap = this.#heap
    let i = at
    while (i > 0) {
      const parent = (i - 1) >> 1
      const a = heap[i]
      const b = heap[parent]
      if (a === undefined || b === undefined || this.#compare(a, b) <= 0) return
      heap[i] = b
      heap[parent] = a
      i = parent
    }
  }

  #down(at: number): void {
    const heap = this.#heap
    let i = at
    for (;;) {
      const item = heap[i]
      if (item === undefined) return
      let worst = i
      let worstItem = item
      for (const child of [2 * i + 1, 2 * i + 2]) {
        const candidate = heap[child]
        if (candidate !== undefined && this.#compare(candidate, worstItem) > 0) {
          worst = child
          worstItem = candidate
        }
      }
      if (worst === i) return
      heap[worst] = item
      heap[i] = worstItem
      i = worst
    }
  }
}
