import type { PreviewTokenRecord } from '@frontdesk/core'
import type { Connection } from '../connection/statement-cache.ts'

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
    id: row.id,
    tenant_id: row.tenant_id,
    target: { kind: row.target_kind, id: row.target_id },
    hash: row.hash,
    created_at: row.created_at,
    expires_at: row.expires_at,
    revoked_at: row.revoked_at,
  }
}

/** Inserts a token; throws when its id or hash is taken. */
export function insertPreviewToken(conn: Connection, r: PreviewTokenRecord): void {
  conn
    .prepare(`INSERT INTO preview_tokens (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`)
    .run(r.id, r.tenant_id, r.target.kind, r.target.id, r.hash, r.created_at, r.expires_at, r.revoked_at)
}

/** The token with this hash, or `null`. */
export function selectPreviewTokenByHash(conn: Connection, hash: string): PreviewTokenRecord | null {
  const row = conn.prepare(`SELECT ${COLUMNS} FROM preview_tokens WHERE hash = ?`).get(hash) as PreviewTokenRow | undefined
  return row === undefined ? null : toPreviewToken(row)
}

/** The token with this id, or `null`. */
export function selectPreviewToken(conn: Connection, id: string): PreviewTokenRecord | null {
  const row = conn.prepare(`SELECT ${COLUMNS} FROM preview_tokens WHERE id = ?`).get(id) as PreviewTokenRow | undefined
  return row === undefined ? null : toPreviewToken(row)
}

/** Sets `revoked_at`; `false` when there is no such token. */
export function updatePreviewTokenRevoked(conn: Connection, id: string, at: string): boolean {
  return conn.prepare('UPDATE preview_tokens SET revoked_at = ? WHERE id = ?').run(at, id).changes > 0
}
