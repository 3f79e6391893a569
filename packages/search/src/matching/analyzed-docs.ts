import { forEachIndexTerm } from '@frontdesk/core'
import { FIELDS } from './inverted-index.ts'

/**
 * Documents' indexed terms as `InvertedIndex.addDocument` takes them from their texts, made
 * once (by the import that writes a snapshot's delta) and indexed later without the analyzer
 * (`InvertedIndex.addAnalyzed`, at a start): the analysis is most of what indexing an item
 * costs (~0.25 ms of ~0.3 for the bench's articles).
 */
export interface AnalyzedDocs {
  /** The terms, numbered by first appearance. */
  terms: string[]
  /** Numbers of the CJK terms. */
  cjk: number[]
  /**
   * Document after document, for each of `FIELDS`: its length in terms (repeats counted), the
   * number n of its distinct terms, then n pairs (term number, frequency) in order of first
   * appearance (the order in which `addDocument` meets them, so terms new to an index get the
   * same ids either way).
   */
  numbers: Uint32Array
}

/** Reads `AnalyzedDocs` into an index (`InvertedIndex.addAnalyzed`), a document at a time. */
export class AnalyzedReader {
  readonly docs: AnalyzedDocs
  /** The index's term id of each term number, -1 until the term is first met (then looked up or made, as `addDocument` would). */
  readonly ids: Int32Array
  /** By term number: 1 for a CJK term. */
  readonly cjk: Uint8Array
  /** Where the next document starts in `docs.numbers`. */
  at = 0

  constructor(docs: AnalyzedDocs) {
    this.docs = docs
    this.ids = new Int32Array(docs.terms.length).fill(-1)
    this.cjk = new Uint8Array(docs.terms.length)
    for (const number of docs.cjk) this.cjk[number] = 1
  }

  /** Whether every document was read. */
  get done(): boolean {
    return this.at === this.docs.numbers.length
  }
}

/** Makes `AnalyzedDocs`, a document at a time. */
export class AnalyzedDocsWriter {
  readonly #terms: string[] = []
  readonly #cjk: number[] = []
  readonly #numbersOf = new Map<string, number>()
  #numbers = new Uint32Array(4096)
  #length = 0
  #count = 0
  // Scratch of `add`: frequency by term number.
  #tf = new Int32Array(1024)
  #fieldTerms: number[] = []
  /** The documents `copy` last copied from, their CJK term numbers, and this writer's number of each of their term numbers (-1 until met). */
  #copied: { docs: AnalyzedDocs; cjk: Set<number>; numbers: Int32Array } | null = null

  /** Documents added. */
  get count(): number {
    return this.#count
  }

  /** Adds a document with the text of each field, in `FIELDS` order (as `addDocument`). */
  add(texts: readonly string[]): void {
    this.#count++
    for (let f = 0; f < FIELDS.length; f++) {
      const seen = this.#fieldTerms
      seen.length = 0
      let length = 0
      const term = (text: string, cjk: boolean) => {
        length++
        const number = this.#numberOf(text, cjk)
        if ((this.#tf[number] ?? 0) === 0) seen.push(number)
        this.#tf[number] = (this.#tf[number] ?? 0) + 1
      }
      forEachIndexTerm(texts[f] ?? '', term, (first, second) => term(String.fromCharCode(first, second), true))
      this.#reserve(2 + 2 * seen.length)
      this.#numbers[this.#length++] = length
      this.#numbers[this.#length++] = seen.length
      for (const number of seen) {
        this.#numbers[this.#length++] = number
        this.#numbers[this.#length++] = this.#tf[number] ?? 0
        this.#tf[number] = 0
      }
    }
  }

  /** Adds the document of `from` starting at `numbers[at]` as it is; the offset of the one after it. */
  copy(from: AnalyzedDocs, at: number): number {
    this.#count++
    const numbers = from.numbers
    if (this.#copied?.docs !== from) {
      this.#copied = { docs: from, cjk: new Set(from.cjk), numbers: new Int32Array(from.terms.length).fill(-1) }
      // Hint: room for the rest of `from` at once: a delta rewritten copies most of the old one, and growing by doubling copied it again and again.
      this.#reserve(numbers.length - at)
    }
    const { cjk, numbers: renumbered } = this.#copied
    for (let f = 0; f < FIELDS.length; f++) {
      const n = numbers[at + 1] ?? 0
      this.#reserve(2 + 2 * n)
      this.#numbers[this.#length++] = numbers[at] ?? 0
      this.#numbers[this.#length++] = n
      at += 2
      for (let i = 0; i < n; i++, at += 2) {
        const number = numbers[at] ?? 0
        // Hint: a term's number here is looked up by its string once per copied-from term, not once per posting.
        let mine = renumbered[number] ?? -1
        if (mine < 0) {
          mine = this.#numberOf(from.terms[number] ?? '', cjk.has(number))
          renumbered[number] = mine
        }
        this.#numbers[this.#length++] = mine
        this.#numbers[this.#length++] = numbers[at + 1] ?? 0
      }
    }
    return at
  }

  /** What was added. */
  finish(): AnalyzedDocs {
    // Hint: a view, not a copy: a copy would hold both at once, and the unused end is at most what the last growth added.
    return { terms: this.#terms, cjk: this.#cjk, numbers: this.#numbers.subarray(0, this.#length) }
  }

  #numberOf(term: string, cjk: boolean): number {
    let number = this.#numbersOf.get(term)
    if (number !== undefined) return number
    number = this.#terms.length
    this.#terms.push(term)
    this.#numbersOf.set(term, number)
    if (cjk) this.#cjk.push(number)
    if (number >= this.#tf.length) {
      const bigger = new Int32Array(this.#tf.length * 2)
      bigger.set(this.#tf)
      this.#tf = bigger
    }
    return number
  }

  #reserve(more: number): void {
    if (this.#length + more <= this.#numbers.length) return
    const bigger = new Uint32Array(Math.max(this.#numbers.length * 2, this.#length + more))
    bigger.set(this.#numbers.subarray(0, this.#length))
    this.#numbers = bigger
  }
}

/** Where each of the `count` documents of `docs` starts in `docs.numbers`. */
export function analyzedDocStarts(docs: AnalyzedDocs, count: number): number[] {
  const starts: number[] = []
  let at = 0
  for (let doc = 0; doc < count; doc++) {
    starts.push(at)
    for (let f = 0; f < FIELDS.length; f++) at += 2 + 2 * (docs.numbers[at + 1] ?? 0)
  }
  return starts
}

/**
 * Whether `docs.numbers` holds exactly `count` documents, every term number in range and every
 * field's frequencies adding up to its length: what a damaged or cut file would break.
 */
export function analyzedDocsValid(docs: AnalyzedDocs, count: number): boolean {
  const { numbers, terms } = docs
  let at = 0
  for (let doc = 0; doc < count; doc++) {
    for (let f = 0; f < FIELDS.length; f++) {
      if (at + 2 > numbers.length) return false
      const length = numbers[at] ?? 0
      const n = numbers[at + 1] ?? 0
      at += 2
      if (at + 2 * n > numbers.length) return false
      let sum = 0
      for (let i = 0; i < n; i++, at += 2) {
        const frequency = numbers[at + 1] ?? 0
        if ((numbers[at] ?? 0) >= terms.length || frequency === 0) return false
        sum += frequency
      }
      if (sum !== length) return false
    }
  }
  return at === numbers.length && docs.cjk.every((number) => Number.isInteger(number) && number >= 0 && number < terms.length)
}
