import type { ContentRecord } from '@frontdesk/core'
import type { Connection } from '../connection/statement-cache.ts'
import type { ContentRow, TagLookup } from './contents.ts'
import { contentColumns, toContents } from './contents.ts'

// Hint: one statement for the whole list of ids (a JSON array): SQLite probes the primary key
// once per id, and a page of search hits costs one step into SQLite instead of one per hit.
const ITEMS_BY_IDS = `SELECT ${contentColumns()} FROM contents WHERE tenant_id = ? AND id IN (SELECT value FROM json_each(?))`

/**
 * The tenant's items with these ids, in the order of `ids`: `null` for an id that is no item of
 * the tenant, the same record again for a repeated id. Tag names come from `tag` (see `toContents`).
 */
export function selectContentsByIds(conn: Connection, tenantId: string, ids: readonly string[], tag: TagLookup): (ContentRecord | null)[] {
  if (ids.length === 0) return []
  const rows = conn.prepare(ITEMS_BY_IDS).all(tenantId, JSON.stringify(ids)) as ContentRow[]
  const byId = new Map<string, ContentRecord>()
  for (const record of toContents(rows, tag)) byId.set(record.id, record)
  return ids.map((id) => byId.get(id) ?? null)
}
