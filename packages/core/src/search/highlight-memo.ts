import type { QueryTerm } from './query-terms.ts'
import { synonymsKey } from './query-terms.ts'

/** An item's highlights for one query's terms: its title marked, and its fragments. */
export interface ItemHighlights {
  title: string
  fragments: readonly string[]
}

/** How many queries' highlights an item keeps (the latest ones): popular queries find the same items again. */
export const REMEMBERED_HIGHLIGHTS = 2

/**
 * The highlights of the last few queries of one item's prepared texts, by the key of their
 * terms (`termsKey`). Highlights depend only on the texts and the terms, and a memo lives with
 * the prepared texts (`ItemHighlightSource`), which are kept only while the texts stay the
 * same strings: a memo never outlives what it was computed from.
 */
export class HighlightMemo {
  readonly #byTerms = new Map<string, ItemHighlights>()

  /** The highlights remembered for `key`, or those `compute` makes (then remembered, the oldest beyond the limit forgotten). */
  get(key: string, compute: () => ItemHighlights): ItemHighlights {
    let found = this.#byTerms.get(key)
    if (found !== undefined) return found
    found = compute()
    if (this.#byTerms.size >= REMEMBERED_HIGHLIGHTS) {
      const oldest = this.#byTerms.keys().next()
      if (oldest.done !== true) this.#byTerms.delete(oldest.value)
    }
    this.#byTerms.set(key, found)
    return found
  }
}

// Hint: per terms array (made once per request): its key is built once, not once per item.
const KEYS = new WeakMap<readonly QueryTerm[], string>()

/** A string naming everything of `terms` that highlighting reads (equal keys, equal highlights). */
export function termsKey(terms: readonly QueryTerm[]): string {
  let key = KEYS.get(terms)
  if (key === undefined) {
    key = terms
      .map((term) => (term.kind === 'word' ? `w${term.fuzzy}${term.term}\u0001${term.stem ?? ''}\u0001${term.joined ?? ''}` : `c${term.prefix ? 1 : 0}${term.text}\u0001${term.grams.join('\u0002')}`) + `\u0004${synonymsKey(term)}`)
      .join('\u0000')
    KEYS.set(terms, key)
  }
  return key
}
