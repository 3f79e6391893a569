import type { Tenant } from '@frontdesk/core'
import type { Connection } from '../connection/statement-cache.ts'

/** A `tenants` row. */
export interface TenantRow {
  id: string
  code: string
  name: string
  created_at: string
}

const COLUMNS = 'id, code, name, created_at'

/** The tenant of a row. */
export function toTenant(row: TenantRow): Tenant {
  return { id: row.id, code: row.code, name: row.name, created_at: row.created_at }
}

/** Inserts a tenant; throws when its id or code is taken. */
export function insertTenant(conn: Connection, tenant: Tenant): void {
  conn.prepare(`INSERT INTO tenants (${COLUMNS}) VALUES (?, ?, ?, ?)`).run(tenant.id, tenant.code, tenant.name, tenant.created_at)
}

/** The tenant with this id, or `null`. */
export function selectTenant(conn: Connection, id: string): Tenant | null {
  const row = conn.prepare(`SELECT ${COLUMNS} FROM tenants WHERE id = ?`).get(id) as TenantRow | undefined
  return row === undefined ? null : toTenant(row)
}

/** The tenant with this code, or `null`. */
export function selectTenantByCode(conn: Connection, code: string): Tenant | null {
  const row = conn.prepare(`SELECT ${COLUMNS} FROM tenants WHERE code = ?`).get(code) as TenantRow | undefined
  return row === undefined ? null : toTenant(row)
}

/** Every tenant, ordered by code. */
export function selectTenants(conn: Connection): Tenant[] {
  return (conn.prepare(`SELECT ${COLUMNS} FROM tenants ORDER BY code`).all() as TenantRow[]).map(toTenant)
}

/** The tenant's revision counter (0 for an unknown tenant). */
export function selectRevision(conn: Connection, tenantId: string): number {
  const row = conn.prepare('SELECT revision FROM tenants WHERE id = ?').get(tenantId) as { revision: number } | undefined
  return row?.revision ?? 0
}
