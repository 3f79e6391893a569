import type { ContentQuery, FieldDefinition, FieldValue } from '@frontdesk/core'

/** A parameter SQLite accepts. */
export type SqlValue = string | number | null

/** Conditions on `contents c` (and the joins they need), with their positional parameters. */
export interface ContentFilters {
  joins: string[]
  where: string[]
  params: SqlValue[]
}

/**
 * The conditions of a `ContentQuery` apart from its sort and keyset: tenant, visibility,
 * categories, tags (AND), field values (AND). `nowBound` says how `published_at <= now` is
 * written: `index` (the list is in `published_at` order), `omit` (the caller's keyset bound
 * implies it), `filter` (checked per row, never used to pick an index: a range on
 * `published_at` would lure the planner away from the index that yields the sort order).
 */
export function contentFilters(tenantId: string, query: ContentQuery, nowBound: 'index' | 'omit' | 'filter'): ContentFilters {
  const joins: string[] = []
  const where: string[] = ['c.tenant_id = ?']
  const params: SqlValue[] = [tenantId]
  const { visibility } = query
  if (visibility.kind === 'public') {
    // Hint: CROSS JOIN pins the join order, so the sort comes from the driving table's index
    // even when statistics (ANALYZE) would tempt the planner to start from a small categories table.
    joins.push('CROSS JOIN categories cat ON cat.tenant_id = c.tenant_id AND cat.id = c.category_id')
    if (visibility.previewCategoryId === undefined) {
      const now = { index: ' AND c.published_at <= ?', filter: ' AND +c.published_at <= ?', omit: '' }[nowBound]
      where.push(`c.status = 'published'${now} AND cat.active = 1`)
      if (nowBound !== 'omit') params.push(visibility.now)
    } else {
      where.push(`((c.status = 'published' AND c.published_at <= ? AND cat.active = 1) OR c.category_id = ?)`)
      params.push(visibility.now, visibility.previewCategoryId)
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
  return { joins, where, params }
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
