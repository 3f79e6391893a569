import type { SearchDocument } from '@frontdesk/core'
import type { DocsByNumber } from './doc-table.ts'

/**
 * `published_at` as a number in the order core sorts the strings (`null`, sorted as `''`,
 * first): the time in ms when the string is the canonical 24-character ISO form of it (whose
 * string order is its time order), else NaN.
 */
export function publishedKey(publishedAt: string | null): number {
  if (publishedAt === null) return Number.NEGATIVE_INFINITY
  // Hint: the canonical form read digit by digit: parsing it and printing it again (below) cost ~2 µs an item, paid for every item at an index's first search.
  const time = canonicalIsoTime(publishedAt)
  return time === undefined ? slowPublishedKey(publishedAt) : time
}

/** `publishedKey` of a date that is not `null` by its definition: parsed, then printed again to compare. */
export function slowPublishedKey(publishedAt: string): number {
  const time = Date.parse(publishedAt)
  if (publishedAt.length !== 24 || Number.isNaN(time) || new Date(time).toISOString() !== publishedAt) return Number.NaN
  return time
}

/** Days in each month of a common year. */
const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]

/**
 * The time of `text` when it is a canonical `toISOString()` form `YYYY-MM-DDTHH:mm:ss.sssZ`
 * of a year from 100 on (`Date.UTC` reads 0–99 as 1900–1999); else `undefined`: a key
 * `slowPublishedKey` decides (NaN for every other form).
 */
function canonicalIsoTime(text: string): number | undefined {
  if (text.length !== 24 || text.charCodeAt(4) !== 45 || text.charCodeAt(7) !== 45 || text.charCodeAt(10) !== 84 || text.charCodeAt(13) !== 58 || text.charCodeAt(16) !== 58 || text.charCodeAt(19) !== 46 || text.charCodeAt(23) !== 90) return undefined
  const year = digits(text, 0, 4)
  const month = digits(text, 5, 2)
  const day = digits(text, 8, 2)
  const hour = digits(text, 11, 2)
  const minute = digits(text, 14, 2)
  const second = digits(text, 17, 2)
  const ms = digits(text, 20, 3)
  if (year < 100 || month < 1 || month > 12 || day < 1 || hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 59 || ms < 0) return undefined
  const leap = month === 2 && year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0)
  if (day > (MONTH_DAYS[month - 1] ?? 0) + (leap ? 1 : 0)) return undefined
  return Date.UTC(year, month - 1, day, hour, minute, second, ms)
}

/** The number written by `count` decimal digits from `at`, −1 when one is not a digit. */
function digits(text: string, at: number, count: number): number {
  let value = 0
  for (let i = at; i < at + count; i++) {
    const digit = text.charCodeAt(i) - 48
    if (digit < 0 || digit > 9) return -1
    value = value * 10 + digit
  }
  return value
}

/**
 * Each document's `publishedKey`, by document number, for sorts by publication date: a
 * typed array read per match instead of each match's object and a string comparison. Made
 * on the first such sort (a build or a restore does not pay for it), kept up to date as
 * documents are added and removed, moved by `renumber` (a compaction), or restored from a
 * snapshot's column.
 */
export class PublishedKeys {
  #keys: Float64Array | null = null
  /** Live documents whose date has no key (some other form): a sort then compares the items. */
  #unkeyed = 0

  /** The keys of `docs` (by number; `undefined`: dead), made if need be; `null` while a live document has no key. */
  keys(docs: DocsByNumber): Float64Array | null {
    if (this.#keys === null) {
      this.#keys = new Float64Array(Math.max(1024, docs.length))
      for (let number = 0; number < docs.length; number++) {
        const doc = docs.at(number)
        if (doc !== undefined) this.#set(number, doc)
      }
    }
    return this.#unkeyed === 0 ? this.#keys : null
  }

  /** Records a newly numbered document (once the keys exist). */
  add(number: number, doc: SearchDocument): void {
    if (this.#keys === null) return
    if (number >= this.#keys.length) {
      const grown = new Float64Array(Math.max(number + 1, this.#keys.length * 2))
      grown.set(this.#keys)
      this.#keys = grown
    }
    this.#set(number, doc)
  }

  /** Forgets a document that died. */
  remove(number: number): void {
    if (this.#keys !== null && Number.isNaN(this.#keys[number] ?? 0)) this.#unkeyed--
  }

  /** Takes the keys of the first `count` documents as a snapshot holds them (see `publishedKey`). */
  restore(keys: Float64Array, count: number): void {
    this.#keys = new Float64Array(Math.max(1024, count + (count >>> 3)))
    this.#keys.set(keys.subarray(0, count))
    this.#unkeyed = 0
    for (let number = 0; number < count; number++) if (Number.isNaN(keys[number] ?? 0)) this.#unkeyed++
  }

  /** Moves each live document's key to its new number (`renumber[old]`, -1: dead) once `length` documents are left. */
  renumber(renumber: Int32Array, length: number): void {
    const keys = this.#keys
    if (keys === null) return
    const moved = new Float64Array(Math.max(1024, length + (length >>> 3)))
    for (let old = 0; old < renumber.length; old++) {
      const number = renumber[old] ?? -1
      if (number >= 0) moved[number] = keys[old] ?? 0
    }
    this.#keys = moved
  }

  #set(number: number, doc: SearchDocument): void {
    const key = publishedKey(doc.published_at)
    if (this.#keys !== null) this.#keys[number] = key
    if (Number.isNaN(key)) this.#unkeyed++
  }
}
