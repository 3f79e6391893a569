import type { ContentQuery, FieldDefinition, FieldValue } from '@frontdesk/core'
import type { NowBound } from './visibility-clause.ts'
import { visibilityClause } from './visibility-clause.ts'

/** A parameter SQLite accepts. */
export type SqlValue = string | number | null

/** Conditions on `contents c` (and the joins they need), with their positional parameters. */
export interface ContentFilters {
  joins: string[]
  where: string[]
  params: SqlValue[]
  /** Driven from a link table `d`: the tag and field checks on `d`'s rows, with their parameters (else empty). */
  links: string[]
  linkParams: SqlValue[]
}

/**
 * The conditions of a `ContentQuery` apart from its sort and keyset: tenant, visibility,
 * categories, tags (AND), field values (AND). `nowBound` says how `published_at <= now` is
 * written: `index` (the list is in `published_at` order), `omit` (the caller's keyset bound
 * implies it), `filter` (checked per row, never used to pick an index: a range on
 * `published_at` would lure the planner away from the index that yields the sort order).
 */
export function contentFilters(
  tenantId: string,
  query: ContentQuery,
  nowBound: NowBound,
  driver: ListDriver | null = null,
): ContentFilters {
  // Hint: driven from a link table `d`, the tag and field checks are made on d's rows (in a
  // subquery of their own), so only the survivors' (large) content rows are fetched.
  const item = driver === null ? { tenant: 'c.tenant_id', id: 'c.id' } : { tenant: 'd.tenant_id', id: 'd.content_id' }
  const joins: string[] = []
  const where: string[] = ['c.tenant_id = ?']
  const params: SqlValue[] = [tenantId]
  const { visibility } = query
  if (visibility.kind === 'public') {
    // Hint: CROSS JOIN pins the join order, so the sort comes from the driving table's index
    // even when statistics (ANALYZE) would tempt the planner to start from a small categories table.
    joins.push('CROSS JOIN categories cat ON cat.tenant_id = c.tenant_id AND cat.id = c.category_id')
    const visible = visibilityClause(visibility, nowBound)
    where.push(visible.sql)
    params.push(...visible.params)
  }
  if (query.categoryIds !== undefined) {
    where.push(query.categoryIds.length === 0 ? '0' : `c.category_id IN (${query.categoryIds.map(() => '?').join(', ')})`)
    params.push(...query.categoryIds)
  }
  const driving = driver === null ? [] : driver.kind === 'intersection' ? driver.of : [driver]
  const drives = (kind: LinkFilter['kind'], index: number) => driving.some((part) => part.kind === kind && part.index === index)
  const links = driver === null ? where : []
  const linkParams = driver === null ? params : []
  for (const [index, tagId] of (query.tagIds ?? []).entries()) {
    if (drives('tagId', index)) continue
    links.push(`EXISTS (SELECT 1 FROM content_tags ct WHERE ct.tenant_id = ${item.tenant} AND ct.content_id = ${item.id} AND ct.tag_id = ?)`)
    linkParams.push(tagId)
  }
  for (const [index, tagName] of (query.tagNames ?? []).entries()) {
    if (drives('tagName', index)) continue
    links.push(
      `EXISTS (SELECT 1 FROM content_tags ct JOIN tags t ON t.tenant_id = ct.tenant_id AND t.id = ct.tag_id
                WHERE ct.tenant_id = ${item.tenant} AND ct.content_id = ${item.id} AND t.name = ?)`,
    )
    linkParams.push(tagName)
  }
  for (const [index, { field, value }] of (query.fieldEquals ?? []).entries()) {
    if (drives('field', index)) continue
    links.push(
      `EXISTS (SELECT 1 FROM content_fields f WHERE f.tenant_id = ${item.tenant} AND f.content_id = ${item.id} AND f.field_id = ? AND f.${valueColumn(field)} = ?)`,
    )
    linkParams.push(field.id, sqlValue(value))
  }
  return { joins, where, params, links: driver === null ? [] : links, linkParams: driver === null ? [] : linkParams }
}

