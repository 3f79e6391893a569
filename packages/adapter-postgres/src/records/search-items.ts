import type { FieldValue, SearchDocument, SearchSourceItem } from '@frontdesk/core'
import type { Sql } from '../connection/sql.ts'
import { inFieldIdOrder } from './contents.ts'

interface SearchItemRow {
  id: string
  category_id: string
  status: SearchDocument['status']
  published_at: string | null
  title: string
  summary: string
  body: string
  tag_names: string[]
  fields: Record<string, FieldValue>
}

const ITEMS = `SELECT c.id, c.category_id, c.status, c.published_at, c.title, c.summary, c.body, c.fields,
    ARRAY(SELECT t.name FROM unnest(c.tag_ids) WITH ORDINALITY AS u(tag_id, n) JOIN tags t ON t.tenant_id = c.tenant_id AND t.id = u.tag_id ORDER BY u.n) AS tag_names
  FROM contents c WHERE c.tenant_id = $1 AND c.id > $2 AND ($3::text IS NULL OR c.id < $3) ORDER BY c.id LIMIT $4`

/** One page of `SearchSource.readSearchItems`: the tenant's items with `after < id < before`, in id order. */
export async function selectSearchItems(sql: Sql, tenantId: string, range: { after: string | null; before?: string | null }, limit: number): Promise<SearchSourceItem[]> {
  const rows = await sql.rows<SearchItemRow>(ITEMS, [tenantId, range.after ?? '', range.before ?? null, Math.max(1, Math.floor(limit))])
  return rows.map((row) => ({
    doc: { id: row.id, category_id: row.category_id, status: row.status, published_at: row.published_at, tags: row.tag_names, fields: inFieldIdOrder(row.fields) },
    title: row.title,
    summary: row.summary,
    body: row.body,
  }))
}

/** How many items the tenant has, any status. */
export async function countContents(sql: Sql, tenantId: string): Promise<number> {
  return Number((await sql.rows<{ n: string }>('SELECT count(*) AS n FROM contents WHERE tenant_id = $1', [tenantId]))[0]?.n ?? 0)
}
