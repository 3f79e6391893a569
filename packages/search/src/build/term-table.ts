/**
 * Term ids by term for a bulk build (`RangeIndexer`), looked up by the term's characters where
 * they lie in the analysed text (`idOfSlice`), so that a term seen before costs no new string:
 * an open-addressing table of hashes and ids in typed arrays, each hit checked character by
 * character against the term itself. A `Map` keyed by a slice of the text made a string per
 * word and hashed it (a third of an import's indexing worker, where the import's own thread
 * competes for the caches). Terms are numbered 0, 1, 2… in the order they are first looked up.
 */
export class TermTable {
  /** Terms by id. */
  readonly terms: string[] = []
  // 2^(32 - shift) slots; id -1 = empty.
  #hashes = new Int32Array(1 << 12)
  #ids = new Int32Array(1 << 12).fill(-1)
  #shift = 32 - 12
  readonly #made: (id: number, term: string) => void

  /** `made` is told of each new term and its id (to number the caller's own per-term data). */
  constructor(made: (id: number, term: string) => void) {
    this.#made = made
  }

  /** The id of `text.slice(start, end)`, made when new. */
  idOfSlice(text: string, start: number, end: number): number {
    return this.idOfHashedSlice(text, start, end, termHash(text, start, end))
  }

  /** `idOfSlice` given the slice's `termHash` (a scan of the text can work it out as it goes). */
  idOfHashedSlice(text: string, start: number, end: number, hash: number): number {
    const ids = this.#ids
    const hashes = this.#hashes
    const mask = ids.length - 1
    const length = end - start
    for (let slot = Math.imul(hash, 0x9e3779b1) >>> this.#shift; ; slot = (slot + 1) & mask) {
      const id = ids[slot] ?? -1
      if (id === -1) return this.#add(slot, hash, text.slice(start, end))
      if (hashes[slot] !== hash) continue
      const term = this.terms[id] ?? ''
      if (term.length !== length) continue
      let same = true
      for (let k = 0; k < length; k++) {
        if (term.charCodeAt(k) !== text.charCodeAt(start + k)) {
          same = false
          break
        }
      }
      if (same) return id
    }
  }

  /** The id of `term`, made when new. */
  idOf(term: string): number {
    return this.idOfSlice(term, 0, term.length)
  }

  #add(slot: number, hash: number, term: string): number {
    const id = this.terms.length
    this.terms.push(term)
    this.#hashes[slot] = hash
    this.#ids[slot] = id
    // Hint: told before the table may grow, so that the caller's arrays are ready for `id`.
    this.#made(id, term)
    if (this.terms.length * 2 > this.#ids.length) this.#grow()
    return id
  }

  #grow(): void {
    const hashes = this.#hashes
    const ids = this.#ids
    this.#hashes = new Int32Array(ids.length * 2)
    this.#ids = new Int32Array(ids.length * 2).fill(-1)
    this.#shift--
    const mask = this.#ids.length - 1
    for (let i = 0; i < ids.length; i++) {
      const id = ids[i] ?? -1
      if (id === -1) continue
      const hash = hashes[i] ?? 0
      let slot = Math.imul(hash, 0x9e3779b1) >>> this.#shift
      while (this.#ids[slot] !== -1) slot = (slot + 1) & mask
      this.#hashes[slot] = hash
      this.#ids[slot] = id
    }
  }
}

/** The hash `TermTable` files `text.slice(start, end)` under: `termHashStep` over its code units from `TERM_HASH_SEED` (FNV-1a). */
export function termHash(text: string, start: number, end: number): number {
  let hash = TERM_HASH_SEED
  for (let i = start; i < end; i++) hash = termHashStep(hash, text.charCodeAt(i))
  return hash
}

export const TERM_HASH_SEED = 0x811c9dc5 | 0

/** `termHash` of a string one code unit longer. */
export function termHashStep(hash: number, code: number): number {
  return Math.imul(hash ^ code, 0x01000193)
}