/** One tag or field filter of a query, by its kind and position in `tagIds`, `tagNames` or `fieldEquals`. */
export interface LinkFilter {
  kind: 'tagId' | 'tagName' | 'field'
  index: number
}

/**
 * What a list is read from, as `d`, instead of walking an order index and checking every item
 * on the way (see `listDriverCandidates`): the link rows of one filter, whose items are then
 * checked for the other filters one by one, or the intersection of several filters' link rows
 * (`of`), which SQLite merges in content id order without a probe per item.
 */
export type ListDriver = LinkFilter | { kind: 'intersection'; of: LinkFilter[] }

/**
 * Whether a filter's link rows come out of their index in content id order (what merging an
 * intersection needs): a field value's always, a tag's when the list has one category (the
 * index is ordered by tag, category, content id).
 */
export function inContentIdOrder(query: ContentQuery, filter: LinkFilter): boolean {
  return filter.kind === 'field' || query.categoryIds?.length === 1
}

/**
 * The link-table rows of `driver`'s filter, as `d`: the FROM clause and its conditions. A tag's
 * links carry their item's category (schema v6), so with a category filter only the tag's links
 * in those categories are read (`content_tags_by_tag` is ordered by tag, then category).
 */
export function driverSource(tenantId: string, query: ContentQuery, driver: ListDriver): { from: string; where: string[]; params: SqlValue[] } | null {
  if (driver.kind === 'intersection') {
    const sides: string[] = []
    const params: SqlValue[] = []
    for (const part of driver.of) {
      const side = driverSource(tenantId, query, part)
      if (side === null) return null
      sides.push(`SELECT d.tenant_id, d.content_id FROM ${side.from} WHERE ${side.where.join(' AND ')}`)
      params.push(...side.params)
    }
    // Hint: ORDER BY the index order lets SQLite merge the sides (MERGE (INTERSECT)) instead of
    // building a temporary index of each.
    return { from: `(${sides.join(' INTERSECT ')} ORDER BY 1, 2) d`, where: ['d.tenant_id = ?'], params: [...params, tenantId] }
  }
  if (driver.kind === 'tagId' || driver.kind === 'tagName') {
    const where = ['d.tenant_id = ?']
    const params: SqlValue[] = [tenantId]
    if (driver.kind === 'tagId') {
      const tagId = query.tagIds?.[driver.index]
      if (tagId === undefined) return null
      where.push('d.tag_id = ?')
      params.push(tagId)
    } else {
      const name = query.tagNames?.[driver.index]
      if (name === undefined) return null
      where.push('d.tag_id = (SELECT t.id FROM tags t WHERE t.tenant_id = ? AND t.name = ?)')
      params.push(tenantId, name)
    }
    const { categoryIds } = query
    if (categoryIds !== undefined && categoryIds.length > 0) {
      where.push(`d.category_id IN (${categoryIds.map(() => '?').join(', ')})`)
      params.push(...categoryIds)
    }
    return { from: 'content_tags d', where, params }
  }
  const filter = query.fieldEquals?.[driver.index]
  if (filter === undefined) return null
  return {
    from: 'content_fields d',
    where: ['d.tenant_id = ?', 'd.field_id = ?', `d.${valueColumn(filter.field)} = ?`],
    params: [tenantId, filter.field.id, sqlValue(filter.value)],
  }
}

/** The `content_fields` column that holds values of the field's type. */
export function valueColumn(field: FieldDefinition): 'value_text' | 'value_number' | 'value_boolean' {
  if (field.type === 'number') return 'value_number'
  if (field.type === 'boolean') return 'value_boolean'
  return 'value_text'
}

/** A field value as SQLite stores it (booleans as 0/1). */
export function sqlValue(value: FieldValue): SqlValue {
  return typeof value === 'boolean' ? (value ? 1 : 0) : value
}
