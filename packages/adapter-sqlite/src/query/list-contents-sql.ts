import type { ContentQuery, FieldDefinition, FieldValue } from '@frontdesk/core'
import { contentColumns } from '../records/contents.ts'

/** A parameter SQLite accepts. */
export type SqlValue = string | number | null

/** A statement and its positional parameters. */
export interface SqlQuery {
  sql: string
  params: SqlValue[]
}

/**
 * Translates a `ContentQuery` into one SELECT over `contents` (aliased `c`) that yields the
 * page's rows in order. Nothing is decided here: visibility, filters, sort and keyset are
 * carried out exactly as core resolved them.
 *
 * Keyset comparisons use row values, `(sort, id) > (?, ?)`, which SQLite serves from the
 * `(tenant_id, status, <sort>, id)` indexes, so a deep page costs what the first one does.
 * A sort expression that may be null (a custom field, or `published_at` where drafts show)
 * orders its nulls last in both directions.
 */
export function listContentsSql(tenantId: string, query: ContentQuery): SqlQuery {
  const joins: string[] = []
  const joinParams: SqlValue[] = []
  const where: string[] = ['c.tenant_id = ?']
  const params: SqlValue[] = [tenantId]

  const { visibility } = query
  // Hint: walking newest-first, the keyset bound and `published_at <= now` are both upper
  // bounds, and SQLite seeks on one only; the tighter one implies the other, so only it is
  // written, and a deep page seeks straight to its place instead of skipping the pages before.
  const bound = newestFirstBound(query)
  if (visibility.kind === 'public') {
    // Hint: CROSS JOIN pins contents as the outer loop, so the sort comes from its index even when
    // statistics (ANALYZE) would tempt the planner to start from a small categories table.
    joins.push('CROSS JOIN categories cat ON cat.tenant_id = c.tenant_id AND cat.id = c.category_id')
    if (visibility.previewCategoryId === undefined) {
      where.push(`c.status = 'published'${bound === 'keyset' ? '' : ' AND c.published_at <= ?'} AND cat.active = 1`)
      if (bound !== 'keyset') params.push(visibility.now)
    } else {
      const visible = `c.status = 'published' AND c.published_at <= ? AND cat.active = 1`
      params.push(visibility.now)
      where.push(`((${visible}) OR c.category_id = ?)`)
      params.push(visibility.previewCategoryId)
    }
  }
  if (query.categoryIds !== undefined) {
    where.push(query.categoryIds.length === 0 ? '0' : `c.category_id IN (${query.categoryIds.map(() => '?').join(', ')})`)
    params.push(...query.categoryIds)
  }
  for (const tagId of query.tagIds ?? []) {
    where.push('EXISTS (SELECT 1 FROM content_tags ct WHERE ct.tenant_id = c.tenant_id AND ct.content_id = c.id AND ct.tag_id = ?)')
    params.push(tagId)
  }
  for (const tagName of query.tagNames ?? []) {
    where.push(
      `EXISTS (SELECT 1 FROM content_tags ct JOIN tags t ON t.tenant_id = ct.tenant_id AND t.id = ct.tag_id
                WHERE ct.tenant_id = c.tenant_id AND ct.content_id = c.id AND t.name = ?)`,
    )
    params.push(tagName)
  }
  for (const { field, value } of query.fieldEquals ?? []) {
    where.push(
      `EXISTS (SELECT 1 FROM content_fields f WHERE f.tenant_id = c.tenant_id AND f.content_id = c.id AND f.field_id = ? AND f.${valueColumn(field)} = ?)`,
    )
    params.push(field.id, sqlValue(value))
  }

  const { key, direction } = query.sort
  const dir = direction === 'asc' ? 'ASC' : 'DESC'
  const cmp = direction === 'asc' ? '>' : '<'
  let expr: string
  let nullable: boolean
  if (typeof key === 'object') {
    joins.push('LEFT JOIN content_fields sf ON sf.tenant_id = c.tenant_id AND sf.content_id = c.id AND sf.field_id = ?')
    joinParams.push(key.field.id)
    expr = `sf.${valueColumn(key.field)}`
    nullable = true
  } else {
    expr = `c.${key}`
    // Hint: the public view (without a preview) never shows an item lacking published_at.
    nullable = key === 'published_at' && !(visibility.kind === 'public' && visibility.previewCategoryId === undefined)
  }

  let order: string
  if (key === 'id') {
    order = `c.id ${dir}`
    if (query.after !== undefined) {
      where.push(`c.id ${cmp} ?`)
      params.push(query.after.id)
    }
  } else {
    order = `${nullable ? `(${expr} IS NULL), ` : ''}${expr} ${dir}, c.id ${dir}`
    const after = query.after
    const value = after?.value ?? null
    if (after !== undefined && value === null) {
      where.push(`${expr} IS NULL AND c.id ${cmp} ?`)
      params.push(after.id)
    } else if (after !== undefined && value !== null && bound !== 'now') {
      const past = `(${expr}, c.id) ${cmp} (?, ?)`
      where.push(nullable ? `((${expr} IS NOT NULL AND ${past}) OR ${expr} IS NULL)` : past)
      params.push(sqlValue(value), after.id)
    }
  }

  const sql = `SELECT ${contentColumns('c.')} FROM contents c ${joins.join(' ')} WHERE ${where.join(' AND ')} ORDER BY ${order} LIMIT ?`
  return { sql, params: [...joinParams, ...params, Math.max(0, Math.floor(query.limit))] }
}

/**
 * For a public, newest-first list by `published_at` from a keyset position: which of the two
 * upper bounds implies the other (`keyset` when the position is not after `now`).
 */
function newestFirstBound(query: ContentQuery): 'keyset' | 'now' | null {
  const { visibility, sort, after } = query
  if (visibility.kind !== 'public' || visibility.previewCategoryId !== undefined) return null
  if (sort.key !== 'published_at' || sort.direction !== 'desc' || typeof after?.value !== 'string') return null
  return after.value <= visibility.now ? 'keyset' : 'now'
}

/** The `content_fields` column that holds values of the field's type. */
export function valueColumn(field: FieldDefinition): 'value_text' | 'value_number' | 'value_boolean' {
  if (field.type === 'number') return 'value_number'
  if (field.type === 'boolean') return 'value_boolean'
  return 'value_text'
}

function sqlValue(value: FieldValue): SqlValue {
  return typeof value === 'boolean' ? (value ? 1 : 0) : value
}
