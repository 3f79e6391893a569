/**
 * The first `k` documents of a stream in the order of a numeric key (smallest first), ties
 * broken by `tie(a, b)` (negative: `a` first), without sorting them all: a bounded max-heap of
 * typed arrays, the worst kept document on top. A sorted search (by date or a custom field)
 * offers every match; most are turned away by one comparison of numbers, and no object is made
 * per match.
 */
export class KeyedTop {
  readonly #k: number
  readonly #tie: (a: number, b: number) => number
  readonly #keys: Float64Array
  readonly #docs: Int32Array
  readonly #scores: Float64Array
  #size = 0

  constructor(k: number, tie: (a: number, b: number) => number) {
    this.#k = Math.max(0, k)
    this.#tie = tie
    this.#keys = new Float64Array(this.#k)
    this.#docs = new Int32Array(this.#k)
    this.#scores = new Float64Array(this.#k)
  }

  /** Offers document `doc` with its sort key and its score (handed back with it). */
  offer(doc: number, key: number, score: number): void {
    const k = this.#k
    if (k === 0) return
    const keys = this.#keys
    const docs = this.#docs
    if (this.#size < k) {
      let i = this.#size++
      while (i > 0) {
        const parent = (i - 1) >> 1
        if (!this.#worse(key, doc, keys[parent] ?? 0, docs[parent] ?? 0)) break
        this.#move(parent, i)
        i = parent
      }
      this.#put(i, key, doc, score)
      return
    }
    if (!this.#worse(keys[0] ?? 0, docs[0] ?? 0, key, doc)) return
    // Replaces the worst, then sifts it down.
    let i = 0
    for (;;) {
      const left = 2 * i + 1
      if (left >= k) break
      const right = left + 1
      const child = right < k && this.#worse(keys[right] ?? 0, docs[right] ?? 0, keys[left] ?? 0, docs[left] ?? 0) ? right : left
      if (!this.#worse(keys[child] ?? 0, docs[child] ?? 0, key, doc)) break
      this.#move(child, i)
      i = child
    }
    this.#put(i, key, doc, score)
  }

  /** The kept documents with their scores, first first. */
  sorted(): { doc: number; score: number }[] {
    const order = Array.from({ length: this.#size }, (_, i) => i)
    order.sort((a, b) => (this.#worse(this.#keys[a] ?? 0, this.#docs[a] ?? 0, this.#keys[b] ?? 0, this.#docs[b] ?? 0) ? 1 : -1))
    return order.map((i) => ({ doc: this.#docs[i] ?? 0, score: this.#scores[i] ?? 0 }))
  }

  /** Whether (key `a`, document `x`) comes after (key `b`, document `y`). */
  #worse(a: number, x: number, b: number, y: number): boolean {
    return a > b || (a === b && this.#tie(x, y) > 0)
  }

  #move(from: number, to: number): void {
    this.#keys[to] = this.#keys[from] ?? 0
    this.#docs[to] = this.#docs[from] ?? 0
    this.#scores[to] = this.#scores[from] ?? 0
  }

  #put(at: number, key: number, doc: number, score: number): void {
    this.#keys[at] = key
    this.#docs[at] = doc
    this.#scores[at] = score
  }
}
