import { endianness } from 'node:os'
import type { FeedPosition, SearchDocument } from '@frontdesk/core'
import { ANALYZER_VERSION } from '@frontdesk/core'
import type { TenantSnapshot } from '../tenant/tenant-index.ts'
import { INDEX_FORMAT } from '../tenant/tenant-index.ts'

/** What a snapshot holds: a tenant's index, reflecting every change of the feed up to `position`. */
export interface DecodedSnapshot {
  position: FeedPosition
  tenant: TenantSnapshot
}

/** What a snapshot's lead says, readable from its first `SNAPSHOT_LEAD_BYTES` bytes. */
export interface SnapshotLead {
  /** The change feed position the snapshot reflects. */
  position: FeedPosition
  /** Live items in it. */
  items: number
}

/** The lead of a snapshot fits in its first this many bytes (a longer one is not a snapshot). */
export const SNAPSHOT_LEAD_BYTES = 4096

// Hint: `FDSX` was the layout without a lead; such files are not snapshots any more and are rebuilt.
const MAGIC = 'FDSL'

/*
 * Layout: `FDSL`, the lead's length (uint32 LE), the lead (JSON: format, analyzer, byte order,
 * feed position, items), the header's length (uint32 LE), the header (JSON: the index but its
 * postings), zero padding to a multiple of 4 bytes, then the postings (uint32, the machine's
 * byte order, recorded in the lead). Decoding is a JSON parse of the header and a view on the
 * postings, no copy: 100,000 articles load in about a second. The lead alone tells whether a
 * snapshot is usable and how far behind the feed it is, which is all an import needs to know
 * (`decodeSnapshotLead`), without reading the rest.
 */

/** Items per piece of a snapshot's header (see `encodeHeader`). */
const DOCS_PER_PIECE = 4096

/**
 * A tenant's items already as the JSON of a snapshot's header, read as it is written (an
 * import's, see `DocBytes`): `JSON.stringify` of each item, joined by commas, in pieces.
 */
export interface EncodedDocs {
  /** Items. */
  readonly count: number
  /** Bytes of all the pieces. */
  readonly byteLength: number
  /** The pieces, in order; read once. */
  pieces(): Iterable<Uint8Array>
}

/**
 * A snapshot's index with its items as `EncodedDocs` and its postings made as they are read
 * (what an import's indexing hands over, see `RangeIndexer.finishInPieces`).
 */
export type EncodedSnapshot = Omit<TenantSnapshot, 'docs' | 'postings'> & { docs: EncodedDocs; postings: Iterable<Uint32Array> }

/**
 * A tenant's index as the bytes of a snapshot, in pieces to be written one after the other
 * (the postings as views of the index's own buffers, not copied into one more). `consume`:
 * the caller is done with `tenant.docs`, which are let go as they are encoded (emptied slots)
 * instead of being held beside their bytes.
 */
export function encodeSnapshot(position: FeedPosition, tenant: TenantSnapshot | EncodedSnapshot, consume = false): Uint8Array[] {
  return [...snapshotPieces(position, tenant, consume)]
}

/**
 * `encodeSnapshot`'s pieces, made as they are asked for: with `EncodedDocs`, the items are
 * read while the pieces before them are written, never held whole.
 */
export function* snapshotPieces(position: FeedPosition, tenant: TenantSnapshot | EncodedSnapshot, consume = false): Generator<Uint8Array> {
  const { postings, ...rest } = tenant
  const lead = new TextEncoder().encode(JSON.stringify({ format: INDEX_FORMAT, analyzer: ANALYZER_VERSION, endianness: endianness(), position, items: tenant.docs instanceof Array ? tenant.docs.length : tenant.docs.count }))
  if (8 + lead.length > SNAPSHOT_LEAD_BYTES) throw new Error(`A snapshot's lead must fit in ${SNAPSHOT_LEAD_BYTES} bytes (feed position ${position})`)
  const header = encodeHeader(rest, consume)
  const headerLength = header.reduce((sum, piece) => sum + (piece instanceof Uint8Array ? piece.length : piece.byteLength), 0)
  const headerAt = 8 + lead.length + 4
  const start = new Uint8Array(headerAt)
  for (let i = 0; i < MAGIC.length; i++) start[i] = MAGIC.charCodeAt(i)
  const view = new DataView(start.buffer)
  view.setUint32(4, lead.length, true)
  start.set(lead, 8)
  view.setUint32(8 + lead.length, headerLength, true)
  const padding = new Uint8Array((4 - ((headerAt + headerLength) % 4)) % 4)
  // Hint: no empty pieces (a term whose items were all removed): a run of 1,024 of them made one writev write nothing and end the write early.
  for (const piece of [start, ...header, padding]) {
    if (piece instanceof Uint8Array) {
      if (piece.length > 0) yield piece
    } else for (const read of piece.pieces()) if (read.length > 0) yield read
  }
  for (const piece of postings) if (piece.length > 0) yield new Uint8Array(piece.buffer, piece.byteOffset, piece.byteLength)
}

