import type { ContentQuery } from '@frontdesk/core'
import { driverSource } from './content-filters.ts'
import type { LinkFilter, SqlValue } from './content-filters.ts'

/** A filter a list could be driven from, with a statement counting its items up to a cap. */
export interface DriverCandidate {
  driver: LinkFilter
  /** `SELECT count(*)` of the filter's items, at most the last parameter. */
  sql: string
  params: SqlValue[]
}

/**
 * The tag and field filters of a column-sorted list, each with a bounded count of its items.
 * The caller drives the list from the smallest filter when it is small (a few thousand items at
 * most): reading those link rows and sorting the survivors costs a bounded amount on every page,
 * whereas walking the order index and checking each item on the way costs as many checks as
 * items are skipped, which for a rare combination is the whole category or tenant. When every
 * filter is large, matches are dense and the order index (no sort, deep pages as cheap as page
 * 1) stays the better way. Custom-field sorts keep their own plan (none is offered).
 */
export function listDriverCandidates(tenantId: string, query: ContentQuery, cap: number): DriverCandidate[] {
  if (typeof query.sort.key === 'object') return []
  // Hint: the likely rarer filter first, as later counts stop at the fewest so far. With a
  // category filter, a tag's links are counted within the category only (see `driverSource`),
  // so a tag tends to be the rarer. Without one, field values (scoped to their category) tend
  // to be the rarer.
  const fields = (query.fieldEquals ?? []).map((_, index) => ({ kind: 'field' as const, index }))
  const tags = [
    ...(query.tagIds ?? []).map((_, index) => ({ kind: 'tagId' as const, index })),
    ...(query.tagNames ?? []).map((_, index) => ({ kind: 'tagName' as const, index })),
  ]
  const drivers: LinkFilter[] = query.categoryIds !== undefined && query.categoryIds.length > 0 ? [...tags, ...fields] : [...fields, ...tags]
  const candidates: DriverCandidate[] = []
  for (const driver of drivers) {
    const source = driverSource(tenantId, query, driver)
    if (source === null) continue
    candidates.push({
      driver,
      sql: `SELECT count(*) FROM (SELECT 1 FROM ${source.from} WHERE ${source.where.join(' AND ')} LIMIT ?)`,
      params: [...source.params, cap],
    })
  }
  return candidates
}
