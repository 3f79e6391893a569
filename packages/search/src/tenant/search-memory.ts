import type { SearchResult } from '@frontdesk/core'

/** At most this many recent searches' pages are remembered per tenant... */
export const MAX_REMEMBERED_SEARCHES = 1024
/** ...holding at most this many hits in all (~2 MB per tenant). */
export const MAX_REMEMBERED_HITS = 20_000

/** What a remembered page was computed with: it is valid while all three are unchanged. */
export interface SearchState {
  /** The index version (items added, changed, removed, renumbered). */
  version: number
  /** The count of category changes. */
  categories: number
  /** The eligibility bit set (visibility at the search's `now`), by identity. */
  bits: Uint32Array
}

/**
 * Pages of recent searches of one tenant index, by query key (core's `searchQueryKey`: all of
 * the query but `now`), each valid for the state it was computed in; least recently asked
 * dropped beyond `MAX_REMEMBERED_SEARCHES` or `MAX_REMEMBERED_HITS`. Popular searches repeat,
 * and a common word's exact `total` then costs nothing.
 */
export class SearchMemory {
  readonly #results = new Map<string, SearchState & { result: SearchResult }>()
  #hits = 0

  /** The page remembered for `key` if computed in `state` (a copy of its hits list), else `undefined`. */
  get(key: string, state: SearchState): SearchResult | undefined {
    const known = this.#results.get(key)
    if (known === undefined) return undefined
    this.#results.delete(key)
    if (known.version === state.version && known.categories === state.categories && known.bits === state.bits) {
      this.#results.set(key, known)
      return { total: known.result.total, hits: known.result.hits.slice() }
    }
    this.#hits -= known.result.hits.length
    return undefined
  }

  /** Keeps a search's page (a copy of its hits list, the hits frozen), dropping the least recently asked ones beyond the bounds. */
  remember(key: string, state: SearchState, result: SearchResult): void {
    const hits = result.hits.length
    if (hits > MAX_REMEMBERED_HITS) return
    // Hint: the hits are handed out again: frozen, so a caller changing one cannot change what is remembered.
    for (const hit of result.hits) Object.freeze(hit)
    const old = this.#results.get(key)
    if (old !== undefined) {
      this.#results.delete(key)
      this.#hits -= old.result.hits.length
    }
    for (const [oldKey, entry] of this.#results) {
      if (this.#results.size < MAX_REMEMBERED_SEARCHES && this.#hits + hits <= MAX_REMEMBERED_HITS) break
      this.#results.delete(oldKey)
      this.#hits -= entry.result.hits.length
    }
    this.#results.set(key, { ...state, result: { total: result.total, hits: result.hits.slice() } })
    this.#hits += hits
  }
}
