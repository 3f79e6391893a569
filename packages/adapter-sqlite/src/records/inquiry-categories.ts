import type { InquiryCategoryRecord } from '@frontdesk/core'
import type { Connection } from '../connection/statement-cache.ts'
import { toBoolean } from './json-column.ts'

interface InquiryCategoryRow extends Omit<InquiryCategoryRecord, 'active'> {
  active: number
}

const COLUMNS = 'tenant_id, id, code, name, description, sort, active, message, created_at, updated_at'

function toInquiryCategory(row: InquiryCategoryRow): InquiryCategoryRecord {
  return {
    tenant_id: row.tenant_id,
    id: row.id,
    code: row.code,
    name: row.name,
    description: row.description,
    sort: row.sort,
    active: toBoolean(row.active),
    message: row.message,
    created_at: row.created_at,
    updated_at: row.updated_at,
  }
}

/** Inserts or replaces (by tenant and id) an inquiry category. */
export function upsertInquiryCategory(conn: Connection, r: InquiryCategoryRecord): void {
  conn
    .prepare(
      `INSERT INTO inquiry_categories (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (tenant_id, id) DO UPDATE SET code = excluded.code, name = excluded.name,
         description = excluded.description, sort = excluded.sort, active = excluded.active,
         message = excluded.message, created_at = excluded.created_at, updated_at = excluded.updated_at`,
    )
    .run(r.tenant_id, r.id, r.code, r.name, r.description, r.sort, r.active ? 1 : 0, r.message, r.created_at, r.updated_at)
}

/** The tenant's inquiry category with this id, or `null`. */
export function selectInquiryCategory(conn: Connection, tenantId: string, id: string): InquiryCategoryRecord | null {
  const sql = `SELECT ${COLUMNS} FROM inquiry_categories WHERE tenant_id = ? AND id = ?`
  const row = conn.prepare(sql).get(tenantId, id) as InquiryCategoryRow | undefined
  return row === undefined ? null : toInquiryCategory(row)
}

/** The tenant's inquiry category with this code, or `null`. */
export function selectInquiryCategoryByCode(conn: Connection, tenantId: string, code: string): InquiryCategoryRecord | null {
  const sql = `SELECT ${COLUMNS} FROM inquiry_categories WHERE tenant_id = ? AND code = ?`
  const row = conn.prepare(sql).get(tenantId, code) as InquiryCategoryRow | undefined
  return row === undefined ? null : toInquiryCategory(row)
}

/** Every inquiry category of the tenant, by `sort`, then `code`. */
export function selectInquiryCategories(conn: Connection, tenantId: string): InquiryCategoryRecord[] {
  const sql = `SELECT ${COLUMNS} FROM inquiry_categories WHERE tenant_id = ? ORDER BY sort, code`
  return (conn.prepare(sql).all(tenantId) as InquiryCategoryRow[]).map(toInquiryCategory)
}
