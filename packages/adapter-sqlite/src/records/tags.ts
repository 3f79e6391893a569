import type { TagRecord } from '@frontdesk/core'
import type { Connection } from '../connection/statement-cache.ts'

const COLUMNS = 'tenant_id, id, name'

function toTag(row: TagRecord): TagRecord {
  return { tenant_id: row.tenant_id, id: row.id, name: row.name }
}

/** Inserts or renames (by tenant and id) a tag. */
export function upsertTag(conn: Connection, r: TagRecord): void {
  conn
    .prepare(`INSERT INTO tags (${COLUMNS}) VALUES (?, ?, ?) ON CONFLICT (tenant_id, id) DO UPDATE SET name = excluded.name`)
    .run(r.tenant_id, r.id, r.name)
}

/** The tenant's tag with this id, or `null`. */
export function selectTag(conn: Connection, tenantId: string, id: string): TagRecord | null {
  const row = conn.prepare(`SELECT ${COLUMNS} FROM tags WHERE tenant_id = ? AND id = ?`).get(tenantId, id) as TagRecord | undefined
  return row === undefined ? null : toTag(row)
}

/** The tenant's tag with this name, or `null`. */
export function selectTagByName(conn: Connection, tenantId: string, name: string): TagRecord | null {
  const row = conn.prepare(`SELECT ${COLUMNS} FROM tags WHERE tenant_id = ? AND name = ?`).get(tenantId, name) as TagRecord | undefined
  return row === undefined ? null : toTag(row)
}

/** Every tag of the tenant, by name. */
export function selectTags(conn: Connection, tenantId: string): TagRecord[] {
  return (conn.prepare(`SELECT ${COLUMNS} FROM tags WHERE tenant_id = ? ORDER BY name`).all(tenantId) as TagRecord[]).map(toTag)
}
