import type { TagRecord } from '@frontdesk/core'
import type { Sql } from '../connection/sql.ts'

const COLUMNS = 'tenant_id, id, name'

/** Inserts or renames (by tenant and id) a tag. */
export async function upsertTag(sql: Sql, r: TagRecord): Promise<void> {
  await sql.run(`INSERT INTO tags (${COLUMNS}) VALUES ($1, $2, $3) ON CONFLICT (tenant_id, id) DO UPDATE SET name = EXCLUDED.name`, [r.tenant_id, r.id, r.name])
}

/** The tenant's tag with this id, or `null`. */
export async function selectTag(sql: Sql, tenantId: string, id: string): Promise<TagRecord | null> {
  return (await sql.rows<TagRecord>(`SELECT ${COLUMNS} FROM tags WHERE tenant_id = $1 AND id = $2`, [tenantId, id]))[0] ?? null
}

/** The tenant's tag with this name, or `null`. */
export async function selectTagByName(sql: Sql, tenantId: string, name: string): Promise<TagRecord | null> {
  return (await sql.rows<TagRecord>(`SELECT ${COLUMNS} FROM tags WHERE tenant_id = $1 AND name = $2`, [tenantId, name]))[0] ?? null
}

/** Every tag of the tenant, by name. */
export async function selectTags(sql: Sql, tenantId: string): Promise<TagRecord[]> {
  return sql.rows<TagRecord>(`SELECT ${COLUMNS} FROM tags WHERE tenant_id = $1 ORDER BY name`, [tenantId])
}

/** The ids of the tenant's tags with these names, in their order; `null` when a name is no tag's. */
export async function tagIdsOfNames(sql: Sql, tenantId: string, names: readonly string[]): Promise<string[] | null> {
  const rows = await sql.rows<{ id: string; name: string }>('SELECT id, name FROM tags WHERE tenant_id = $1 AND name = ANY($2::text[])', [tenantId, names])
  const byName = new Map(rows.map((row) => [row.name, row.id]))
  const ids: string[] = []
  for (const name of names) {
    const id = byName.get(name)
    if (id === undefined) return null
    ids.push(id)
  }
  return ids
}
