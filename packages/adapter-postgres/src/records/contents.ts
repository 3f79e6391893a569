import type { ContentRecord, FieldValue, JsonValue, Tag } from '@frontdesk/core'
import type { Sql, TransactionSql } from '../connection/sql.ts'

/** A `contents` row as `contentColumns` selects it. */
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
  tag_ids: string[]
  tag_names: string[]
  fields: Record<string, FieldValue>
}

// Hint: the item's tags in their order, only those that exist (as SQLite's join did), with their current names.
const TAGS_OF = (what: 'id' | 'name', c: string) =>
  `ARRAY(SELECT t.${what} FROM unnest(${c}.tag_ids) WITH ORDINALITY AS u(tag_id, n) JOIN tags t ON t.tenant_id = ${c}.tenant_id AND t.id = u.tag_id ORDER BY u.n)`

/**
 * The columns a record is read from, qualified with `c` (the alias of `contents`). A summary
 * (`ContentQuery.view`) leaves out the big ones: body, meta and field values.
 */
export function contentColumns(c = 'c', summary = false): string {
  const big = summary ? `'' AS body, '{}' AS meta, '{}'::jsonb AS fields` : `${c}.body, ${c}.meta, ${c}.fields`
  return `${c}.tenant_id, ${c}.id, ${c}.slug, ${c}.title, ${c}.category_id, ${c}.status, ${c}.published_at, ${c}.author_name, ${c}.summary, ${big},
    ${c}.version, ${c}.created_at, ${c}.updated_at, ${TAGS_OF('id', c)} AS tag_ids, ${TAGS_OF('name', c)} AS tag_names`
}

/** The record of a row. */
export function toContent(row: ContentRow): ContentRecord {
  const tags: Tag[] = row.tag_ids.map((id, i) => ({ id, name: row.tag_names[i] as string }))
  return {
    tenant_id: row.tenant_id, id: row.id, slug: row.slug, title: row.title, category_id: row.category_id, status: row.status,
    published_at: row.published_at, author_name: row.author_name, tags, summary: row.summary, body: row.body,
    fields: inFieldIdOrder(row.fields), meta: JSON.parse(row.meta) as Record<string, JsonValue>, version: row.version,
    created_at: row.created_at, updated_at: row.updated_at,
  }
}

/**
 * Field values keyed in code point order of their ids (jsonb keeps its own key order), the
 * order the SQLite store gives them in, so both stores print an item alike.
 */
export function inFieldIdOrder(fields: Readonly<Record<string, FieldValue>>): Record<string, FieldValue> {
  const ids = Object.keys(fields)
  if (ids.length < 2) return { ...fields }
  ids.sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)))
  const ordered: Record<string, FieldValue> = {}
  for (const id of ids) ordered[id] = fields[id] as FieldValue
  return ordered
}

/** The tenant's item with this id, or `null`. */
export async function selectContent(sql: Sql, tenantId: string, id: string): Promise<ContentRecord | null> {
  const row = (await sql.rows<ContentRow>(`SELECT ${contentColumns()} FROM contents c WHERE c.tenant_id = $1 AND c.id = $2`, [tenantId, id]))[0]
  return row === undefined ? null : toContent(row)
}

/** The tenant's item with this slug, or `null`. */
export async function selectContentBySlug(sql: Sql, tenantId: string, slug: string): Promise<ContentRecord | null> {
  const row = (await sql.rows<ContentRow>(`SELECT ${contentColumns()} FROM contents c WHERE c.tenant_id = $1 AND c.slug = $2`, [tenantId, slug]))[0]
  return row === undefined ? null : toContent(row)
}

/** The tenant's items with these ids, in the order of `ids` (`null` for none, the same record for a repeated id). */
export async function selectContentsByIds(sql: Sql, tenantId: string, ids: readonly string[]): Promise<(ContentRecord | null)[]> {
  if (ids.length === 0) return []
  const rows = await sql.rows<ContentRow>(`SELECT ${contentColumns()} FROM contents c WHERE c.tenant_id = $1 AND c.id = ANY($2::text[])`, [tenantId, [...new Set(ids)]])
  const byId = new Map(rows.map((row) => [row.id, toContent(row)]))
  return ids.map((id) => byId.get(id) ?? null)
}

