import type { FieldValue, SearchDocument } from '@frontdesk/core'
import type { Database, Statement } from 'better-sqlite3'

/** What the index needs of one item: its search document and the raw text of its searched columns. */
export interface SourceItem {
  doc: SearchDocument
  title: string
  summary: string
  /** HTML, as stored. */
  body: string
}

/** The items of a tenant with `from <= id < to` (`to` null: no upper bound), in id order. */
export interface SourceRange {
  tenantId: string
  /** Lower bound (inclusive); `''` for the first range. */
  from: string
  /** Upper bound (exclusive); `null` for the last range. */
  to: string | null
}

// Hint: rows as arrays (`raw`), only the columns the index reads, tags and field values of a
// whole page with one statement each, merged by id: no per-row subqueries, JSON or objects
// beyond the search document itself. The store's own reads give whole records (meta, dates,
// version…) the index never looks at.
const ITEMS = `SELECT id, category_id, status, published_at, title, summary, body FROM contents
  WHERE tenant_id = ? AND id >= ? AND (? IS NULL OR id < ?) AND id > ? ORDER BY id LIMIT ?`
const TAGS = `SELECT ct.content_id, t.name FROM content_tags ct JOIN tags t ON t.tenant_id = ct.tenant_id AND t.id = ct.tag_id
  WHERE ct.tenant_id = ? AND ct.content_id >= ? AND ct.content_id <= ? ORDER BY ct.content_id, ct.position`
const FIELDS = `SELECT content_id, field_id, value_text, value_number, value_boolean FROM content_fields
  WHERE tenant_id = ? AND content_id >= ? AND content_id <= ? ORDER BY content_id, field_id`

type ItemRow = [id: string, category_id: string, status: SearchDocument['status'], published_at: string | null, title: string, summary: string, body: string]
type TagRow = [content_id: string, name: string]
type FieldRow = [content_id: string, field_id: string, value_text: string | null, value_number: number | null, value_boolean: number | null]

/**
 * Reads the items of `range` page by page, as the search documents `TenantSearchIndex.upsert`
 * makes of the store's records (tags by name in their order, field values keyed by field id
 * in id order). Every statement reads a committed state at least as new as any `change_log`
 * row read before the first page; a change committed between two statements is in the log
 * after that row and is applied after the build (as the store's own reads, no explicit read
 * transaction: one left open by a failing `ROLLBACK` would hide every later commit from the
 * shared reader connection).
 */
export function* readSourcePages(db: Database, range: SourceRange, pageSize = 500): Generator<SourceItem[]> {
  const items = db.prepare(ITEMS).raw(true) as Statement<unknown[], ItemRow>
  const tags = db.prepare(TAGS).raw(true) as Statement<unknown[], TagRow>
  const fields = db.prepare(FIELDS).raw(true) as Statement<unknown[], FieldRow>
  let after = ''
  for (;;) {
    const rows = items.all(range.tenantId, range.from, range.to, range.to, after, pageSize)
    const first = rows[0]?.[0]
    const last = rows[rows.length - 1]?.[0]
    // Links grouped by item id: rows and links are read by separate statements (see above), so they need not pair up.
    const tagsOf = new Map<string, string[]>()
    const valuesOf = new Map<string, Record<string, FieldValue>>()
    if (first !== undefined && last !== undefined) {
      for (const [id, name] of tags.all(range.tenantId, first, last)) {
        const names = tagsOf.get(id)
        if (names === undefined) tagsOf.set(id, [name])
        else names.push(name)
      }
      for (const [id, field, text, number, boolean] of fields.all(range.tenantId, first, last)) {
        let values = valuesOf.get(id)
        if (values === undefined) valuesOf.set(id, (values = {}))
        // As the store reads a value: the column of its type.
        values[field] = text ?? number ?? (boolean === null ? '' : boolean !== 0)
      }
    }
    const page: SourceItem[] = []
    for (const [id, category_id, status, published_at, title, summary, body] of rows) {
      page.push({ doc: { id, category_id, status, published_at, tags: tagsOf.get(id) ?? [], fields: valuesOf.get(id) ?? {} }, title, summary, body })
    }
    if (page.length > 0) yield page
    if (rows.length < pageSize || last === undefined) return
    after = last
  }
}
