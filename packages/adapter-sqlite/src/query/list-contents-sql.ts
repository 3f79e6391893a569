import type { ContentQuery, FieldDefinition } from '@frontdesk/core'
import { contentColumns, summaryColumns } from '../records/contents.ts'
import { contentFilters, driverSource, sqlValue, valueColumn } from './content-filters.ts'
import type { ListDriver, SqlValue } from './content-filters.ts'

export type { SqlValue } from './content-filters.ts'

/** A statement and its positional parameters; the last parameter is the row limit. */
export interface SqlQuery {
  sql: string
  params: SqlValue[]
  /** The statement selects `summaryColumns` (read its rows with `raw()` and `toSummaries`), else `contentColumns`. */
  summary: boolean
}

/**
 * Translates a `ContentQuery` into SELECTs over `contents c` whose results, concatenated in
 * order and cut at `query.limit`, are the page. Nothing is decided here: visibility, filters,
 * sort and keyset are carried out exactly as core resolved them.
 *
 * Every part reads an index in sort order and stops at its limit, so a deep page costs what
 * the first one does: keyset comparisons are row values, `(sort, id) > (?, ?)`, served by the
 * `(tenant_id, status, <sort>, id)` indexes. A custom-field sort is two parts: the items having
 * the field, in the order of the field's value index, then the items lacking it, by id (missing
 * values come last in both directions). `published_at` where drafts show sorts its nulls last too.
 */
export function listContentsSql(tenantId: string, query: ContentQuery, driver: ListDriver | null = null): SqlQuery[] {
  const { key } = query.sort
  if (typeof key === 'object') return customFieldParts(tenantId, query, key.field)
  return [columnQuery(tenantId, query, key, driver)]
}

function columnQuery(tenantId: string, query: ContentQuery, key: 'published_at' | 'title' | 'updated_at' | 'id', driver: ListDriver | null): SqlQuery {
  const { visibility, sort, after } = query
  const bound = newestFirstBound(query)
  const source = driver === null ? null : driverSource(tenantId, query, driver)
  const drivenBy = source === null ? null : driver
  const nowBound = bound === 'keyset' ? 'omit' : key === 'published_at' && source === null ? 'index' : 'filter'
  const { joins, where, params, links, linkParams } = contentFilters(tenantId, query, nowBound, drivenBy)
  const dir = sort.direction === 'asc' ? 'ASC' : 'DESC'
  const cmp = sort.direction === 'asc' ? '>' : '<'
  const expr = `c.${key}`
  // Hint: the public view (without a preview) never shows an item lacking published_at.
  const nullable = key === 'published_at' && !(visibility.kind === 'public' && visibility.previewCategoryId === undefined)
  const value = after?.value ?? null
  let order: string
  if (key === 'id') {
    order = `c.id ${dir}`
    if (after !== undefined) {
      where.push(`c.id ${cmp} ?`)
      params.push(after.id)
    }
  } else {
    order = `${nullable ? `(${expr} IS NULL), ` : ''}${expr} ${dir}, c.id ${dir}`
    if (after !== undefined && value === null) {
      where.push(`${expr} IS NULL AND c.id ${cmp} ?`)
      params.push(after.id)
    } else if (after !== undefined && value !== null && bound !== 'now') {
      const past = `(${expr}, c.id) ${cmp} (?, ?)`
      where.push(nullable ? `((${expr} IS NOT NULL AND ${past}) OR ${expr} IS NULL)` : past)
      params.push(sqlValue(value), after.id)
    }
  }
  if (source !== null) {
    // Hint: the (few) link rows passing every tag and field check come first (LIMIT -1 keeps the
    // subquery from being flattened, which would let SQLite fetch each item before those checks);
    // CROSS JOIN then fetches each survivor by its key, and the page is sorted after.
    const matches = `SELECT d.tenant_id, d.content_id FROM ${source.from} WHERE ${[...source.where, ...links].join(' AND ')} LIMIT -1`
    const from = `(${matches}) d CROSS JOIN contents c ON c.tenant_id = d.tenant_id AND c.id = d.content_id`
    return select(from, joins, where, order, [...source.params, ...linkParams, ...params, limitOf(query)], query.view === 'summary')
  }
  return select('contents c', joins, where, order, [...params, limitOf(query)], query.view === 'summary')
}

function customFieldParts(tenantId: string, query: ContentQuery, field: FieldDefinition): SqlQuery[] {
  const { sort, after } = query
  const dir = sort.direction === 'asc' ? 'ASC' : 'DESC'
  const cmp = sort.direction === 'asc' ? '>' : '<'
  const column = valueColumn(field)
  const parts: SqlQuery[] = []
  const value = after?.value ?? null

  if (after === undefined || value !== null) {
    const { joins, where, params } = contentFilters(tenantId, query, 'filter')
    const own = ['sf.tenant_id = ?', 'sf.field_id = ?', `sf.${column} IS NOT NULL`]
    const ownParams: SqlValue[] = [tenantId, field.id]
    if (after !== undefined && value !== null) {
      own.push(`(sf.${column}, sf.content_id) ${cmp} (?, ?)`)
      ownParams.push(sqlValue(value), after.id)
    }
    const from = 'content_fields sf CROSS JOIN contents c ON c.tenant_id = sf.tenant_id AND c.id = sf.content_id'
    parts.push(select(from, joins, [...own, ...where], `sf.${column} ${dir}, sf.content_id ${dir}`, [...ownParams, ...params, limitOf(query)]))
  }

  const { joins, where, params } = contentFilters(tenantId, query, 'filter')
  where.push(
    `NOT EXISTS (SELECT 1 FROM content_fields sf WHERE sf.tenant_id = c.tenant_id AND sf.content_id = c.id AND sf.field_id = ? AND sf.${column} IS NOT NULL)`,
  )
  params.push(field.id)
  if (after !== undefined && value === null) {
    where.push(`c.id ${cmp} ?`)
    params.push(after.id)
  }
  parts.push(select('contents c', joins, where, `c.id ${dir}`, [...params, limitOf(query)]))
  return parts
}

function select(from: string, joins: string[], where: string[], order: string, params: SqlValue[], summary = false): SqlQuery {
  // Hint: a summary reads only the columns the covering list indexes hold (schema v7), so a
  // list in their order reads no row at all (see `ContentQuery.view`).
  const columns = summary ? summaryColumns('c.') : contentColumns('c.')
  const sql = `SELECT ${columns} FROM ${from} ${joins.join(' ')} WHERE ${where.join(' AND ')} ORDER BY ${order} LIMIT ?`
  return { sql, params, summary }
}

function limitOf(query: ContentQuery): number {
  return Math.max(0, Math.floor(query.limit))
}

/**
 * Walking a public list newest-first from a keyset position, the keyset bound and
 * `published_at <= now` are both upper bounds, and SQLite seeks on one only. The tighter one
 * implies the other, so only it is written (`keyset` when the position is not after `now`),
 * and a deep page seeks straight to its place instead of skipping the pages before it.
 */
function newestFirstBound(query: ContentQuery): 'keyset' | 'now' | null {
  const { visibility, sort, after } = query
  if (visibility.kind !== 'public' || visibility.previewCategoryId !== undefined) return null
  if (sort.key !== 'published_at' || sort.direction !== 'desc' || typeof after?.value !== 'string') return null
  return after.value <= visibility.now ? 'keyset' : 'now'
}
