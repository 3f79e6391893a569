import { createHash } from 'node:crypto'
import type { CategoryRecord, SearchQuery } from '@frontdesk/core'
import { parseSearchRequest, searchQueryKey } from '@frontdesk/core'
import type { SearchQueryCount } from './results.ts'
import type { SearchClass } from './search-classes.ts'
import { SEARCH_CLASS_IDS, SearchStreams } from './search-classes.ts'
import type { Vocabulary } from './vocabulary.ts'

/**
 * Counts the search queries of the streams between two sets of positions (what was sent over
 * HTTPS, regenerated: the streams are deterministic) by the key the engine's memory of recent
 * searches uses: each body resolved as the server resolves it (`parseSearchRequest` against
 * the tenant's categories), then `searchQueryKey`. As many distinct keys as queries: the
 * memory can have answered none of them. Keys are kept as 128-bit digests (a run may send
 * millions of queries).
 */
export function countSearchQueries(
  vocabulary: Vocabulary,
  categories: readonly CategoryRecord[],
  from: Record<SearchClass, number>,
  to: Record<SearchClass, number>,
): SearchQueryCount {
  const streams = new SearchStreams(vocabulary, from)
  const keys = new Set<string>()
  const sentByClass: Partial<Record<SearchClass, number>> = {}
  let sent = 0
  for (const cls of SEARCH_CLASS_IDS) {
    const stream = streams.stream(cls)
    const count = to[cls] - from[cls]
    if (count > 0) sentByClass[cls] = count
    for (let i = 0; i < count; i++) {
      const parsed = parseSearchRequest(stream.next(), categories)
      const query: SearchQuery = { terms: parsed.terms, now: '', categoryId: parsed.categoryId, tags: parsed.tags, filters: parsed.filters, sort: parsed.sort, from: parsed.from, size: parsed.size }
      keys.add(createHash('sha256').update(searchQueryKey(query)).digest().toString('latin1', 0, 16))
      sent++
    }
  }
  return { sentByClass, sent, distinct: keys.size }
}
