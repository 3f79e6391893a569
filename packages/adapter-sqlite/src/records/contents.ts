import type { ContentRecord, FieldValue, JsonValue, Tag } from '@frontdesk/core'
import type { Connection } from '../connection/statement-cache.ts'
import { parseJson } from './json-column.ts'

/**
 * A `contents` row. Its tags and field values live in their link tables (for filters and
 * sorts) and, since schema v6, on the row too: `tag_ids` (a JSON array, in order) and
 * `field_values` (a JSON object keyed by field id, in field id order), so an item is read whole
 * from its row.
 */
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
  tag_ids: string
  field_values: string
}

/** A tag by id (`null` when there is none), as the reading connection knows it: see `tagLookup` (query/list-page.ts). */
export type TagLookup = (tenantId: string, id: string) => Tag | null

const COLUMNS = [
  'tenant_id', 'id', 'slug', 'title', 'category_id', 'status', 'published_at', 'author_name', 'summary', 'body', 'meta',
  'version', 'created_at', 'updated_at', 'tag_ids', 'field_values',
] as const

/**
 * The `contents` columns, for `SELECT` lists (qualified with `prefix`, e.g. `c.`). A list of
 * summaries reads `summaryColumns` instead.
 */
export function contentColumns(prefix = ''): string {
  return COLUMNS.map((column) => prefix + column).join(', ')
}

/**
 * The whole records of rows of one tenant, in the rows' order: tags and field values come from
 * each row's own columns, tag names from `tag` (a tag missing there is left out, as the join
 * through `tags` did). Without `withFields`, `fields` is `{}` (a summary, see `ContentQuery.view`).
 */
export function toContents(rows: readonly ContentRow[], tag: TagLookup, withFields = true): ContentRecord[] {
  return rows.map((row) => toRecord(row, tag, withFields))
}

function toRecord(row: ContentRow, tag: TagLookup, withFields = true): ContentRecord {
  const tags = tagsOf(row.tenant_id, row.tag_ids, tag)
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
    fields: withFields ? (JSON.parse(row.field_values) as Record<string, FieldValue>) : {},
    meta: parseJson(row.meta) as Record<string, JsonValue>,
    version: row.version,
    created_at: row.created_at,
    updated_at: row.updated_at,
  }
}

/**
 * The columns a list item is read from (the `summary` view of `ContentQuery`), in the order
 * `toSummaries` expects them: every column of the v7 covering list indexes, so a summary list in
 * their order reads no row. The tenant is the query's own, and `body`, `meta` and `field_values`
 * are the summary's constants: none of them is read.
 */
const SUMMARY_COLUMNS = [
  'id', 'slug', 'title', 'category_id', 'status', 'published_at', 'author_name', 'summary', 'version', 'created_at', 'updated_at', 'tag_ids',
] as const

/** `SUMMARY_COLUMNS` for a `SELECT` list, qualified with `prefix` (e.g. `c.`); read the rows with `raw()` and `toSummaries`. */
export function summaryColumns(prefix = ''): string {
  return SUMMARY_COLUMNS.map((column) => prefix + column).join(', ')
}

/**
 * The records of raw rows (arrays) of `summaryColumns` of one tenant, in the rows' order, as
 * `toContents` makes them without fields: `body` `''`, `meta` and `fields` `{}`. Arrays rather
 * than row objects, and four columns fewer, because building the values of a page is most of a
 * covered list statement's cost.
 */
export function toSummaries(tenantId: string, rows: readonly unknown[][], tag: TagLookup): ContentRecord[] {
  const records: ContentRecord[] = []
  for (const row of rows) {
    const [id, slug, title, categoryId, status, publishedAt, authorName, summary, version, createdAt, updatedAt, tagIds] = row as [
      string, string, string, string, ContentRecord['status'], string | null, string, string, number, string, string, string,
    ]
    records.push({
      tenant_id: tenantId,
      id,
      slug,
      title,
      category_id: categoryId,
      status,
      published_at: publishedAt,
      author_name: authorName,
      tags: tagsOf(tenantId, tagIds, tag),
      summary,
      body: '',
      fields: {},
      meta: {},
      version,
      created_at: createdAt,
      updated_at: updatedAt,
    })
  }
  return records
}

