import { link, mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Context } from '@frontdesk/core'
import type { SnapshotAfterImport, SnapshotAfterImportOptions } from '@frontdesk/search'
import type { CliEnv } from './env.ts'

/**
 * Bringing a tenant's search snapshot up to date after an import (see `snapshotAfterImport` of
 * `@frontdesk/search`), in a process of its own: the one import in ~2,000 changes that has to
 * write the snapshot's delta (or, past its size, the snapshot) would otherwise wait for that
 * work, which follows what changed since the snapshot, or the tenant, rather than the import.
 * The import hands it to `frontdesk search-snapshot --if-idle` and returns; at most one such
 * process works per tenant and search directory, holding a lock file that names it.
 */

/** The lock file of a tenant's refresh in `searchDir`. */
function lockPath(searchDir: string, tenantId: string): string {
  return join(searchDir, `refresh-${tenantId}.lock`)
}

/** The log the background refreshes append their errors to, in `searchDir`. */
export function refreshLogPath(searchDir: string): string {
  return join(searchDir, 'refresh.log')
}

/**
 * A lock held longer than this is taken for a dead holder's even when a process of its id runs
 * (ids are reused): a refresh writes at most a snapshot, which takes about a minute at
 * 1,000,000 items.
 */
const LOCK_STALE_MS = 60 * 60 * 1000

/** The process id of the live holder of a tenant's refresh lock; `null` when none holds it. */
export async function refreshHolder(searchDir: string, tenantId: string): Promise<number | null> {
  const path = lockPath(searchDir, tenantId)
  try {
    const { processRuns } = await import('@frontdesk/search')
    const [text, info] = await Promise.all([readFile(path, 'utf8'), stat(path)])
    const pid = Number(text.trim())
    if (!Number.isSafeInteger(pid) || pid <= 0 || Date.now() - info.mtimeMs > LOCK_STALE_MS || !processRuns(pid)) return null
    return pid
  } catch {
    return null
  }
}

/**
 * Takes the tenant's refresh lock for this process; `null` when a live process holds it. The
 * lock is linked into place already holding this process's id, so no reader sees it empty. A
 * lock left by a dead process is taken over. Two processes taking over the same dead lock at
 * once may both hold it: harmless, as every snapshot and delta is written whole under a
 * temporary name and read only with the feed position it names.
 */
async function takeLock(searchDir: string, tenantId: string): Promise<{ release(): Promise<void> } | null> {
  const path = lockPath(searchDir, tenantId)
  const written = `${path}.${process.pid}.tmp`
  await mkdir(searchDir, { recursive: true, mode: 0o700 })
  await writeFile(written, `${process.pid}\n`, { mode: 0o600 })
  await sweepWritten(searchDir, tenantId)
  try {
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        await link(written, path)
        return { release: () => rm(path, { force: true }) }
      } catch (error) {
        if ((error as { code?: unknown }).code !== 'EEXIST') throw error
        if ((await refreshHolder(searchDir, tenantId)) !== null) return null
        await rm(path, { force: true })
      }
    }
    return null
  } finally {
    await rm(written, { force: true })
  }
}

/** Removes the lock files being written by processes that no longer run (killed in between); best effort. */
async function sweepWritten(searchDir: string, tenantId: string): Promise<void> {
  const { processRuns } = await import('@frontdesk/search')
  const pattern = new RegExp(`^refresh-${tenantId.replace(/[^A-Za-z0-9_-]/g, '')}\\.lock\\.(\\d+)\\.tmp$`)
  for (const name of await readdir(searchDir).catch(() => [])) {
    const pid = Number(pattern.exec(name)?.[1] ?? Number.NaN)
    if (Number.isInteger(pid) && pid !== process.pid && !processRuns(pid)) await rm(join(searchDir, name), { force: true }).catch(() => undefined)
  }
}

/** The limits of a tenant's snapshot a refresh keeps to (see `snapshotAfterImport`). */
type SnapshotLimits = Pick<SnapshotAfterImportOptions, 'catchUpLimit' | 'deltaItems'>

