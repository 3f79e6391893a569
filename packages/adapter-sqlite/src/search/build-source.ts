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
 * Reads the items of `range` page by page (each page in one read transaction), as the search
 * documents `TenantSearchIndex.upsert` makes of the store's records (tags by name in their
 * order, field values keyed by field id in id order). Every page reflects a committed state at
 * least as new as any `change_log` row read before the first page; later changes are in the
 * log and are applied after the build.
 */
export function* readSourcePages(db: Database, range: SourceRange, pageSize = 500): Generator<SourceItem[]> {
  const items = db.prepare(ITEMS).raw(true) as Statement<unknown[], ItemRow>
  const tags = db.prepare(TAGS).raw(true) as Statement<unknown[], TagRow>
  const fields = db.prepare(FIELDS).raw(true) as Statement<unknown[], FieldRow>
  const readPage = db.transaction((after: string) => {
    const rows = items.all(range.tenantId, range.from, range.to, range.to, after, pageSize)
    const first = rows[0]?.[0]
    const last = rows[rows.length - 1]?.[0]
    if (first === undefined || last === undefined) return { rows, tagRows: [], fieldRows: [] }
    return { rows, tagRows: tags.all(range.tenantId, first, last), fieldRows: fields.all(range.tenantId, first, last) }
  })
  let after = ''
  for (;;) {
    const { rows, tagRows, fieldRows } = readPage(after)
    const page: SourceItem[] = []
    let t = 0
    let f = 0
    for (const [id, category_id, status, published_at, title, summary, body] of rows) {
      // Hint: read in one transaction, the links of the page belong to its rows (foreign keys) and come in the same order.
      const names: string[] = []
      for (let row = tagRows[t]; row !== undefined && row[0] === id; row = tagRows[++t]) names.push(row[1])
      const values: Record<string, FieldValue> = {}
      for (let row = fieldRows[f]; row !== undefined && row[0] === id; row = fieldRows[++f]) {
        // As the store reads a value: the column of its type.
        values[row[1]] = row[2] ?? row[3] ?? (row[4] === null ? '' : row[4] !== 0)
      }
      page.push({ doc: { id, category_id, status, published_at, tags: names, fields: values }, title, summary, body })
    }
    if (page.length > 0) yield page
    const last = rows[rows.length - 1]
    if (rows.length < pageSize || last === undefined) return
    after = last[0]
  }
}
