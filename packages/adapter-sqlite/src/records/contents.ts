import type { ContentRecord, FieldValue, JsonValue, Tag } from '@frontdesk/core'
import type { Connection } from '../connection/statement-cache.ts'
import { parseJson } from './json-column.ts'

/** A `contents` row (tags and field values live in their own tables). */
export interface ContentRow {
  tenant_id: string
  id: string
  slug: string
  title: string
  category_id: string
  status: ContentRecord['status']
  published_at: string | null
  author_name: string
  summary: string
  body: string
  meta: string
  version: number
  created_at: string
  updated_at: string
}

interface FieldRow {
  field_id: string
  value_text: string | null
  value_number: number | null
  value_boolean: number | null
}

/** The `contents` columns, for `SELECT` lists (qualified with `prefix`, e.g. `c.`). */
export function contentColumns(prefix = ''): string {
  return ['tenant_id', 'id', 'slug', 'title', 'category_id', 'status', 'published_at', 'author_name', 'summary', 'body', 'meta', 'version', 'created_at', 'updated_at']
    .map((column) => prefix + column)
    .join(', ')
}

/** The whole record of a row: its tags (in order) and field values are read alongside. */
export function toContent(conn: Connection, row: ContentRow): ContentRecord {
  return recordOf(row, selectContentTags(conn, row.tenant_id, row.id), selectContentFields(conn, row.tenant_id, row.id))
}

function recordOf(row: ContentRow, tags: Tag[], fields: Record<string, FieldValue>): ContentRecord {
  return {
    tenant_id: row.tenant_id,
    id: row.id,
    slug: row.slug,
    title: row.title,
    category_id: row.category_id,
    status: row.status,
    published_at: row.published_at,
    author_name: row.author_name,
    tags,
    summary: row.summary,
    body: row.body,
    fields,
    meta: parseJson(row.meta) as Record<string, JsonValue>,
    version: row.version,
    created_at: row.created_at,
    updated_at: row.updated_at,
  }
}

/**
 * The whole records of a page of rows of one tenant, in the rows' order: the tags and field
 * values of all of them are read with one statement each, not two per row. Without
 * `withFields`, field values are not read (`fields` is `{}`: a summary, see `ContentQuery.view`).
 */
export function toContents(conn: Connection, tenantId: string, rows: readonly ContentRow[], withFields = true): ContentRecord[] {
  if (rows.length === 0) return []
  if (rows.length === 1 && rows[0] !== undefined && withFields) return [toContent(conn, rows[0])]
  const ids = JSON.stringify(rows.map((row) => row.id))
  const tags = new Map<string, Tag[]>()
  const tagRows = conn
    .prepare(
      `SELECT ct.content_id, t.id, t.name FROM content_tags ct JOIN tags t ON t.tenant_id = ct.tenant_id AND t.id = ct.tag_id
        WHERE ct.tenant_id = ? AND ct.content_id IN (SELECT value FROM json_each(?)) ORDER BY ct.content_id, ct.position`,
    )
    .all(tenantId, ids) as (Tag & { content_id: string })[]
  for (const { content_id, id, name } of tagRows) {
    const list = tags.get(content_id)
    if (list === undefined) tags.set(content_id, [{ id, name }])
    else list.push({ id, name })
  }
  const fields = new Map<string, Record<string, FieldValue>>()
  const fieldRows = !withFields ? [] : conn
    .prepare(
      `SELECT content_id, field_id, value_text, value_number, value_boolean FROM content_fields
        WHERE tenant_id = ? AND content_id IN (SELECT value FROM json_each(?)) ORDER BY content_id, field_id`,
    )
    .all(tenantId, ids) as (FieldRow & { content_id: string })[]
  for (const row of fieldRows) {
    let values = fields.get(row.content_id)
    if (values === undefined) {
      values = {}
      fields.set(row.content_id, values)
    }
    values[row.field_id] = fieldValue(row)
  }
  return rows.map((row) => recordOf(row, tags.get(row.id) ?? [], fields.get(row.id) ?? {}))
}

