import type { Tenant } from '@frontdesk/core'
import type { Sql } from '../connection/sql.ts'

const COLUMNS = 'id, code, name, created_at'

/** Inserts a tenant; throws when its id or code is taken. */
export async function insertTenant(sql: Sql, t: Tenant): Promise<void> {
  await sql.run(`INSERT INTO tenants (${COLUMNS}) VALUES ($1, $2, $3, $4)`, [t.id, t.code, t.name, t.created_at])
}

/** The tenant with this id, or `null`. */
export async function selectTenant(sql: Sql, id: string): Promise<Tenant | null> {
  return (await sql.rows<Tenant>(`SELECT ${COLUMNS} FROM tenants WHERE id = $1`, [id]))[0] ?? null
}

/** The tenant with this code, or `null`. */
export async function selectTenantByCode(sql: Sql, code: string): Promise<Tenant | null> {
  return (await sql.rows<Tenant>(`SELECT ${COLUMNS} FROM tenants WHERE code = $1`, [code]))[0] ?? null
}

/** Every tenant, ordered by code. */
export async function selectTenants(sql: Sql): Promise<Tenant[]> {
  return sql.rows<Tenant>(`SELECT ${COLUMNS} FROM tenants ORDER BY code`)
}

/** The tenant's revision counter (0 for an unknown tenant). */
export async function selectRevision(sql: Sql, tenantId: string): Promise<number> {
  const row = (await sql.rows<{ revision: string }>('SELECT revision FROM tenants WHERE id = $1', [tenantId]))[0]
  return row === undefined ? 0 : Number(row.revision)
}
