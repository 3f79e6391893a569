import type { InquiryCategoryRecord } from '@frontdesk/core'
import type { Sql } from '../connection/sql.ts'

const COLUMNS = 'tenant_id, id, code, name, description, sort, active, message, created_at, updated_at'

/** Inserts or replaces (by tenant and id) an inquiry category. */
export async function upsertInquiryCategory(sql: Sql, r: InquiryCategoryRecord): Promise<void> {
  await sql.run(
    `INSERT INTO inquiry_categories (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
     ON CONFLICT (tenant_id, id) DO UPDATE SET code = EXCLUDED.code, name = EXCLUDED.name, description = EXCLUDED.description,
       sort = EXCLUDED.sort, active = EXCLUDED.active, message = EXCLUDED.message, created_at = EXCLUDED.created_at, updated_at = EXCLUDED.updated_at`,
    [r.tenant_id, r.id, r.code, r.name, r.description, r.sort, r.active, r.message, r.created_at, r.updated_at],
  )
}

/** The tenant's inquiry category with this id, or `null`. */
export async function selectInquiryCategory(sql: Sql, tenantId: string, id: string): Promise<InquiryCategoryRecord | null> {
  return (await sql.rows<InquiryCategoryRecord>(`SELECT ${COLUMNS} FROM inquiry_categories WHERE tenant_id = $1 AND id = $2`, [tenantId, id]))[0] ?? null
}

/** The tenant's inquiry category with this code, or `null`. */
export async function selectInquiryCategoryByCode(sql: Sql, tenantId: string, code: string): Promise<InquiryCategoryRecord | null> {
  return (await sql.rows<InquiryCategoryRecord>(`SELECT ${COLUMNS} FROM inquiry_categories WHERE tenant_id = $1 AND code = $2`, [tenantId, code]))[0] ?? null
}

/** Every inquiry category of the tenant, by `sort`, then `code`. */
export async function selectInquiryCategories(sql: Sql, tenantId: string): Promise<InquiryCategoryRecord[]> {
  return sql.rows<InquiryCategoryRecord>(`SELECT ${COLUMNS} FROM inquiry_categories WHERE tenant_id = $1 ORDER BY sort, code`, [tenantId])
}
