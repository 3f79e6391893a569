import type { ChangeFeed, SnapshotStore } from '@frontdesk/core'
import { decodeSnapshotLead, SNAPSHOT_LEAD_BYTES } from './snapshot-codec.ts'

/** How far a tenant's snapshot is behind the change feed (see `snapshotBacklog`). */
export interface SnapshotBacklog {
  /** Live items in the snapshot. */
  items: number
  /** The tenant's changes in the feed after the snapshot's position, counted up to `limit + 1` (more than `limit`). */
  changes: number
}

/**
 * How far the tenant's snapshot is behind the change feed, read from the snapshot's lead and
 * at most `limit + 1` entries of the feed: what a start that restores it would have to replay.
 * `null` when there is no snapshot a start would use (none, unreadable, of another format or
 * analyzer version, or at a position the feed does not reach: another database, pruned).
 * Costs the same whatever the tenant holds.
 */
export async function snapshotBacklog(
  store: Pick<ChangeFeed, 'readChanges'>,
  snapshots: SnapshotStore,
  tenantId: string,
  limit: number,
): Promise<SnapshotBacklog | null> {
  const start = await (snapshots.readStart?.(tenantId, SNAPSHOT_LEAD_BYTES) ?? snapshots.read(tenantId)).catch(() => null)
  const lead = start === null ? null : decodeSnapshotLead(start)
  if (lead === null) return null
  const batch = await store.readChanges(lead.position, limit + 1, tenantId)
  if (batch === null) return null
  return { items: lead.items, changes: batch.changes.length }
}
