import type { CategoryRecord } from '../model/category.ts'
import type { SearchResultItem } from './search-contents.ts'

/**
 * One item's result for one query's terms, built once: the item (frozen: it is handed out
 * again) and its JSON around the score (`head` ends with `"score":`, `tail` starts with
 * `,"highlight":`), so that a reply found again is joined, not serialised.
 */
export interface PreparedResult {
  /** The category the item was built with: `custom_fields` are named by its fields. */
  category: CategoryRecord
  item: Readonly<SearchResultItem>
  head: string
  tail: string
}

/** How many queries' results an item keeps (the latest ones), as `REMEMBERED_HIGHLIGHTS`. */
export const REMEMBERED_RESULTS = 2

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
  return { category, item, head, tail }
}

/** A score as the reply holds it: rounded to 4 decimals. */
export function roundScore(score: number): number {
  return Math.round(score * 10_000) / 10_000
}

/**
 * The UTF-8 JSON of a search reply body `{"items": [...], "pagination": ...}` whose items are
 * `results` with `scores`: the very bytes `JSON.stringify(body)` gives, made by joining the
 * results' prepared JSON around each score and encoding it once.
 */
export function searchReplyBytes(results: readonly PreparedResult[], scores: readonly number[], pagination: object): Uint8Array {
  let json = '{"items":['
  for (let i = 0; i < results.length; i++) {
    const result = results[i]
    if (result === undefined) continue
    json += `${i > 0 ? ',' : ''}${result.head}${JSON.stringify(scores[i] ?? 0)}${result.tail}`
  }
  // Hint: a Buffer for the edge to send as it is (see `cachedReply`).
  return Buffer.from(`${json}],"pagination":${JSON.stringify(pagination)}}`, 'utf8')
}
