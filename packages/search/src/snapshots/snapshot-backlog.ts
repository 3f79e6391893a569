import type { ChangeFeed, SnapshotStore } from '@frontdesk/core'
import { decodeSnapshotLead, SNAPSHOT_LEAD_BYTES } from './snapshot-codec.ts'
import { decodeDeltaLead, deltaName } from './snapshot-delta.ts'

/** How far a tenant's snapshot is behind the change feed (see `snapshotBacklog`). */
export interface SnapshotBacklog {
  /** Live items in the snapshot. */
  items: number
  /** The tenant's changes in the feed after the snapshot's position (after its delta's, with one), counted up to `limit + 1` (more than `limit`). */
  changes: number
  /** With a delta over the snapshot (see `SnapshotDelta`): the items it holds, changed or removed. */
  delta?: { items: number }
}

/**
 * How far the tenant's snapshot (and its delta) is behind the change feed, read from their
 * leads and at most `limit + 1` entries of the feed: what a start that restores it would have
 * to replay. `null` when there is no snapshot a start would use (none, unreadable, of another
 * format or analyzer version, or at a position the feed does not reach: another database,
 * pruned). Costs the same whatever the tenant holds.
 */
export async function snapshotBacklog(
  store: Pick<ChangeFeed, 'readChanges'>,
  snapshots: SnapshotStore,
  tenantId: string,
  limit: number,
): Promise<SnapshotBacklog | null> {
  const lead = await leadOf(snapshots, tenantId, (bytes) => decodeSnapshotLead(bytes))
  if (lead === null) return null
  const delta = await leadOf(snapshots, deltaName(tenantId), (bytes) => decodeDeltaLead(bytes, tenantId, lead.position))
  const batch = await store.readChanges(delta?.position ?? lead.position, limit + 1, tenantId)
  if (batch === null) return null
  return { items: lead.items, changes: batch.changes.length, ...(delta === null ? {} : { delta: { items: delta.items } }) }
}

/** The lead of a snapshot store's file, decoded by `decode`; `null` when there is none. */
export async function leadOf<T>(snapshots: SnapshotStore, name: string, decode: (bytes: Uint8Array) => T | null): Promise<T | null> {
  const start = await (snapshots.readStart?.(name, SNAPSHOT_LEAD_BYTES) ?? snapshots.read(name)).catch(() => null)
  return start === null ? null : decode(start)
}
