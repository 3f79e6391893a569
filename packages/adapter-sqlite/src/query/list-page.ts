import type { ContentQuery, ContentRecord, Tag } from '@frontdesk/core'
import type { ReadMemo } from '../connection/data-version-memo.ts'
import type { Connection } from '../connection/statement-cache.ts'
import type { ContentRow, TagLookup } from '../records/contents.ts'
import { toContents, toSummaries } from '../records/contents.ts'
import { selectTag, selectTagByName } from '../records/tags.ts'
import type { LinkFilter, ListDriver } from './content-filters.ts'
import { inContentIdOrder } from './content-filters.ts'
import { listContentsSql } from './list-contents-sql.ts'
import type { DriverCandidate } from './list-drivers.ts'
import { listDriverCandidates } from './list-drivers.ts'

/** Where the list query planner switches from one plan to another (see `smallestFilter`). */
export interface ListPlanLimits {
  /**
   * A list with a tag or field filter matching fewer items than this is read from that filter's
   * items (then sorted) rather than by walking an order index: at most this many link rows.
   */
  driveBelow: number
  /** A smallest filter with at least this many items is merged with the others. */
  mergeAbove: number
  /** At most this many link rows merged per item of the smallest filter. */
  mergeRowsPerItem: number
}

/** The planner's limits (tests pass small ones, so that small catalogues take every plan). */
export const LIST_PLAN_LIMITS: ListPlanLimits = { driveBelow: 2_000, mergeAbove: 200, mergeRowsPerItem: 12 }

/**
 * One page of `Store.listContents`: the list query planner. Tag names become tag ids, the
 * smallest tag or field filter may drive the list (`smallestFilter`), and the statements of
 * `listContentsSql` fill the page part after part. Runs on one snapshot (the caller's).
 * `memo` remembers tag names, tags and filter counts on the reader until the next commit;
 * a transaction reads afresh.
 */
export function listContentsPage(conn: Connection, memo: ReadMemo, tenantId: string, query: ContentQuery, limits = LIST_PLAN_LIMITS): ContentRecord[] {
  const plan = listPlan(conn, memo, tenantId, query, limits)
  if (plan === null) return []
  const parts = listContentsSql(tenantId, plan.query, plan.driver)
  const records: ContentRecord[] = []
  const tag = tagLookup(conn, memo, tenantId)
  for (const { sql, params, summary } of parts) {
    const room = Math.floor(query.limit) - records.length
    if (room <= 0) break
    // Hint: each part's last parameter is its limit; later parts fill what is left.
    const values = [...params.slice(0, -1), room]
    if (summary) {
      // Hint: rows as arrays: building an object per row cost a third of a covered page's statement.
      records.push(...toSummaries(tenantId, conn.prepare(sql).raw(true).all(...values) as unknown[][], tag))
    } else {
      records.push(...toContents(conn.prepare(sql).all(...values) as ContentRow[], tag, query.view !== 'summary'))
    }
  }
  return records
}

/**
 * Tags by id for reads of one tenant's items (items hold their tags' ids): the tenant's table
 * of tags read so far, remembered in `memo` until the next commit — one memo read per page,
 * then a plain map read per tag (a memo read per tag is a noticeable part of a covered list page). With
 * a memo that remembers nothing (a transaction), every tag is read afresh.
 */
export function tagLookup(conn: Connection, memo: ReadMemo, tenantId: string): TagLookup {
  const read: TagLookup = (tenant, id) => selectTag(conn, tenant, id)
  if (!memo.remembers) return read
  const tags = memo.get('tagsById', tenantId, () => new Map<string, Tag | null>())
  return (tenant, id) => {
    if (tenant !== tenantId) return read(tenant, id)
    let tag = tags.get(id)
    if (tag === undefined) {
      tag = read(tenant, id)
      tags.set(id, tag === null ? null : Object.freeze(tag))
    }
    return tag
  }
}

/**
 * How a list will be read: the query with tag names as ids, and the filter it is driven from
 * (`null`: the order index, checking each item); `null` when a tag name is no tag's.
 */
export function listPlan(conn: Connection, memo: ReadMemo, tenantId: string, query: ContentQuery, limits = LIST_PLAN_LIMITS): { query: ContentQuery; driver: ListDriver | null } | null {
  const byIds = tagNamesAsIds(conn, memo, tenantId, query)
  return byIds === null ? null : { query: byIds, driver: smallestFilter(conn, memo, tenantId, byIds, limits) }
}

/**
 * The query with its tag names replaced by the ids of those tags (names are unique per
 * tenant), so each item is checked with one index probe; `null` when a name is no tag's (the
 * list is empty).
 */
function tagNamesAsIds(conn: Connection, memo: ReadMemo, tenantId: string, query: ContentQuery): ContentQuery | null {
  const { tagNames, ...rest } = query
  if (tagNames === undefined || tagNames.length === 0) return query
  const ids: string[] = []
  for (const name of tagNames) {
    const tag = memo.get('tagByName', `${tenantId}\u0000${name}`, () => selectTagByName(conn, tenantId, name))
    if (tag === null) return null
    ids.push(tag.id)
  }
  return { ...rest, tagIds: [...(query.tagIds ?? []), ...ids] }
}

/**
 * What the list is read from (see `listDriverCandidates`): the tag or field filter with the
 * fewest items, when it has fewer than `driveBelow`; when even that one has `mergeAbove`
 * items or more, the intersection of it and the other filters with fewer than `driveBelow`
 * items whose links come in content id order, unless they hold many more rows than it.
 */
function smallestFilter(conn: Connection, memo: ReadMemo, tenantId: string, query: ContentQuery, limits: ListPlanLimits): ListDriver | null {
  let best: DriverCandidate | null = null
  let fewest = limits.driveBelow
  const candidates = listDriverCandidates(tenantId, query, limits.driveBelow)
  for (const candidate of candidates) {
    const count = countUpToCap(conn, memo, candidate)
    if (count < fewest) {
      fewest = count
      best = candidate
    }
  }
  if (best === null || fewest < limits.mergeAbove || !inContentIdOrder(query, best.driver)) return best?.driver ?? null
  // Hint: checking each of the smallest filter's items for another filter is an index probe
  // (~1.2 µs at 100k items); merging link rows read in order costs ~0.08 µs a row, so a merge
  // pays while it reads fewer than `mergeRowsPerItem` (~12) rows per item of the smallest filter.
  const parts: LinkFilter[] = [best.driver]
  let rows = fewest
  for (const candidate of candidates) {
    if (candidate === best || !inContentIdOrder(query, candidate.driver)) continue
    const count = countUpToCap(conn, memo, candidate)
    if (count >= limits.driveBelow) continue
    parts.push(candidate.driver)
    rows += count
  }
  return parts.length < 2 || rows > limits.mergeRowsPerItem * fewest ? best.driver : { kind: 'intersection', of: parts }
}

/**
 * A candidate's items, counted up to the cap (its last parameter, `driveBelow`); remembered
 * until the next commit (counts only steer the plan, never the result).
 */
function countUpToCap(conn: Connection, memo: ReadMemo, { sql, params }: DriverCandidate): number {
  // Hint: always to the same cap, so a filter has one entry whatever was counted before it: a
  // cap of "the fewest so far" would make a key per combination of filters, more than the
  // memo keeps under a stream of varied lists, and the same filters would be counted again.
  return memo.get('filterCount', `${sql}\u0000${JSON.stringify(params)}`, () => conn.prepare(sql).pluck().get(...params) as number)
}
