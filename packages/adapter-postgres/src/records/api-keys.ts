import type { ApiKeyRecord, Permission, Tenant } from '@frontdesk/core'
import type { Sql } from '../connection/sql.ts'
import { BUMP_GENERATION } from './store-state.ts'

interface ApiKeyRow extends Omit<ApiKeyRecord, 'permissions'> {
  permissions: string
}

const COLUMNS = 'id, tenant_id, name, kind, permissions, hash, prefix, created_at, last_used_at, disabled_at, rate_limit'
const PATCHABLE = ['disabled_at', 'last_used_at', 'rate_limit'] as const

function toApiKey(row: ApiKeyRow): ApiKeyRecord {
  return {
    id: row.id, tenant_id: row.tenant_id, name: row.name, kind: row.kind, permissions: JSON.parse(row.permissions) as Permission[],
    hash: row.hash, prefix: row.prefix, created_at: row.created_at, last_used_at: row.last_used_at, disabled_at: row.disabled_at,
    rate_limit: row.rate_limit,
  }
}

/** Inserts a key; throws when its id or hash is taken. */
export async function insertApiKey(sql: Sql, r: ApiKeyRecord): Promise<number | null> {
  const rows = await sql.rows<{ generation: string }>(
    `WITH k AS (INSERT INTO api_keys (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING 1)
     ${BUMP_GENERATION('k')}`,
    [r.id, r.tenant_id, r.name, r.kind, JSON.stringify(r.permissions), r.hash, r.prefix, r.created_at, r.last_used_at, r.disabled_at, r.rate_limit],
  )
  return generationOf(rows)
}

/** The key with this hash and its tenant, or `null`. */
export async function selectApiKeyByHash(sql: Sql, hash: string): Promise<{ key: ApiKeyRecord; tenant: Tenant } | null> {
  const row = (
    await sql.rows<ApiKeyRow & { tenant_code: string; tenant_name: string; tenant_created_at: string }>(
      `SELECT k.id, k.tenant_id, k.name, k.kind, k.permissions, k.hash, k.prefix, k.created_at, k.last_used_at, k.disabled_at, k.rate_limit,
              t.code AS tenant_code, t.name AS tenant_name, t.created_at AS tenant_created_at
         FROM api_keys k JOIN tenants t ON t.id = k.tenant_id WHERE k.hash = $1`,
      [hash],
    )
  )[0]
  if (row === undefined) return null
  return { key: toApiKey(row), tenant: { id: row.tenant_id, code: row.tenant_code, name: row.tenant_name, created_at: row.tenant_created_at } }
}

/** The key with this id, or `null`. */
export async function selectApiKey(sql: Sql, id: string): Promise<ApiKeyRecord | null> {
  const row = (await sql.rows<ApiKeyRow>(`SELECT ${COLUMNS} FROM api_keys WHERE id = $1`, [id]))[0]
  return row === undefined ? null : toApiKey(row)
}

/** The tenant's keys in creation order. */
export async function selectApiKeys(sql: Sql, tenantId: string): Promise<ApiKeyRecord[]> {
  return (await sql.rows<ApiKeyRow>(`SELECT ${COLUMNS} FROM api_keys WHERE tenant_id = $1 ORDER BY created_at, id`, [tenantId])).map(toApiKey)
}

/**
 * Sets the patched columns and moves the store's generation in the same statement (memoised
 * key lookups of every process then read it again); `null` when there is no such key, else the
 * new generation.
 */
export async function updateApiKeyColumns(
  sql: Sql,
  id: string,
  patch: Partial<Pick<ApiKeyRecord, 'disabled_at' | 'last_used_at' | 'rate_limit'>>,
): Promise<number | null> {
  const columns = PATCHABLE.filter((column) => patch[column] !== undefined)
  if (columns.length === 0) {
    const found = await sql.rows<{ generation: string }>('SELECT generation FROM frontdesk_state WHERE EXISTS (SELECT 1 FROM api_keys WHERE id = $1)', [id])
    return generationOf(found)
  }
  const set = columns.map((column, i) => `${column} = $${i + 2}`).join(', ')
  const rows = await sql.rows<{ generation: string }>(
    `WITH k AS (UPDATE api_keys SET ${set} WHERE id = $1 RETURNING 1) ${BUMP_GENERATION('k')}`,
    [id, ...columns.map((column) => patch[column] ?? null)],
  )
  return generationOf(rows)
}

/** Deletes a key; `null` when there was none, else the new generation. */
export async function deleteApiKeyRow(sql: Sql, id: string): Promise<number | null> {
  const rows = await sql.rows<{ generation: string }>(`WITH k AS (DELETE FROM api_keys WHERE id = $1 RETURNING 1) ${BUMP_GENERATION('k')}`, [id])
  return generationOf(rows)
}

/** The generation a `BUMP_GENERATION` statement returned, `null` when it wrote nothing. */
export function generationOf(rows: { generation: string }[]): number | null {
  const row = rows[0]
  return row === undefined ? null : Number(row.generation)
}
