import type { CategoryRecord, FieldDefinition } from '@frontdesk/core'
import type { Connection } from '../connection/statement-cache.ts'
import { parseJson, toBoolean } from './json-column.ts'

interface CategoryRow {
  tenant_id: string
  id: string
  code: string
  name: string
  description: string
  sort: number
  active: number
  fields: string
  created_at: string
  updated_at: string
}

const COLUMNS = 'tenant_id, id, code, name, description, sort, active, fields, created_at, updated_at'

function toCategory(row: CategoryRow): CategoryRecord {
  return {
    tenant_id: row.tenant_id,
    id: row.id,
    code: row.code,
    name: row.name,
    description: row.description,
    sort: row.sort,
    active: toBoolean(row.active),
    fields: parseJson(row.fields) as unknown as FieldDefinition[],
    created_at: row.created_at,
    updated_at: row.updated_at,
  }
}

/** Inserts or replaces (by tenant and id) a category, in place so that its contents stay linked. */
export function upsertCategory(conn: Connection, r: CategoryRecord): void {
  conn
    .prepare(
      `INSERT INTO categories (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (tenant_id, id) DO UPDATE SET code = excluded.code, name = excluded.name,
         description = excluded.description, sort = excluded.sort, active = excluded.active,
         fields = excluded.fields, created_at = excluded.created_at, updated_at = excluded.updated_at`,
    )
    .run(r.tenant_id, r.id, r.code, r.name, r.description, r.sort, r.active ? 1 : 0, JSON.stringify(r.fields), r.created_at, r.updated_at)
}

/** The tenant's category with this id, or `null`. */
export function selectCategory(conn: Connection, tenantId: string, id: string): CategoryRecord | null {
  const row = conn.prepare(`SELECT ${COLUMNS} FROM categories WHERE tenant_id = ? AND id = ?`).get(tenantId, id) as CategoryRow | undefined
  return row === undefined ? null : toCategory(row)
}

/** The tenant's category with this code, or `null`. */
export function selectCategoryByCode(conn: Connection, tenantId: string, code: string): CategoryRecord | null {
  const row = conn.prepare(`SELECT ${COLUMNS} FROM categories WHERE tenant_id = ? AND code = ?`).get(tenantId, code) as CategoryRow | undefined
  return row === undefined ? null : toCategory(row)
}

/** Every category of the tenant, by `sort`, then `code`. */
export function selectCategories(conn: Connection, tenantId: string): CategoryRecord[] {
  const rows = conn.prepare(`SELECT ${COLUMNS} FROM categories WHERE tenant_id = ? ORDER BY sort, code`).all(tenantId) as CategoryRow[]
  return rows.map(toCategory)
}
