import type { ContentQuery, FieldDefinition } from '@frontdesk/core'
import type { SqlParam } from '../connection/sql.ts'
import { contentColumns } from '../records/contents.ts'

/** A statement and its parameters. */
export interface ListStatement {
  text: string
  params: SqlParam[]
}

/**
 * Translates a `ContentQuery` (tag names already resolved to ids, see `listContents`) into one
 * SELECT over `contents c`. Nothing is decided here: visibility, filters, sort and keyset are
 * carried out exactly as core resolved them.
 *
 * Keyset comparisons are row values, `(sort, id) > ($v, $id)`, so a deep page reads from its
 * place in the `(tenant_id, status, <sort>, id)` indexes instead of skipping the pages before
 * it. Items lacking the sort value (drafts' `published_at`, a custom field an item lacks or
 * holds with another type) come last in both directions. Tag filters use the GIN index on
 * `tag_ids`, field filters the one on `fields` (containment).
 */
export function listContentsSql(tenantId: string, query: ContentQuery): ListStatement {
  const params: SqlParam[] = []
  const p = (value: SqlParam): string => {
    params.push(value)
    return `$${params.length}`
  }
  const tenant = p(tenantId)
  const where = [`c.tenant_id = ${tenant}`]
  const { visibility } = query
  if (visibility.kind === 'public') {
    // Hint: "its category is active" as a test against the tenant's few inactive categories,
    // read once per statement, rather than a join: a join leaves the planner guessing how many
    // items each category holds, and a wrong guess (no statistics yet, after an import) sorted
    // every visible item for page 1 instead of reading 20 from the list order's index. Every
    // item has a category (the port deletes none).
    const inactive = `c.category_id <> ALL (ARRAY(SELECT i.id FROM categories i WHERE i.tenant_id = ${tenant} AND NOT i.active))`
    const published = `c.status = 'published' AND c.published_at <= ${p(visibility.now)} AND ${inactive}`
    where.push(visibility.previewCategoryId === undefined ? published : `((${published}) OR c.category_id = ${p(visibility.previewCategoryId)})`)
  }
  if (query.categoryIds !== undefined) {
    where.push(query.categoryIds.length === 0 ? 'false' : `c.category_id = ANY(${p(query.categoryIds)}::text[])`)
  }
  if (query.tagIds !== undefined && query.tagIds.length > 0) where.push(`c.tag_ids @> ${p(query.tagIds)}::text[]`)
  for (const { field, value } of query.fieldEquals ?? []) where.push(`c.fields @> ${p(JSON.stringify({ [field.id]: value }))}::jsonb`)

  const { key, direction } = query.sort
  const dir = direction === 'asc' ? 'ASC' : 'DESC'
  const cmp = direction === 'asc' ? '>' : '<'
  const { after } = query
  let order: string
  if (key === 'id') {
    order = `c.id ${dir}`
    if (after !== undefined) where.push(`c.id ${cmp} ${p(after.id)}`)
  } else {
    const { expr, cast, nullable } = typeof key === 'object'
      ? fieldSortValue(key.field, p)
      : { expr: `c.${key}`, cast: '', nullable: key === 'published_at' && !(visibility.kind === 'public' && visibility.previewCategoryId === undefined) }
    order = `${nullable ? `(${expr} IS NULL), ` : ''}${expr} ${dir}, c.id ${dir}`
    if (after !== undefined) {
      if (after.value === null) {
        where.push(`${expr} IS NULL AND c.id ${cmp} ${p(after.id)}`)
      } else {
        const past = `(${expr}, c.id) ${cmp} (${p(after.value)}${cast}, ${p(after.id)})`
        where.push(nullable ? `((${expr} IS NOT NULL AND ${past}) OR ${expr} IS NULL)` : past)
      }
    }
  }
  const limit = p(Math.max(0, Math.floor(query.limit)))
  const columns = contentColumns('c', query.view === 'summary')
  if (typeof key === 'object') {
    // Hint: a custom field has no index of its own: every item of the filter is read to sort
    // it. The page's ids are found first, from columns the category index holds (an
    // index-only scan once the table is vacuumed), then only those rows are read.
    const page = `SELECT c.tenant_id, c.id FROM contents c WHERE ${where.join(' AND ')} ORDER BY ${order} LIMIT ${limit}`
    return { text: `SELECT ${columns} FROM (${page}) k JOIN contents c ON c.tenant_id = k.tenant_id AND c.id = k.id ORDER BY ${order}`, params }
  }
  const text = `SELECT ${columns} FROM contents c
    WHERE ${where.join(' AND ')} ORDER BY ${order} LIMIT ${limit}`
  return { text, params }
}

/** A custom field's value as a sort key: of the field's type, else NULL (the item lacks it). */
function fieldSortValue(field: FieldDefinition, p: (value: SqlParam) => string): { expr: string; cast: string; nullable: true } {
  const id = p(field.id)
  const value = `(c.fields ->> ${id}::text)`
  if (field.type === 'number') return { expr: `(CASE WHEN jsonb_typeof(c.fields -> ${id}::text) = 'number' THEN ${value}::float8 END)`, cast: '::float8', nullable: true }
  if (field.type === 'boolean') return { expr: `(CASE WHEN jsonb_typeof(c.fields -> ${id}::text) = 'boolean' THEN ${value}::boolean END)`, cast: '::boolean', nullable: true }
  return { expr: `(CASE WHEN jsonb_typeof(c.fields -> ${id}::text) = 'string' THEN ${value} COLLATE "C" END)`, cast: '::text', nullable: true }
}
