import type { ApiKeyRecord, Permission, Tenant } from '@frontdesk/core'
import type { Connection } from '../connection/statement-cache.ts'
import { parseJson } from './json-column.ts'

interface ApiKeyRow {
  id: string
  tenant_id: string
  name: string
  kind: ApiKeyRecord['kind']
  permissions: string
  hash: string
  prefix: string
  created_at: string
  last_used_at: string | null
  disabled_at: string | null
  rate_limit: number | null
}

const COLUMNS = 'id, tenant_id, name, kind, permissions, hash, prefix, created_at, last_used_at, disabled_at, rate_limit'
const PATCHABLE = ['disabled_at', 'last_used_at', 'rate_limit'] as const

function toApiKey(row: ApiKeyRow): ApiKeyRecord {
  return {
    id: row.id,
    tenant_id: row.tenant_id,
    name: row.name,
    kind: row.kind,
    permissions: parseJson(row.permissions) as Permission[],
    hash: row.hash,
    prefix: row.prefix,
    created_at: row.created_at,
    last_used_at: row.last_used_at,
    disabled_at: row.disabled_at,
    rate_limit: row.rate_limit,
  }
}

/** Inserts a key; throws when its id or hash is taken. */
export function insertApiKey(conn: Connection, r: ApiKeyRecord): void {
  conn
    .prepare(`INSERT INTO api_keys (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
    .run(r.id, r.tenant_id, r.name, r.kind, JSON.stringify(r.permissions), r.hash, r.prefix, r.created_at, r.last_used_at, r.disabled_at, r.rate_limit)
}

/** The key with this hash and its tenant, or `null`. */
export function selectApiKeyByHash(conn: Connection, hash: string): { key: ApiKeyRecord; tenant: Tenant } | null {
  const row = conn
    .prepare(
      `SELECT k.id, k.tenant_id, k.name, k.kind, k.permissions, k.hash, k.prefix, k.created_at, k.last_used_at,
              k.disabled_at, k.rate_limit, t.code AS tenant_code, t.name AS tenant_name, t.created_at AS tenant_created_at
         FROM api_keys k JOIN tenants t ON t.id = k.tenant_id WHERE k.hash = ?`,
    )
    .get(hash) as (ApiKeyRow & { tenant_code: string; tenant_name: string; tenant_created_at: string }) | undefined
  if (row === undefined) return null
  return {
    key: toApiKey(row),
    tenant: { id: row.tenant_id, code: row.tenant_code, name: row.tenant_name, created_at: row.tenant_created_at },
  }
}

/** The key with this id, or `null`. */
export function selectApiKey(conn: Connection, id: string): ApiKeyRecord | null {
  const row = conn.prepare(`SELECT ${COLUMNS} FROM api_keys WHERE id = ?`).get(id) as ApiKeyRow | undefined
  return row === undefined ? null : toApiKey(row)
}

/** The tenant's keys in creation order. */
export function selectApiKeys(conn: Connection, tenantId: string): ApiKeyRecord[] {
  const rows = conn.prepare(`SELECT ${COLUMNS} FROM api_keys WHERE tenant_id = ? ORDER BY created_at, id`).all(tenantId) as ApiKeyRow[]
  return rows.map(toApiKey)
}

/** Sets the patched columns; `false` when there is no such key. */
export function updateApiKeyColumns(
  conn: Connection,
  id: string,
  patch: Partial<Pick<ApiKeyRecord, 'disabled_at' | 'last_used_at' | 'rate_limit'>>,
): boolean {
  const columns = PATCHABLE.filter((column) => patch[column] !== undefined)
  if (columns.length === 0) return conn.prepare('SELECT 1 FROM api_keys WHERE id = ?').get(id) !== undefined
  const sql = `UPDATE api_keys SET ${columns.map((column) => `${column} = ?`).join(', ')} WHERE id = ?`
  return conn.prepare(sql).run(...columns.map((column) => patch[column] ?? null), id).changes > 0
}

/** Deletes a key; `false` when there was none. */
export function deleteApiKeyRow(conn: Connection, id: string): boolean {
  return conn.prepare('DELETE FROM api_keys WHERE id = ?').run(id).changes > 0
}
