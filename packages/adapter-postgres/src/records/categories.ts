import type { CategoryRecord, FieldDefinition } from '@frontdesk/core'
import type { Sql } from '../connection/sql.ts'

interface CategoryRow extends Omit<CategoryRecord, 'fields'> {
  fields: string
}

const COLUMNS = 'tenant_id, id, code, name, description, sort, active, fields, created_at, updated_at'

function toCategory(row: CategoryRow): CategoryRecord {
  return {
    tenant_id: row.tenant_id, id: row.id, code: row.code, name: row.name, description: row.description, sort: row.sort,
    active: row.active, fields: JSON.parse(row.fields) as FieldDefinition[], created_at: row.created_at, updated_at: row.updated_at,
  }
}

/** Inserts or replaces (by tenant and id) a category, in place. */
export async function upsertCategory(sql: Sql, r: CategoryRecord): Promise<void> {
  await sql.run(
    `INSERT INTO categories (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
     ON CONFLICT (tenant_id, id) DO UPDATE SET code = EXCLUDED.code, name = EXCLUDED.name, description = EXCLUDED.description,
       sort = EXCLUDED.sort, active = EXCLUDED.active, fields = EXCLUDED.fields, created_at = EXCLUDED.created_at, updated_at = EXCLUDED.updated_at`,
    [r.tenant_id, r.id, r.code, r.name, r.description, r.sort, r.active, JSON.stringify(r.fields), r.created_at, r.updated_at],
  )
}

/** The tenant's category with this id, or `null`. */
export async function selectCategory(sql: Sql, tenantId: string, id: string): Promise<CategoryRecord | null> {
  const row = (await sql.rows<CategoryRow>(`SELECT ${COLUMNS} FROM categories WHERE tenant_id = $1 AND id = $2`, [tenantId, id]))[0]
  return row === undefined ? null : toCategory(row)
}

/** The tenant's category with this code, or `null`. */
export async function selectCategoryByCode(sql: Sql, tenantId: string, code: string): Promise<CategoryRecord | null> {
  const row = (await sql.rows<CategoryRow>(`SELECT ${COLUMNS} FROM categories WHERE tenant_id = $1 AND code = $2`, [tenantId, code]))[0]
  return row === undefined ? null : toCategory(row)
}

/** Every category of the tenant, by `sort`, then `code`. */
export async function selectCategories(sql: Sql, tenantId: string): Promise<CategoryRecord[]> {
  return (await sql.rows<CategoryRow>(`SELECT ${COLUMNS} FROM categories WHERE tenant_id = $1 ORDER BY sort, code`, [tenantId])).map(toCategory)
}
