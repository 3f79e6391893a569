import { closeSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs'
import { endianness } from 'node:os'
import { join } from 'node:path'
import { ANALYZER_VERSION } from '@frontdesk/core'
import type { TenantSnapshot } from './tenant-index.ts'
import { INDEX_FORMAT } from './tenant-index.ts'

/** A `change_log` row: which entity of which tenant changed. */
export interface ChangeRow {
  tenant_id: string
  entity: string
  entity_id: string
}

/** What a snapshot file holds: a tenant's index as of `change_log` row `seq`. */
export interface SnapshotFile {
  format: number
  analyzer: number
  /** The last `change_log` row the index reflects (0: none yet). */
  seq: number
  /**
   * That row itself: a restored or replaced database whose row `seq` differs is not the one
   * the snapshot was taken of.
   */
  anchor: ChangeRow | null
  tenant: TenantSnapshot
}

const SAFE_NAME = /^[A-Za-z0-9_-]{1,64}$/
const MAGIC = 'FDSX'

/** `<database file>.search` for a database in a file; `null` for an in-memory or temporary one. */
export function defaultSnapshotDir(path: string): string | null {
  if (path === '' || path === ':memory:' || path.startsWith('file:')) return null
  return `${path}.search`
}

/** The file of a tenant's snapshot. */
export function snapshotFileName(tenantId: string): string {
  return `${tenantId}.index`
}

/*
 * File layout: `FDSX`, the header's length (uint32 LE), the header (JSON: everything but the
 * postings), zero padding to a multiple of 4 bytes, then the postings (uint32, the machine's
 * byte order, recorded in the header). Loading is a JSON parse of the header and a view on the
 * postings, no copy: 100,000 articles load in about a second.
 */

/**
 * Writes a tenant's snapshot atomically (temporary file, then rename), readable by its owner
 * only: it holds every item's filter data and terms, drafts included. Returns `false` when it
 * could not (unsafe tenant id, a full disk…): snapshots only save time, so failing to write
 * one is not an error.
 */
export function writeSnapshot(dir: string, tenantId: string, file: Omit<SnapshotFile, 'format' | 'analyzer'>): boolean {
  const prepared = prepareSnapshot(dir, tenantId, file)
  return prepared !== null && publishSnapshot(prepared)
}

/** A snapshot written to its temporary file, not yet in place (see `prepareSnapshot`). */
export interface PreparedSnapshot {
  temporary: string
  target: string
}

/**
 * The first half of `writeSnapshot`: the whole file written under a temporary name beside its
 * place; `publishSnapshot` then renames it into place, `discardSnapshot` removes it. An
 * import writes it while it commits and renames it once the commit succeeded. `null` when it
 * could not be written (nothing is left behind).
 */
export function prepareSnapshot(dir: string, tenantId: string, file: Omit<SnapshotFile, 'format' | 'analyzer'>): PreparedSnapshot | null {
  if (!SAFE_NAME.test(tenantId)) return null
  const target = join(dir, snapshotFileName(tenantId))
  const temporary = temporaryName(dir, tenantId)
  let fd: number | null = null
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 })
    const { postings, ...rest } = file.tenant
    const header = Buffer.from(
      JSON.stringify({ format: INDEX_FORMAT, analyzer: ANALYZER_VERSION, endianness: endianness(), seq: file.seq, anchor: file.anchor, tenant: rest }),
      'utf8',
    )
    const prefix = Buffer.alloc(8)
    prefix.write(MAGIC, 0, 'latin1')
    prefix.writeUInt32LE(header.length, 4)
    const padding = Buffer.alloc((4 - ((8 + header.length) % 4)) % 4)
    fd = openSync(temporary, 'w', 0o600)
    for (const part of [prefix, header, padding, ...postings.map((piece) => Buffer.from(piece.buffer, piece.byteOffset, piece.byteLength))]) writeAll(fd, part)
    closeSync(fd)
    return { temporary, target }
  } catch {
    try {
      if (fd !== null) closeSync(fd)
      rmSync(temporary, { force: true })
    } catch {
      // Hint: nothing was created (the directory is missing or not one): nothing to clean up.
    }
    return null
  }
}

/** Renames a prepared snapshot into place; `false` (and the temporary file removed) when it could not. */
export function publishSnapshot(prepared: PreparedSnapshot): boolean {
  try {
    renameSync(prepared.temporary, prepared.target)
    return true
  } catch {
    discardSnapshot(prepared)
    return false
  }
}

/** Removes a prepared snapshot's temporary file (best effort), e.g. when the import it was made for failed. */
export function discardSnapshot(prepared: PreparedSnapshot): void {
  try {
    rmSync(prepared.temporary, { force: true })
  } catch {
    // Hint: best effort; a leftover temporary file is never read as a snapshot.
  }
}

/** Where a snapshot of the tenant is written before it is renamed into place (one per process). */
export function temporaryName(dir: string, tenantId: string): string {
  return `${join(dir, snapshotFileName(tenantId))}.${process.pid}.tmp`
}

/** A tenant's snapshot, or `null` when there is none usable (missing, unreadable, another format, analyzer or byte order). */
export function readSnapshot(dir: string, tenantId: string): SnapshotFile | null {
  if (!SAFE_NAME.test(tenantId)) return null
  try {
    const bytes = readFileSync(join(dir, snapshotFileName(tenantId)))
    if (bytes.length < 8 || bytes.toString('latin1', 0, 4) !== MAGIC) return null
    const headerEnd = 8 + bytes.readUInt32LE(4)
    if (headerEnd > bytes.length) return null
    const file = JSON.parse(bytes.toString('utf8', 8, headerEnd)) as Partial<SnapshotFile> & { endianness?: string; tenant?: Omit<TenantSnapshot, 'postings'> }
    if (file.format !== INDEX_FORMAT || file.analyzer !== ANALYZER_VERSION || file.endianness !== endianness() || typeof file.seq !== 'number' || file.tenant === undefined) return null
    const start = headerEnd + ((4 - (headerEnd % 4)) % 4)
    const count = (bytes.length - start) / 4
    const expected = file.tenant.index.used.reduce((sum, n) => sum + n, 0)
    if (!Number.isInteger(count) || count !== expected) return null
    // A view when the bytes are aligned (a large file read has its own buffer), else a copy.
    const postings = (bytes.byteOffset + start) % 4 === 0 ? new Uint32Array(bytes.buffer, bytes.byteOffset + start, count) : new Uint32Array(bytes.buffer.slice(bytes.byteOffset + start, bytes.byteOffset + bytes.length))
    return { format: file.format, analyzer: file.analyzer, seq: file.seq, anchor: file.anchor ?? null, tenant: { ...file.tenant, postings: [postings] } }
  } catch {
    return null
  }
}

function writeAll(fd: number, bytes: Uint8Array): void {
  for (let offset = 0; offset < bytes.length; ) offset += writeSync(fd, bytes, offset, bytes.length - offset)
}
