import type { PreviewTokenRecord } from '@frontdesk/core'
import type { Sql } from '../connection/sql.ts'
import { generationOf } from './api-keys.ts'
import { BUMP_GENERATION } from './store-state.ts'

interface PreviewTokenRow {
  id: string
  tenant_id: string
  target_kind: PreviewTokenRecord['target']['kind']
  target_id: string
  hash: string
  created_at: string
  expires_at: string
  revoked_at: string | null
}

const COLUMNS = 'id, tenant_id, target_kind, target_id, hash, created_at, expires_at, revoked_at'

function toPreviewToken(row: PreviewTokenRow): PreviewTokenRecord {
  return {
    id: row.id, tenant_id: row.tenant_id, target: { kind: row.target_kind, id: row.target_id }, hash: row.hash,
    created_at: row.created_at, expires_at: row.expires_at, revoked_at: row.revoked_at,
  }
}

/** Inserts a token; throws when its id or hash is taken. */
export async function insertPreviewToken(sql: Sql, r: PreviewTokenRecord): Promise<void> {
  await sql.run(`INSERT INTO preview_tokens (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`, [
    r.id, r.tenant_id, r.target.kind, r.target.id, r.hash, r.created_at, r.expires_at, r.revoked_at,
  ])
}

/** The token with this hash, or `null`. */
export async function selectPreviewTokenByHash(sql: Sql, hash: string): Promise<PreviewTokenRecord | null> {
  const row = (await sql.rows<PreviewTokenRow>(`SELECT ${COLUMNS} FROM preview_tokens WHERE hash = $1`, [hash]))[0]
  return row === undefined ? null : toPreviewToken(row)
}

/** The token with this id, or `null`. */
export async function selectPreviewToken(sql: Sql, id: string): Promise<PreviewTokenRecord | null> {
  const row = (await sql.rows<PreviewTokenRow>(`SELECT ${COLUMNS} FROM preview_tokens WHERE id = $1`, [id]))[0]
  return row === undefined ? null : toPreviewToken(row)
}

/** Sets `revoked_at`; `null` when there is no such token, else the new generation. */
export async function updatePreviewTokenRevoked(sql: Sql, id: string, at: string): Promise<number | null> {
  const rows = await sql.rows<{ generation: string }>(
    `WITH p AS (UPDATE preview_tokens SET revoked_at = $2 WHERE id = $1 RETURNING 1) ${BUMP_GENERATION('p')}`,
    [id, at],
  )
  return generationOf(rows)
}
