/**
 * CJK bigram → term id, by number: an open-addressing table of `first << 16 | second` (never
 * 0: CJK code units are ≥ 0x3040), so looking up a bigram already seen makes no string and
 * hashes no string. Shared by the index (`InvertedIndex`) and the bulk build (`RangeIndexer`),
 * which must number terms alike.
 */
export class BigramIds {
  // 2^(32 - shift) slots; key 0 = empty.
  #keys = new Int32Array(1 << 12)
  #ids = new Int32Array(1 << 12)
  #shift = 32 - 12
  #count = 0
  readonly #termId: (gram: string) => number

  /** `termId` gives (making it when new) the term id of a bigram seen for the first time. */
  constructor(termId: (gram: string) => number) {
    this.#termId = termId
  }

  /** The term id of the bigram `String.fromCharCode(first, second)`. */
  idOf(first: number, second: number): number {
    const key = (first << 16) | second
    const keys = this.#keys
    const mask = keys.length - 1
    for (let slot = Math.imul(key, 0x9e3779b1) >>> this.#shift; ; slot = (slot + 1) & mask) {
      const found = keys[slot] ?? 0
      if (found === key) return this.#ids[slot] ?? 0
      if (found !== 0) continue
      const id = this.#termId(String.fromCharCode(first, second))
      keys[slot] = key
      this.#ids[slot] = id
      if (++this.#count * 2 > keys.length) this.#grow()
      return id
    }
  }

  #grow(): void {
    const keys = this.#keys
    const ids = this.#ids
    this.#keys = new Int32Array(keys.length * 2)
    this.#ids = new Int32Array(keys.length * 2)
    this.#shift--
    const mask = this.#keys.length - 1
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i] ?? 0
      if (key === 0) continue
      let slot = Math.imul(key, 0x9e3779b1) >>> this.#shift
      while (this.#keys[slot] !== 0) slot = (slot + 1) & mask
      this.#keys[slot] = key
      this.#ids[slot] = ids[i] ?? 0
    }
  }
}