// Hint: one statement reads an item whole (its tags in order and its field values as JSON
// arrays beside the row): no read transaction around three statements, one step into SQLite.
// SQLite writes REAL values to JSON with 17 significant digits, so numbers round-trip exactly.
const WHOLE_ITEM = `SELECT ${contentColumns('c.')},
  (SELECT json_group_array(json_array(t.id, t.name) ORDER BY ct.position)
     FROM content_tags ct JOIN tags t ON t.tenant_id = ct.tenant_id AND t.id = ct.tag_id
    WHERE ct.tenant_id = c.tenant_id AND ct.content_id = c.id) AS tag_list,
  (SELECT json_group_array(json_array(f.field_id, f.value_text, f.value_number, f.value_boolean) ORDER BY f.field_id)
     FROM content_fields f WHERE f.tenant_id = c.tenant_id AND f.content_id = c.id) AS field_list
  FROM contents c`

type WholeRow = ContentRow & { tag_list: string; field_list: string }

function wholeRecord(row: WholeRow | undefined): ContentRecord | null {
  if (row === undefined) return null
  const tags = (JSON.parse(row.tag_list) as [string, string][]).map(([id, name]) => ({ id, name }))
  const fields: Record<string, FieldValue> = {}
  for (const [field_id, value_text, value_number, value_boolean] of JSON.parse(row.field_list) as [string, string | null, number | null, number | null][]) {
    fields[field_id] = fieldValue({ field_id, value_text, value_number, value_boolean })
  }
  return recordOf(row, tags, fields)
}

// Hint: SQL texts built once: the statement cache is keyed by the text, and a text built per
// call is hashed and compared whole on every lookup (an import makes three per item).
const ITEM_BY_ID = `${WHOLE_ITEM} WHERE c.tenant_id = ? AND c.id = ?`
const ITEM_BY_SLUG = `${WHOLE_ITEM} WHERE c.tenant_id = ? AND c.slug = ?`
const INSERT_ITEM = `INSERT INTO contents (${contentColumns()}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (tenant_id, id) DO NOTHING`

/** The tenant's item with this id, or `null`. */
export function selectContent(conn: Connection, tenantId: string, id: string): ContentRecord | null {
  return wholeRecord(conn.prepare(ITEM_BY_ID).get(tenantId, id) as WholeRow | undefined)
}

/** The tenant's item with this slug, or `null`. */
export function selectContentBySlug(conn: Connection, tenantId: string, slug: string): ContentRecord | null {
  return wholeRecord(conn.prepare(ITEM_BY_SLUG).get(tenantId, slug) as WholeRow | undefined)
}

/**
 * Inserts or replaces (by tenant and id) an item with its tags and field values. A new item is
 * inserted with its links straight away; an existing one is updated in place, and its links
 * are rewritten only when they changed, so that an unchanged tag list or field value is not
 * written again.
 */
export function upsertContent(conn: Connection, r: ContentRecord): void {
  const values = [
    r.tenant_id, r.id, r.slug, r.title, r.category_id, r.status, r.published_at, r.author_name,
    r.summary, r.body, JSON.stringify(r.meta), r.version, r.created_at, r.updated_at,
  ]
  // Hint: DO NOTHING covers the (tenant_id, id) conflict only; a taken slug still throws.
  const inserted = conn.prepare(INSERT_ITEM).run(...values).changes > 0
  if (inserted) {
    insertTags(conn, r)
    for (const [fieldId, value] of Object.entries(r.fields)) upsertField(conn, r, fieldId, value)
    return
  }
  conn
    .prepare(
      `UPDATE contents SET slug = ?, title = ?, category_id = ?, status = ?, published_at = ?, author_name = ?,
         summary = ?, body = ?, meta = ?, version = ?, created_at = ?, updated_at = ?
       WHERE tenant_id = ? AND id = ?`,
    )
    .run(...values.slice(2), r.tenant_id, r.id)
  writeTags(conn, r)
  writeFields(conn, r)
}

