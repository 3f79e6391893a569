import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
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

/**
 * Writes a tenant's snapshot atomically (temporary file, then rename), readable by its owner
 * only: it holds every item's text, drafts included. Returns `false` when it could not
 * (unsafe tenant id, a full disk, an index too large for one JSON string…): snapshots only
 * save time, so failing to write one is not an error.
 */
export function writeSnapshot(dir: string, tenantId: string, file: Omit<SnapshotFile, 'format' | 'analyzer'>): boolean {
  if (!SAFE_NAME.test(tenantId)) return false
  const target = join(dir, `${tenantId}.json`)
  const temporary = `${target}.${process.pid}.tmp`
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 })
    writeFileSync(temporary, JSON.stringify({ format: INDEX_FORMAT, analyzer: ANALYZER_VERSION, ...file }), { mode: 0o600 })
    renameSync(temporary, target)
    return true
  } catch {
    rmSync(temporary, { force: true })
    return false
  }
}

/** A tenant's snapshot, or `null` when there is none usable (missing, unreadable, another format or analyzer). */
export function readSnapshot(dir: string, tenantId: string): SnapshotFile | null {
  if (!SAFE_NAME.test(tenantId)) return null
  try {
    const file = JSON.parse(readFileSync(join(dir, `${tenantId}.json`), 'utf8')) as Partial<SnapshotFile>
    if (file.format !== INDEX_FORMAT || file.analyzer !== ANALYZER_VERSION || typeof file.seq !== 'number' || file.tenant === undefined) return null
    return { format: file.format, analyzer: file.analyzer, seq: file.seq, anchor: file.anchor ?? null, tenant: file.tenant }
  } catch {
    return null
  }
}
