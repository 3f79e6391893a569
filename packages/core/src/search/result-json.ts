import type { CategoryRecord } from '../model/category.ts'
import type { SearchResultItem } from './search-contents.ts'

/**
 * One item's result for one query's terms, built once: the item (frozen: it is handed out
 * again) and its JSON as UTF-8 bytes around the score (`head` ends with `"score":`, `tail`
 * starts with `,"highlight":`), so that a reply found again is copied, not serialised.
 */
export interface PreparedResult {
  /** The category the item was built with: `custom_fields` are named by its fields. */
  category: CategoryRecord
  item: Readonly<SearchResultItem>
  head: Uint8Array
  tail: Uint8Array
}

/** How many queries' results an item keeps (the latest ones), as `REMEMBERED_HIGHLIGHTS`. */
export const REMEMBERED_RESULTS = 2

const encoder = new TextEncoder()

/**
 * The results of one item (as read at one revision: see `FoundItems`) for its last few
 * queries, by the key of their terms (`termsKey`). A result built with another category
 * object (the category changed) is built again.
 */
export class ResultMemo {
  readonly #byTerms = new Map<string, PreparedResult>()

  /** The result remembered for `key` and `category`, or the one `build` makes (then remembered). */
  get(key: string, category: CategoryRecord, build: () => SearchResultItem): PreparedResult {
    let found = this.#byTerms.get(key)
    if (found !== undefined && found.category === category) return found
    found = prepareResult(category, build())
    if (!this.#byTerms.has(key) && this.#byTerms.size >= REMEMBERED_RESULTS) {
      const oldest = this.#byTerms.keys().next()
      if (oldest.done !== true) this.#byTerms.delete(oldest.value)
    }
    this.#byTerms.set(key, found)
    return found
  }
}

/** Freezes `item` (and what it holds) and encodes its JSON around the score. */
export function prepareResult(category: CategoryRecord, item: SearchResultItem): PreparedResult {
  Object.freeze(item.tags)
  Object.freeze(item.highlight.title)
  Object.freeze(item.highlight.search_text)
  Object.freeze(item.highlight)
  Object.freeze(item.custom_fields)
  Object.freeze(item)
  // Hint: the keys in `SearchResultItem`'s order, as `JSON.stringify(item)` writes them (a test compares the two).
  const { id, title, slug, category_id, published_at, author_name, tags } = item
  const head = `${JSON.stringify({ id, title, slug, category_id, published_at, author_name, tags }).slice(0, -1)},"score":`
  const tail = `,"highlight":${JSON.stringify(item.highlight)},"custom_fields":${JSON.stringify(item.custom_fields)}}`
  return { category, item, head: encoder.encode(head), tail: encoder.encode(tail) }
}

/** A score as the reply holds it: rounded to 4 decimals. */
export function roundScore(score: number): number {
  return Math.round(score * 10_000) / 10_000
}

/**
 * The UTF-8 JSON of a search reply body `{"items": [...], "pagination": ...}` whose items are
 * `results` with `scores`: the very bytes `JSON.stringify(body)` gives, made by copying the
 * results' prepared bytes around each score.
 */
export function searchReplyBytes(results: readonly PreparedResult[], scores: readonly number[], pagination: object): Uint8Array {
  const numbers = scores.map((score) => JSON.stringify(score))
  const start = '{"items":['
  const end = `],"pagination":${JSON.stringify(pagination)}}`
  let length = start.length + end.length + Math.max(0, results.length - 1)
  for (let i = 0; i < results.length; i++) {
    const result = results[i]
    if (result !== undefined) length += result.head.length + (numbers[i]?.length ?? 0) + result.tail.length
  }
  // Hint: a Buffer for the edge to send as it is (see `cachedReply`).
  const bytes = Buffer.alloc(length)
  let at = ascii(bytes, 0, start)
  for (let i = 0; i < results.length; i++) {
    const result = results[i]
    if (result === undefined) continue
    if (i > 0) bytes[at++] = 0x2c // ,
    bytes.set(result.head, at)
    at = ascii(bytes, at + result.head.length, numbers[i] ?? '')
    bytes.set(result.tail, at)
    at += result.tail.length
  }
  ascii(bytes, at, end)
  return bytes
}

/** Writes `text` (ASCII only: punctuation and numbers) at `at`; returns the offset after it. */
function ascii(bytes: Uint8Array, at: number, text: string): number {
  for (let i = 0; i < text.length; i++) bytes[at + i] = text.charCodeAt(i)
  return at + text.length
}