const WRITTEN = [
  'tenant_id', 'id', 'slug', 'title', 'category_id', 'status', 'published_at', 'author_name', 'summary', 'body', 'meta',
  'version', 'created_at', 'updated_at', 'tag_ids', 'fields',
] as const

/** An item as `upsertContents` writes it: its column values, in the order of `WRITTEN`. */
export type ContentValues = (string | number | null)[]

// Hint: one statement for a whole batch of items (their columns as arrays, unnested): an import
// writes ~1,000 items per round trip instead of one. Tag ids travel as array literals (arrays of
// arrays do not unnest row by row) and fields as JSON text.
const UPSERT = `INSERT INTO contents (${WRITTEN.join(', ')})
  SELECT u.tenant_id, u.id, u.slug, u.title, u.category_id, u.status, u.published_at, u.author_name, u.summary, u.body, u.meta,
         u.version, u.created_at, u.updated_at, u.tag_ids::text[], u.fields::jsonb
    FROM unnest(${WRITTEN.map((column, i) => `$${i + 1}::${column === 'version' ? 'integer' : 'text'}[]`).join(', ')})
      AS u(${WRITTEN.join(', ')})
  ON CONFLICT (tenant_id, id) DO UPDATE SET ${WRITTEN.slice(2).map((column) => `${column} = EXCLUDED.${column}`).join(', ')}`

/** The column values of a record (computed when it is given, so later changes to the object do not reach the write). */
export function contentValues(r: ContentRecord): ContentValues {
  return [
    r.tenant_id, r.id, r.slug, r.title, r.category_id, r.status, r.published_at, r.author_name, r.summary, r.body,
    JSON.stringify(r.meta), r.version, r.created_at, r.updated_at, arrayLiteral(r.tags.map((tag) => tag.id)), JSON.stringify(r.fields),
  ]
}

/** Inserts or replaces (by tenant and id) items with their tags and field values; each (tenant, id) at most once. */
export async function upsertContents(sql: Sql, items: readonly ContentValues[]): Promise<void> {
  if (items.length === 0) return
  const columns = WRITTEN.map(() => [] as (string | number | null)[])
  for (const values of items) {
    for (let i = 0; i < values.length; i++) columns[i]?.push(values[i] as string | number | null)
  }
  await sql.run(UPSERT, columns)
}

const COPY = `COPY contents (${WRITTEN.join(', ')}) FROM STDIN`

/**
 * Inserts items known to be new (no row of the tenant has their id: see `TransactionWriter`)
 * with COPY, which costs the server about a third less than the `unnest` INSERT and the
 * client no array parameters (20,000 bench-like rows: 1.4-1.6 s against 0.9-1.1 s). There is
 * no ON CONFLICT: an id already stored fails the statement.
 */
export async function copyContents(sql: TransactionSql, items: readonly ContentValues[]): Promise<void> {
  if (items.length === 0) return
  let data = ''
  for (const values of items) {
    for (let i = 0; i < values.length; i++) {
      const value = values[i]
      data += (i === 0 ? '' : '\t') + (value === null || value === undefined ? '\\N' : copyText(String(value)))
    }
    data += '\n'
  }
  await sql.copy(COPY, data)
}

/** A value as COPY's text format reads it: backslash, newline, carriage return and tab escaped. */
function copyText(text: string): string {
  return /[\\\n\r\t]/.test(text) ? text.replace(/[\\\n\r\t]/g, (c) => (c === '\\' ? '\\\\' : c === '\n' ? '\\n' : c === '\r' ? '\\r' : '\\t')) : text
}

/** A PostgreSQL array literal of strings: `{"a","b"}`. */
function arrayLiteral(values: readonly string[]): string {
  return `{${values.map((value) => `"${value.replace(/["\\]/g, '\\$&')}"`).join(',')}}`
}

/** Deletes an item; `false` when there was none. */
export async function deleteContentRow(sql: Sql, tenantId: string, id: string): Promise<boolean> {
  return (await sql.run('DELETE FROM contents WHERE tenant_id = $1 AND id = $2', [tenantId, id])) > 0
}
