import * as assert from 'uvu/assert'
import type { SearchPort, SearchQuery, SearchResult } from '../../port/search.ts'
import { kindCounts, MATCH_KINDS, matchRank } from '../../search/match-rank.ts'

/** The widest window a search may ask for (README "Search": `from + size` ≤ 10,000). */
export const FULL_WINDOW = 10_000

/**
 * Asks `engine` and `reference` the same question and fails (an assertion error naming the
 * difference and `where`) unless the engine's answer is one the reference allows:
 * - the same `total`, and the same matching items (its full ranking, as a set);
 * - for every sort but relevance, the same ids in the same order, page and full ranking;
 * - for relevance, core's strict order (`rankScale`; the reference cannot reproduce an
 *   engine's BM25+ relevance, see `createScanSearch`): each item's kinds part (`matchRank`:
 *   how its words matched) that of the reference, so that along the ranking it never rises;
 *   scores never increase; equal scores come newest first (`newestFirst`, as the reference
 *   orders the same items by `published_at:desc`);
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
    await checkStrictOrder(full, expected, () => reference.search(tenantId, { ...whole, sort: { kind: 'published_at', direction: 'desc' } }), query.terms.length, label)
  } else {
    assert.equal(ids(full), ids(expected), `order of ${label}`)
  }
  assert.is(page.total, full.total, `total of the page of ${label}`)
  assert.equal(page.hits, full.hits.slice(query.from, query.from + query.size), `page of ${label} (the slice of the full ranking)`)
}

/** Fails unless scores are finite and never increase (relevance order; ties are checked against the items, see `compareWithReference`). */
export function checkRelevanceOrder(result: SearchResult, label = 'relevance'): void {
  result.hits.forEach((hit, i) => {
    assert.ok(Number.isFinite(hit.score), `${label}: hit ${hit.id} has the score ${hit.score}`)
    const before = result.hits[i - 1]
    if (before === undefined) return
    assert.ok(before.score >= hit.score, `${label}: ${before.id} (${before.score}) before ${hit.id} (${hit.score})`)
  })
}

/**
 * Fails unless every hit of an engine's full relevance ranking has the kinds part of the
 * reference's score for it (so the kinds never rise along the ranking), and hits of equal
 * scores come in the order of `newest` (the same items, newest first: asked only when there are such ties).
 */
async function checkStrictOrder(full: SearchResult, expected: SearchResult, newest: () => Promise<SearchResult>, termCount: number, label: string): Promise<void> {
  const rankOf = new Map(expected.hits.map((hit) => [hit.id, matchRank(hit.score)]))
  let ties = false
  full.hits.forEach((hit, i) => {
    const rank = rankOf.get(hit.id)
    assert.is(matchRank(hit.score), rank, `${label}: ${hit.id} has the kinds of match ${kinds(hit.score, termCount)}, the reference ${kinds(expected.hits.find((h) => h.id === hit.id)?.score ?? 0, termCount)}`)
    const before = full.hits[i - 1]
    if (before === undefined) return
    assert.ok((rankOf.get(before.id) ?? 0) >= (rank ?? 0), `${label}: ${before.id} (kinds ${kinds(before.score, termCount)}) before ${hit.id} (kinds ${kinds(hit.score, termCount)})`)
    if (before.score === hit.score) ties = true
  })
  if (!ties) return
  const position = new Map((await newest()).hits.map((hit, i) => [hit.id, i]))
  full.hits.forEach((hit, i) => {
    const before = full.hits[i - 1]
    if (before === undefined || before.score !== hit.score) return
    assert.ok((position.get(before.id) ?? 0) < (position.get(hit.id) ?? 0), `${label}: equal scores newest first (then by id, descending), ${before.id} before ${hit.id}`)
  })
}

/** A rank score's counts of words by kind of match, readable. */
function kinds(score: number, termCount: number): string {
  return kindCounts(score, termCount)
    .map((count, code) => `${MATCH_KINDS[code]} ${count}`)
    .join(', ')
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