/** Deletes an item (its links go with it); `false` when there was none. */
export function deleteContentRow(conn: Connection, tenantId: string, id: string): boolean {
  return conn.prepare('DELETE FROM contents WHERE tenant_id = ? AND id = ?').run(tenantId, id).changes > 0
}

function selectContentTags(conn: Connection, tenantId: string, contentId: string): Tag[] {
  return conn
    .prepare(
      `SELECT t.id, t.name FROM content_tags ct JOIN tags t ON t.tenant_id = ct.tenant_id AND t.id = ct.tag_id
        WHERE ct.tenant_id = ? AND ct.content_id = ? ORDER BY ct.position`,
    )
    .all(tenantId, contentId) as Tag[]
}

function selectContentFields(conn: Connection, tenantId: string, contentId: string): Record<string, FieldValue> {
  const rows = conn
    .prepare('SELECT field_id, value_text, value_number, value_boolean FROM content_fields WHERE tenant_id = ? AND content_id = ? ORDER BY field_id')
    .all(tenantId, contentId) as FieldRow[]
  const fields: Record<string, FieldValue> = {}
  for (const row of rows) {
    fields[row.field_id] = fieldValue(row)
  }
  return fields
}

function fieldValue(row: FieldRow): FieldValue {
  return row.value_text ?? row.value_number ?? (row.value_boolean === null ? '' : row.value_boolean !== 0)
}

function writeTags(conn: Connection, r: ContentRecord): void {
  const current = conn
    .prepare('SELECT tag_id FROM content_tags WHERE tenant_id = ? AND content_id = ? ORDER BY position')
    .pluck()
    .all(r.tenant_id, r.id) as string[]
  const next = r.tags.map((tag) => tag.id)
  if (current.length === next.length && current.every((id, i) => id === next[i])) return
  conn.prepare('DELETE FROM content_tags WHERE tenant_id = ? AND content_id = ?').run(r.tenant_id, r.id)
  insertTags(conn, r)
}

function insertTags(conn: Connection, r: ContentRecord): void {
  if (r.tags.length === 0) return
  const insert = conn.prepare('INSERT INTO content_tags (tenant_id, content_id, position, tag_id) VALUES (?, ?, ?, ?)')
  for (let position = 0; position < r.tags.length; position++) insert.run(r.tenant_id, r.id, position, r.tags[position]?.id)
}

function writeFields(conn: Connection, r: ContentRecord): void {
  const current = selectContentFields(conn, r.tenant_id, r.id)
  const remove = conn.prepare('DELETE FROM content_fields WHERE tenant_id = ? AND content_id = ? AND field_id = ?')
  for (const fieldId of Object.keys(current)) {
    if (!Object.hasOwn(r.fields, fieldId)) remove.run(r.tenant_id, r.id, fieldId)
  }
  for (const [fieldId, value] of Object.entries(r.fields)) {
    if (Object.hasOwn(current, fieldId) && current[fieldId] === value) continue
    upsertField(conn, r, fieldId, value)
  }
}

function upsertField(conn: Connection, r: ContentRecord, fieldId: string, value: FieldValue): void {
  conn
    .prepare(
      `INSERT INTO content_fields (tenant_id, content_id, field_id, value_text, value_number, value_boolean) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (tenant_id, content_id, field_id) DO UPDATE SET
         value_text = excluded.value_text, value_number = excluded.value_number, value_boolean = excluded.value_boolean`,
    )
    .run(
      r.tenant_id, r.id, fieldId,
      typeof value === 'string' ? value : null,
      typeof value === 'number' ? value : null,
      typeof value === 'boolean' ? (value ? 1 : 0) : null,
    )
}
