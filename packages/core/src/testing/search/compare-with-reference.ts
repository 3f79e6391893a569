import * as assert from 'uvu/assert'
import type { SearchPort, SearchQuery, SearchResult } from '../../port/search.ts'

/** The widest window a search may ask for (CONTRACT §5: `from + size` ≤ 10,000). */
export const FULL_WINDOW = 10_000

/**
 * Asks `engine` and `reference` the same question and fails (an assertion error naming the
 * difference and `where`) unless the engine's answer is one the reference allows:
 * - the same `total`, and the same matching items (its full ranking, as a set);
 * - for every sort but relevance, the same ids in the same order, page and full ranking;
 * - for relevance, an order consistent in itself (the reference cannot reproduce an engine's
 *   scores, see `createScanSearch`): scores never increase, equal scores come by id;
 * - the page asked for (`query.from`, `query.size`) is the slice of the engine's own full
 *   ranking, ids and scores, with the same `total`.
 * The page is asked first: a memo that answers it from an earlier question shows.
 */
export async function compareWithReference(engine: SearchPort, reference: SearchPort, tenantId: string, query: SearchQuery, where = ''): Promise<void> {
  const label = `${where}${where === '' ? '' : ': '}${describeQuery(query)}`
  const page = await engine.search(tenantId, query)
  const whole = { ...query, from: 0, size: FULL_WINDOW }
  const full = await engine.search(tenantId, whole)
  const expected = await reference.search(tenantId, whole)
  assert.is(full.total, expected.total, `total of ${label}`)
  assert.is(full.hits.length, Math.min(expected.total, FULL_WINDOW), `hits of the full ranking of ${label}`)
  if (query.sort.kind === 'relevance') {
    assert.equal(sortedIds(full), sortedIds(expected), `matching items of ${label}`)
    checkRelevanceOrder(full, label)
  } else {
    assert.equal(ids(full), ids(expected), `order of ${label}`)
  }
  assert.is(page.total, full.total, `total of the page of ${label}`)
  assert.equal(page.hits, full.hits.slice(query.from, query.from + query.size), `page of ${label} (the slice of the full ranking)`)
}

/** Fails unless scores never increase and equal scores come by id (relevance order). */
export function checkRelevanceOrder(result: SearchResult, label = 'relevance'): void {
  result.hits.forEach((hit, i) => {
    assert.ok(Number.isFinite(hit.score), `${label}: hit ${hit.id} has the score ${hit.score}`)
    const before = result.hits[i - 1]
    if (before === undefined) return
    assert.ok(before.score >= hit.score, `${label}: ${before.id} (${before.score}) before ${hit.id} (${hit.score})`)
    if (before.score === hit.score) assert.ok(before.id < hit.id, `${label}: equal scores by id, ${before.id} before ${hit.id}`)
  })
}

/** The query, readable in a failure message (field conditions' maps spelled out). */
export function describeQuery(query: SearchQuery): string {
  return JSON.stringify({ ...query, filters: query.filters.map((c) => ({ key: c.key, byFieldId: Object.fromEntries(c.byFieldId) })) })
}

function ids(result: SearchResult): string[] {
  return result.hits.map((hit) => hit.id)
}

function sortedIds(result: SearchResult): string[] {
  return ids(result).sort()
}