function tagsOf(tenantId: string, tagIds: string, tag: TagLookup): Tag[] {
  const tags: Tag[] = []
  for (const id of JSON.parse(tagIds) as string[]) {
    const found = tag(tenantId, id)
    // Hint: a fresh object per record: lookups may hand out a shared (frozen) one.
    if (found !== null) tags.push({ id: found.id, name: found.name })
  }
  return tags
}

// Hint: SQL texts built once: the statement cache is keyed by the text, and a text built per
// call is hashed and compared whole on every lookup (an import makes several per item).
const ITEM_BY_ID = `SELECT ${contentColumns()} FROM contents WHERE tenant_id = ? AND id = ?`
const ITEM_BY_SLUG = `SELECT ${contentColumns()} FROM contents WHERE tenant_id = ? AND slug = ?`
const INSERT_ITEM = `INSERT INTO contents (${contentColumns()}) VALUES (${COLUMNS.map(() => '?').join(', ')}) ON CONFLICT (tenant_id, id) DO NOTHING`
const UPDATE_ITEM = `UPDATE contents SET ${COLUMNS.slice(2).map((column) => `${column} = ?`).join(', ')} WHERE tenant_id = ? AND id = ?`
const LINKS_OF_ITEM = 'SELECT category_id, tag_ids, field_values FROM contents WHERE tenant_id = ? AND id = ?'
const INSERT_TAG_LINK = 'INSERT INTO content_tags (tenant_id, content_id, position, tag_id, category_id) VALUES (?, ?, ?, ?, ?)'
const DELETE_TAG_LINKS = 'DELETE FROM content_tags WHERE tenant_id = ? AND content_id = ?'
const MOVE_TAG_LINKS = 'UPDATE content_tags SET category_id = ? WHERE tenant_id = ? AND content_id = ?'
const DELETE_FIELD = 'DELETE FROM content_fields WHERE tenant_id = ? AND content_id = ? AND field_id = ?'
const UPSERT_FIELD = `INSERT INTO content_fields (tenant_id, content_id, field_id, value_text, value_number, value_boolean) VALUES (?, ?, ?, ?, ?, ?)
  ON CONFLICT (tenant_id, content_id, field_id) DO UPDATE SET
    value_text = excluded.value_text, value_number = excluded.value_number, value_boolean = excluded.value_boolean`

/** The tenant's item with this id, or `null`. */
export function selectContent(conn: Connection, tenantId: string, id: string, tag: TagLookup): ContentRecord | null {
  const row = conn.prepare(ITEM_BY_ID).get(tenantId, id) as ContentRow | undefined
  return row === undefined ? null : toRecord(row, tag)
}

/** The tenant's item with this slug, or `null`. */
export function selectContentBySlug(conn: Connection, tenantId: string, slug: string, tag: TagLookup): ContentRecord | null {
  const row = conn.prepare(ITEM_BY_SLUG).get(tenantId, slug) as ContentRow | undefined
  return row === undefined ? null : toRecord(row, tag)
}

/**
 * Inserts or replaces (by tenant and id) an item with its tags and field values. A new item is
 * inserted with its links straight away; an existing one is updated in place, and its links
 * are rewritten only when they changed (compared with the copies on its row), so that an
 * unchanged tag list or field value is not written again.
 */
