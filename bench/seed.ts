import { statSync } from 'node:fs'
import pg from 'pg'
import { openPostgresStore } from '@frontdesk/adapter-postgres'
import { openSqliteStore } from '@frontdesk/adapter-sqlite'
import type { ImportItem, ImportSummary, Store } from '@frontdesk/core'
import { createApiKey, createFrontdesk, createTenant, importRecords } from '@frontdesk/core'
import { createSearchEngine, directorySnapshots, indexWhileImporting } from '@frontdesk/search'
import { Dataset } from './dataset.ts'

/** The tenant every benchmark request uses. */
export const TENANT = 'bench'

/** A seeded database. */
export interface Seeded {
  store: Store
  dataset: Dataset
  /** A tenant key with every permission and no rate limit (the default 100/s would measure the limiter). */
  key: string
  summary: ImportSummary
  /** Seconds spent generating the records (not counted as import time). */
  generateSeconds: number
  /** CPU seconds of the process while it generated them (on a busy machine far fewer than `generateSeconds`). */
  generateCpuSeconds: number
  /**
   * Seconds `importRecords` took for all records, one transaction, while a worker thread
   * analysed the written items for search (`indexWhileImporting`, as `frontdesk import` does).
   */
  importSeconds: number
  /**
   * Seconds the import then spent until the tenant's search snapshot was written (so that
   * `serve` starts from it): the worker's last steps, or, when that did not apply, a build
   * from the committed rows.
   */
  indexSeconds: number
  /** Whether that snapshot was written. */
  snapshotSaved: boolean
  /** Size of the database file (and its WAL), or of the PostgreSQL database, after the import, in bytes. */
  dbBytes: number
}

/** Whether `db` is a PostgreSQL URL rather than a SQLite file. */
export function isPostgres(db: string): boolean {
  return /^postgres(ql)?:\/\//i.test(db)
}

/**
 * Creates the database at `path` (a SQLite file, or a PostgreSQL database's URL) and imports the data set through the real import path
 * (`importRecords` of @frontdesk/core over the SQLite store), indexing the items for search
 * meanwhile and saving the tenant's search snapshot beside the database after the commit, as
 * `frontdesk import` does (`importFile` and `saveSearchSnapshot` in packages/cli). The records are generated first, so the import time
 * is the import's own, as when reading an already parsed file. `beforeImport` prepares the
 * new tenant first (an endpoint taking its content events, say).
 */
export async function seed(
  path: string,
  items: number,
  log: (line: string) => void,
  searchDir = `${path}.search`,
  beforeImport?: (store: Store, tenantId: string) => Promise<void>,
): Promise<Seeded> {
  const store = isPostgres(path) ? await openPostgresStore({ url: path }) : openSqliteStore({ path })
  const frontdesk = createFrontdesk({ store })
  const ctx = frontdesk.context
  const tenant = await createTenant(ctx, { code: TENANT, name: 'Benchmark' })
  await beforeImport?.(store, tenant.id)
  const dataset = new Dataset(items)
  const started = performance.now()
  const generateCpu = process.cpuUsage()
  const records: ImportItem[] = [...dataset.records()]
  const generateUsed = process.cpuUsage(generateCpu)
  const generateSeconds = (performance.now() - started) / 1000
  const generateCpuSeconds = (generateUsed.user + generateUsed.system) / 1e6
  log(`generated ${records.length} records in ${generateSeconds.toFixed(1)} s; importing…`)
  const importStart = performance.now()
  let lastLog = importStart
  // As `frontdesk import`: a bulk load, the items indexed for search on a worker thread while they are written.
  const tenantId = (await store.getTenantByCode(TENANT))?.id ?? ''
  const snapshots = directorySnapshots(searchDir)
  const indexing = indexWhileImporting({ tenantId, snapshots })
  const summary = await importRecords(ctx, {
    tenantCode: TENANT,
    records,
    transaction: { bulk: true, observer: indexing.observer },
    onProgress: (done) => {
      const now = performance.now()
      if (now - lastLog > 5000) {
        lastLog = now
        log(`  imported ${done} of ${records.length}`)
      }
    },
  })
  const importSeconds = (performance.now() - importStart) / 1000
  records.length = 0
  const indexStart = performance.now()
  const outcome = await indexing.finish()
  let snapshotSaved = outcome === 'saved'
  if (outcome === 'unused') {
    // Hint: as the CLI falls back (`saveSearchSnapshot`): built from the committed rows.
    const search = createSearchEngine({ store, snapshots, warmUp: false })
    try {
      snapshotSaved = await search.saveSnapshot(tenantId)
    } finally {
      await search.close()
    }
  }
  const indexSeconds = (performance.now() - indexStart) / 1000
  log(`indexed for search and saved the snapshot ${outcome === 'unused' ? 'after the import' : 'while importing, then'} in ${indexSeconds.toFixed(1)} s${snapshotSaved ? '' : ' (snapshot NOT saved)'}`)
  const { key } = await createApiKey(ctx, { tenantCode: TENANT, name: 'bench', permissions: ['cms:*', 'inquiry:create'], rateLimit: 1_000_000 })
  return { store, dataset, key, summary, generateSeconds, generateCpuSeconds, importSeconds, indexSeconds, snapshotSaved, dbBytes: await databaseBytes(path) }
}

/** Bytes of the database: the SQLite file and its WAL, or `pg_database_size` of a PostgreSQL database. */
export async function databaseBytes(db: string): Promise<number> {
  if (!isPostgres(db)) return fileBytes(db)
  const client = new pg.Client({ connectionString: db })
  await client.connect()
  try {
    return Number((await client.query<{ size: string }>('SELECT pg_database_size(current_database()) AS size')).rows[0]?.size ?? 0)
  } finally {
    await client.end()
  }
}

/** Bytes of a SQLite database file plus its WAL (0 for what is missing). */
export function fileBytes(path: string): number {
  let total = 0
  for (const file of [path, `${path}-wal`]) {
    try {
      total += statSync(file).size
    } catch {
      // absent
    }
  }
  return total
}
