import { endianness } from 'node:os'
import type { CategoryRecord, ContentRecord, FeedPosition } from '@frontdesk/core'
import { ANALYZER_VERSION } from '@frontdesk/core'
import { INDEX_FORMAT } from '../tenant/tenant-index.ts'

/**
 * What a tenant's snapshot misses, written by an import instead of the whole snapshot again
 * (see `snapshotAfterImport`): every item changed after the snapshot's feed position `base`
 * up to `position`, as the store held it after that position (removed ones by id), and the
 * tenant's categories then. A start restores the snapshot, indexes these items again over it
 * and replays the feed after `position` (see `SearchEngine`); a delta is used only on top of
 * the snapshot at exactly `base`, so one left by a snapshot written since is never applied.
 */
export interface SnapshotDelta {
  tenantId: string
  base: FeedPosition
  position: FeedPosition
  categories: CategoryRecord[]
  records: ContentRecord[]
  removed: string[]
}

/** What a delta's lead says, readable from its first `SNAPSHOT_LEAD_BYTES` bytes. */
export interface DeltaLead {
  tenantId: string
  base: FeedPosition
  position: FeedPosition
  /** Items it holds, changed and removed. */
  items: number
}

// Hint: not the snapshot's `FDSL`: a delta is never taken for a snapshot, nor a snapshot for a delta.
const MAGIC = 'FDSD'

/*
 * Layout: `FDSD`, the lead's length (uint32 LE), the lead (JSON: format, analyzer, byte order,
 * tenant, base and feed positions, items), then the body (JSON: categories, records, removed).
 */

/**
 * The snapshot store's name of the tenant's delta: the tenant's id with `-delta`, a name no
 * tenant has (ids are `ten_` and letters and digits), and the lead names the tenant again.
 */
export function deltaName(tenantId: string): string {
  return `${tenantId}-delta`
}

/** A delta as the bytes of its file. */
export function encodeDelta(delta: SnapshotDelta): Uint8Array[] {
  const encoder = new TextEncoder()
  const { tenantId, base, position, categories, records, removed } = delta
  const lead = encoder.encode(JSON.stringify({ format: INDEX_FORMAT, analyzer: ANALYZER_VERSION, endianness: endianness(), tenantId, base, position, items: records.length + removed.length }))
  const start = new Uint8Array(8)
  for (let i = 0; i < MAGIC.length; i++) start[i] = MAGIC.charCodeAt(i)
  new DataView(start.buffer).setUint32(4, lead.length, true)
  return [start, lead, encoder.encode(JSON.stringify({ categories, records, removed }))]
}

/**
 * The lead of the delta starting with `bytes`, or `null` when they start no delta usable for
 * the tenant's snapshot at `base`: not a delta, of another format, analyzer version or byte
 * order, another tenant's, or made over another snapshot.
 */
export function decodeDeltaLead(bytes: Uint8Array, tenantId: string, base: FeedPosition): (DeltaLead & { end: number }) | null {
  try {
    if (bytes.length < 8 || String.fromCharCode(bytes[0] ?? 0, bytes[1] ?? 0, bytes[2] ?? 0, bytes[3] ?? 0) !== MAGIC) return null
    const end = 8 + new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(4, true)
    if (end > bytes.length) return null
    const lead = JSON.parse(new TextDecoder().decode(bytes.subarray(8, end))) as Record<string, unknown>
    if (lead['format'] !== INDEX_FORMAT || lead['analyzer'] !== ANALYZER_VERSION || lead['endianness'] !== endianness()) return null
    if (lead['tenantId'] !== tenantId || lead['base'] !== base || typeof lead['position'] !== 'string' || typeof lead['items'] !== 'number') return null
    return { tenantId, base, position: lead['position'], items: lead['items'], end }
  } catch {
    return null
  }
}

/** The delta in `bytes`, or `null` when they hold none usable for the tenant's snapshot at `base` (see `decodeDeltaLead`; truncated or damaged too). */
export function decodeDelta(bytes: Uint8Array, tenantId: string, base: FeedPosition): SnapshotDelta | null {
  const lead = decodeDeltaLead(bytes, tenantId, base)
  if (lead === null) return null
  try {
    const body = JSON.parse(new TextDecoder().decode(bytes.subarray(lead.end))) as Partial<SnapshotDelta>
    const { categories, records, removed } = body
    if (!Array.isArray(categories) || !Array.isArray(records) || !Array.isArray(removed) || records.length + removed.length !== lead.items) return null
    return { tenantId, base, position: lead.position, categories, records, removed }
  } catch {
    return null
  }
}