export function upsertContent(conn: Connection, r: ContentRecord): void {
  const tagIds = JSON.stringify(r.tags.map((tag) => tag.id))
  const fieldValues = fieldValuesJson(r.fields)
  const values = [
    r.slug, r.title, r.category_id, r.status, r.published_at, r.author_name,
    r.summary, r.body, JSON.stringify(r.meta), r.version, r.created_at, r.updated_at, tagIds, fieldValues,
  ]
  // Hint: DO NOTHING covers the (tenant_id, id) conflict only; a taken slug still throws.
  const inserted = conn.prepare(INSERT_ITEM).run(r.tenant_id, r.id, ...values).changes > 0
  if (inserted) {
    insertTags(conn, r)
    for (const [fieldId, value] of Object.entries(r.fields)) upsertField(conn, r, fieldId, value)
    return
  }
  const before = conn.prepare(LINKS_OF_ITEM).get(r.tenant_id, r.id) as { category_id: string; tag_ids: string; field_values: string }
  conn.prepare(UPDATE_ITEM).run(...values, r.tenant_id, r.id)
  if (before.tag_ids !== tagIds) {
    conn.prepare(DELETE_TAG_LINKS).run(r.tenant_id, r.id)
    insertTags(conn, r)
  } else if (before.category_id !== r.category_id && r.tags.length > 0) {
    conn.prepare(MOVE_TAG_LINKS).run(r.category_id, r.tenant_id, r.id)
  }
  if (before.field_values !== fieldValues) writeFields(conn, r, JSON.parse(before.field_values) as Record<string, FieldValue>)
}

/** Deletes an item (its links go with it); `false` when there was none. */
export function deleteContentRow(conn: Connection, tenantId: string, id: string): boolean {
  return conn.prepare('DELETE FROM contents WHERE tenant_id = ? AND id = ?').run(tenantId, id).changes > 0
}

/**
 * `fields` as the `field_values` column holds them: a JSON object whose keys are in the order
 * SQLite sorts field ids (`BINARY`: UTF-8 bytes, i.e. code points), the order in which the link
 * table `content_fields` lists them, so a record reads back with its keys in the same order
 * whichever of the two it is read from.
 */
export function fieldValuesJson(fields: Readonly<Record<string, FieldValue>>): string {
  const ids = Object.keys(fields)
  if (ids.length === 0) return '{}'
  // Hint: below U+D800 (every id in practice), UTF-16 order is code point order.
  ids.sort(ids.some((id) => HIGH.test(id)) ? byCodePoint : undefined)
  const ordered: Record<string, FieldValue> = {}
  for (const id of ids) ordered[id] = fields[id] as FieldValue
  return JSON.stringify(ordered)
}

function byCodePoint(a: string, b: string): number {
  // Hint: UTF-16 order differs from code point order only where surrogates meet U+E000–U+FFFF.
  return Buffer.compare(Buffer.from(a), Buffer.from(b))
}

const HIGH = /[\uD800-\uFFFF]/

function insertTags(conn: Connection, r: ContentRecord): void {
  if (r.tags.length === 0) return
  // Hint: one statement per link: a multi-row INSERT per item costs more (system time).
  const insert = conn.prepare(INSERT_TAG_LINK)
  for (let position = 0; position < r.tags.length; position++) insert.run(r.tenant_id, r.id, position, r.tags[position]?.id, r.category_id)
}

function writeFields(conn: Connection, r: ContentRecord, current: Record<string, FieldValue>): void {
  const remove = conn.prepare(DELETE_FIELD)
  for (const fieldId of Object.keys(current)) {
    if (!Object.hasOwn(r.fields, fieldId)) remove.run(r.tenant_id, r.id, fieldId)
  }
  for (const [fieldId, value] of Object.entries(r.fields)) {
    if (Object.hasOwn(current, fieldId) && current[fieldId] === value) continue
    upsertField(conn, r, fieldId, value)
  }
}

function upsertField(conn: Connection, r: ContentRecord, fieldId: string, value: FieldValue): void {
  conn.prepare(UPSERT_FIELD).run(
    r.tenant_id, r.id, fieldId,
    typeof value === 'string' ? value : null,
    typeof value === 'number' ? value : null,
    typeof value === 'boolean' ? (value ? 1 : 0) : null,
  )
}
