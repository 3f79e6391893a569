import { endianness } from 'node:os'
import type { CategoryRecord, FeedPosition, SearchDocument } from '@frontdesk/core'
import { ANALYZER_VERSION } from '@frontdesk/core'
import type { AnalyzedDocs } from '../matching/analyzed-docs.ts'
import { analyzedDocsValid } from '../matching/analyzed-docs.ts'
import { INDEX_FORMAT } from '../tenant/tenant-index.ts'

/**
 * What a tenant's snapshot misses, written by an import instead of the whole snapshot again
 * (see `snapshotAfterImport`): every item changed after the snapshot's feed position `base`
 * up to `position`, as the store held it after that position (removed ones by id), as the
 * index keeps it and with its indexed terms already analysed, and the tenant's categories
 * then. A start restores the snapshot, indexes these items over it without analysing their
 * texts again (`TenantSearchIndex.upsertAnalyzed`) and replays the feed after `position` (see
 * `SearchEngine`); a delta is used only on top of the snapshot at exactly `base`, so one left
 * by a snapshot written since is never applied.
 */
export interface SnapshotDelta {
  tenantId: string
  base: FeedPosition
  position: FeedPosition
  categories: CategoryRecord[]
  items: SearchDocument[]
  /** The indexed terms of `items`, in their order, analysed with `categories`. */
  terms: AnalyzedDocs
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

/**
 * The layout of deltas this version writes and reads. 1 (no `delta` in the lead) held the
 * changed items' records, analysed again by a start; such deltas are ignored (as none: the
 * start replays the feed from the snapshot, or builds), and the next import writes a new one.
 */
const DELTA_FORMAT = 2

/*
 * Layout: `FDSD`, the lead's length (uint32 LE), the lead (JSON: format, analyzer, byte order,
 * delta layout, tenant, base and feed positions, items), the body's length (uint32 LE), the
 * body (JSON: categories, items, removed, and the analysed terms' strings and CJK numbers),
 * zero padding to a multiple of 4 bytes, then the analysed terms' numbers (uint32, the
 * machine's byte order, recorded in the lead; see `AnalyzedDocs`).
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
  const { tenantId, base, position, categories, items, terms, removed } = delta
  const lead = encoder.encode(JSON.stringify({ format: INDEX_FORMAT, analyzer: ANALYZER_VERSION, endianness: endianness(), delta: DELTA_FORMAT, tenantId, base, position, items: items.length + removed.length }))
  const body = encoder.encode(JSON.stringify({ categories, items, removed, terms: terms.terms, cjk: terms.cjk }))
  const start = new Uint8Array(8)
  for (let i = 0; i < MAGIC.length; i++) start[i] = MAGIC.charCodeAt(i)
  new DataView(start.buffer).setUint32(4, lead.length, true)
  const length = new Uint8Array(4)
  new DataView(length.buffer).setUint32(0, body.length, true)
  const end = 8 + lead.length + 4 + body.length
  const numbers = terms.numbers
  // Hint: no empty pieces (no padding needed, or a delta of removals only): see `snapshotPieces`.
  return [start, lead, length, body, new Uint8Array((4 - (end % 4)) % 4), new Uint8Array(numbers.buffer, numbers.byteOffset, numbers.byteLength)].filter((piece) => piece.length > 0)
}

/**
 * The lead of the delta starting with `bytes`, or `null` when they start no delta usable for
 * the tenant's snapshot at `base`: not a delta, of another format, layout, analyzer version or
 * byte order, another tenant's, or made over another snapshot. With `base` `null`, a delta
 * over any snapshot: the caller applies it only over the one at its `base`.
 */
export function decodeDeltaLead(bytes: Uint8Array, tenantId: string, base: FeedPosition | null): (DeltaLead & { end: number }) | null {
  try {
    if (bytes.length < 8 || String.fromCharCode(bytes[0] ?? 0, bytes[1] ?? 0, bytes[2] ?? 0, bytes[3] ?? 0) !== MAGIC) return null
    const end = 8 + new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(4, true)
    if (end > bytes.length) return null
    const lead = JSON.parse(new TextDecoder().decode(bytes.subarray(8, end))) as Record<string, unknown>
    if (lead['format'] !== INDEX_FORMAT || lead['analyzer'] !== ANALYZER_VERSION || lead['endianness'] !== endianness() || lead['delta'] !== DELTA_FORMAT) return null
    const made = lead['base']
    if (lead['tenantId'] !== tenantId || typeof made !== 'string' || (base !== null && made !== base) || typeof lead['position'] !== 'string' || typeof lead['items'] !== 'number') return null
    return { tenantId, base: made, position: lead['position'], items: lead['items'], end }
  } catch {
    return null
  }
}

/** The delta in `bytes`, or `null` when they hold none usable for the tenant's snapshot at `base` (see `decodeDeltaLead`, `null` too; truncated or damaged). */
export function decodeDelta(bytes: Uint8Array, tenantId: string, base: FeedPosition | null): SnapshotDelta | null {
  const lead = decodeDeltaLead(bytes, tenantId, base)
  if (lead === null) return null
  try {
    if (lead.end + 4 > bytes.length) return null
    const bodyAt = lead.end + 4
    const bodyEnd = bodyAt + new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(lead.end, true)
    if (bodyEnd > bytes.length) return null
    const body = JSON.parse(new TextDecoder().decode(bytes.subarray(bodyAt, bodyEnd))) as Record<string, unknown>
    const { categories, items, removed, terms, cjk } = body
    if (!Array.isArray(categories) || !Array.isArray(items) || !Array.isArray(removed) || !Array.isArray(terms) || !Array.isArray(cjk)) return null
    if (items.length + removed.length !== lead.items) return null
    const start = bodyEnd + ((4 - (bodyEnd % 4)) % 4)
    if (start > bytes.length || (bytes.length - start) % 4 !== 0) return null
    // A view when the bytes are aligned, else a copy.
    const at = bytes.byteOffset + start
    const count = (bytes.length - start) / 4
    const numbers = at % 4 === 0 ? new Uint32Array(bytes.buffer, at, count) : new Uint32Array(bytes.slice(start).buffer)
    const analyzed: AnalyzedDocs = { terms: terms as string[], cjk: cjk as number[], numbers }
    if (!analyzedDocsValid(analyzed, items.length)) return null
    return { tenantId, base: lead.base, position: lead.position, categories: categories as CategoryRecord[], items: items as SearchDocument[], terms: analyzed, removed: removed as string[] }
  } catch {
    return null
  }
}