/** Options of `refreshSearchSnapshot`. */
export interface RefreshOptions {
  /** Return 'busy' at once when another process refreshes the tenant (it sees this one's changes too), instead of waiting for it. */
  ifIdle?: boolean
  /** How long to wait for another process's refresh before giving up with 'busy'. Default 10 minutes. */
  waitMs?: number
}

/** Rounds of one refresh: each writes what was due when it began; a refresh still behind after them leaves the rest to the next import. */
const ROUNDS = 10

/**
 * Brings the tenant's search snapshot in `searchDir` up to date, holding its refresh lock:
 * what `snapshotAfterImport` does, again until it finds nothing to do. The check after each
 * round is made with the lock released, so an import that committed meanwhile either finds no
 * holder (and starts a refresh of its own) or is seen by that check.
 */
export async function refreshSearchSnapshot(ctx: Context, tenantId: string, searchDir: string, limits: SnapshotLimits, options: RefreshOptions = {}): Promise<SnapshotAfterImport | 'busy'> {
  const { directorySnapshots, snapshotAfterImport, snapshotIsBehind } = await import('@frontdesk/search')
  const snapshots = directorySnapshots(searchDir)
  const giveUpAt = Date.now() + (options.waitMs ?? 10 * 60 * 1000)
  let outcome: SnapshotAfterImport | 'busy' = 'behind'
  for (let round = 0; round < ROUNDS; ) {
    const lock = await takeLock(searchDir, tenantId)
    if (lock === null) {
      if (options.ifIdle === true || Date.now() >= giveUpAt) return 'busy'
      await new Promise((resolve) => setTimeout(resolve, 100))
      continue
    }
    round++
    try {
      outcome = await snapshotAfterImport(ctx.store, snapshots, tenantId, limits)
    } finally {
      await lock.release()
    }
    if (outcome === 'unwritable' || (await snapshotIsBehind(ctx.store, snapshots, tenantId, limits))) return outcome
  }
  return outcome
}

/**
 * After an import: starts `frontdesk search-snapshot --if-idle` for the tenant in a process of
 * its own when its snapshot has fallen behind, unless one already runs (it checks again when
 * done). Returns that process's id; `null` when nothing was started.
 */
export async function refreshInBackground(ctx: Context, tenant: { id: string; code: string }, searchDir: string, dbPath: string, env: CliEnv & Required<Pick<CliEnv, 'detach'>>, limits: SnapshotLimits): Promise<number | null> {
  const { directorySnapshots, snapshotIsBehind } = await import('@frontdesk/search')
  if (await snapshotIsBehind(ctx.store, directorySnapshots(searchDir), tenant.id, limits)) return null
  if ((await refreshHolder(searchDir, tenant.id)) !== null) return null
  await mkdir(searchDir, { recursive: true, mode: 0o700 })
  // Hint: the database by the environment, not the command line, where a PostgreSQL URL's password would be visible to every user.
  return env.detach(['--search-dir', searchDir, 'search-snapshot', '--tenant', tenant.code, '--if-idle'], { FRONTDESK_DB: dbPath }, refreshLogPath(searchDir))
}

/**
 * Waits, at most `maxMs`, for the refreshes running in `searchDir` to finish, so that a start
 * restores what they write instead of an older snapshot it might have to rebuild from the
 * database. Says so once on stderr when it waits.
 */
export async function waitForRefreshes(searchDir: string, env: CliEnv, maxMs = 120_000): Promise<void> {
  const holders = async () => {
    let names: string[]
    try {
      names = await readdir(searchDir)
    } catch {
      return []
    }
    const tenants = names.flatMap((name) => /^refresh-(.+)\.lock$/.exec(name)?.[1] ?? [])
    return (await Promise.all(tenants.map((tenantId) => refreshHolder(searchDir, tenantId)))).filter((pid) => pid !== null)
  }
  let pids = await holders()
  if (pids.length === 0) return
  env.stderr.write(`frontdesk: waiting for the search snapshot refresh${pids.length === 1 ? '' : 'es'} in progress (pid ${pids.join(', ')}) to finish\n`)
  const until = Date.now() + maxMs
  while (pids.length > 0 && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 100))
    pids = await holders()
  }
}