/**
 * `JSON.stringify(rest)` as UTF-8, the items encoded `DOCS_PER_PIECE` at a time: the items are
 * most of a header (~320 bytes each), and one string of them all, then its bytes, held the
 * header twice over at the peak of a large import (~70 MB each at 200,000 items). Items given
 * as `EncodedDocs` are left to be read when written.
 */
function encodeHeader(rest: Omit<TenantSnapshot | EncodedSnapshot, 'postings'>, consume: boolean): (Uint8Array | EncodedDocs)[] {
  const encoder = new TextEncoder()
  const pieces: (Uint8Array | EncodedDocs)[] = []
  let text = '{'
  // Hint: `JSON.stringify` of an object is its own keys in this order as `"key":value`, values `undefined` left out.
  for (const [key, value] of Object.entries(rest)) {
    if (value === undefined) continue
    text += `${text === '{' ? '' : ','}${JSON.stringify(key)}:`
    if (key !== 'docs') {
      text += JSON.stringify(value)
      continue
    }
    text += '['
    if (!(value instanceof Array)) {
      pieces.push(encoder.encode(text), value as EncodedDocs)
      text = ''
    } else {
      const docs = value as (SearchDocument | undefined)[]
      for (let from = 0; from < docs.length; from += DOCS_PER_PIECE) {
        pieces.push(encoder.encode(text))
        text = (from === 0 ? '' : ',') + JSON.stringify(docs.slice(from, from + DOCS_PER_PIECE)).slice(1, -1)
        if (consume) docs.fill(undefined, from, from + DOCS_PER_PIECE)
      }
    }
    text += ']'
  }
  pieces.push(encoder.encode(`${text}}`))
  return pieces
}

/**
 * The lead of the snapshot starting with `bytes` (its first `SNAPSHOT_LEAD_BYTES` bytes are
 * enough), or `null` when they start no usable snapshot: not a snapshot, truncated, or of
 * another format, analyzer version or byte order (the index is then built afresh).
 */
export function decodeSnapshotLead(bytes: Uint8Array): (SnapshotLead & { end: number }) | null {
  try {
    if (bytes.length < 8 || String.fromCharCode(bytes[0] ?? 0, bytes[1] ?? 0, bytes[2] ?? 0, bytes[3] ?? 0) !== MAGIC) return null
    const end = 8 + new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(4, true)
    if (end > bytes.length || end > SNAPSHOT_LEAD_BYTES) return null
    const lead = JSON.parse(new TextDecoder().decode(bytes.subarray(8, end))) as { format?: unknown; analyzer?: unknown; endianness?: unknown; position?: unknown; items?: unknown }
    if (lead.format !== INDEX_FORMAT || lead.analyzer !== ANALYZER_VERSION || lead.endianness !== endianness()) return null
    if (typeof lead.position !== 'string' || typeof lead.items !== 'number') return null
    return { position: lead.position, items: lead.items, end }
  } catch {
    return null
  }
}

/**
 * The snapshot in `bytes`, or `null` when they hold none usable: not a snapshot, truncated, or
 * of another format, analyzer version or byte order (the index is then built afresh).
 */
export function decodeSnapshot(bytes: Uint8Array): DecodedSnapshot | null {
  try {
    const lead = decodeSnapshotLead(bytes)
    if (lead === null || lead.end + 4 > bytes.length) return null
    const headerAt = lead.end + 4
    const headerEnd = headerAt + new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(lead.end, true)
    if (headerEnd > bytes.length) return null
    const tenant = JSON.parse(new TextDecoder().decode(bytes.subarray(headerAt, headerEnd))) as Omit<TenantSnapshot, 'postings'>
    if (tenant.docs.length !== lead.items) return null
    const start = headerEnd + ((4 - (headerEnd % 4)) % 4)
    const count = (bytes.length - start) / 4
    const expected = tenant.index.used.reduce((sum, n) => sum + n, 0)
    if (!Number.isInteger(count) || count !== expected) return null
    // A view when the bytes are aligned (a large file read has its own buffer), else a copy.
    const at = bytes.byteOffset + start
    const postings = at % 4 === 0 ? new Uint32Array(bytes.buffer, at, count) : new Uint32Array(bytes.slice(start).buffer)
    return { position: lead.position, tenant: { ...tenant, postings: [postings] } }
  } catch {
    return null
  }
}
