import type { FieldValue, SearchDocument, SearchSourceItem } from '@frontdesk/core'
import type { Connection } from '../connection/statement-cache.ts'

// Hint: rows as arrays (`raw`), only the columns an index reads, the tags and field values of
// a whole page with one statement each, merged by id: no per-row subqueries, JSON or objects
// beyond the search document itself.
const ITEMS = `SELECT id, category_id, status, published_at, title, summary, body FROM contents
  WHERE tenant_id = ? AND id > ? AND (? IS NULL OR id < ?) ORDER BY id LIMIT ?`
const TAGS = `SELECT ct.content_id, t.name FROM content_tags ct JOIN tags t ON t.tenant_id = ct.tenant_id AND t.id = ct.tag_id
  WHERE ct.tenant_id = ? AND ct.content_id >= ? AND ct.content_id <= ? ORDER BY ct.content_id, ct.position`
const FIELDS = `SELECT content_id, field_id, value_text, value_number, value_boolean FROM content_fields
  WHERE tenant_id = ? AND content_id >= ? AND content_id <= ? ORDER BY content_id, field_id`

type ItemRow = [id: string, category_id: string, status: SearchDocument['status'], published_at: string | null, title: string, summary: string, body: string]
type TagRow = [content_id: string, name: string]
type FieldRow = [content_id: string, field_id: string, value_text: string | null, value_number: number | null, value_boolean: number | null]

/**
 * One page of `SearchSource.readSearchItems`: the tenant's items with `after < id < before`
 * in id order, tags by name in their order, field values keyed by field id in id order. The
 * three statements run without an explicit read transaction (one left open by a failing
 * `ROLLBACK` would hide every later commit from the shared reader): a change committed
 * between them is in the change feed after any position read before, and is applied after
 * the build.
 */
export function selectSearchItems(conn: Connection, tenantId: string, range: { after: string | null; before?: string | null }, limit: number): SearchSourceItem[] {
  const before = range.before ?? null
  const rows = conn.prepare(ITEMS).raw(true).all(tenantId, range.after ?? '', before, before, Math.max(1, Math.floor(limit))) as ItemRow[]
  const first = rows[0]?.[0]
  const last = rows[rows.length - 1]?.[0]
  const tagsOf = new Map<string, string[]>()
  const valuesOf = new Map<string, Record<string, FieldValue>>()
  if (first !== undefined && last !== undefined) {
    for (const [id, name] of conn.prepare(TAGS).raw(true).all(tenantId, first, last) as TagRow[]) {
      const names = tagsOf.get(id)
      if (names === undefined) tagsOf.set(id, [name])
      else names.push(name)
    }
    for (const [id, field, text, number, boolean] of conn.prepare(FIELDS).raw(true).all(tenantId, first, last) as FieldRow[]) {
      let values = valuesOf.get(id)
      if (values === undefined) valuesOf.set(id, (values = {}))
      // As the store reads a value: the column of its type.
      values[field] = text ?? number ?? (boolean === null ? '' : boolean !== 0)
    }
  }
  return rows.map(([id, category_id, status, published_at, title, summary, body]) => ({
    doc: { id, category_id, status, published_at, tags: tagsOf.get(id) ?? [], fields: valuesOf.get(id) ?? {} },
    title,
    summary,
    body,
  }))
}

/** How many items the tenant has, any status. */
export function countContents(conn: Connection, tenantId: string): number {
  return conn.prepare('SELECT count(*) FROM contents WHERE tenant_id = ?').pluck().get(tenantId) as number
}
