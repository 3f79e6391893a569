import type { ImportItem } from '@frontdesk/core'
import { createFrontdesk, importRecords } from '@frontdesk/core'
import type { SnapshotAfterImport } from '@frontdesk/search'
import { directorySnapshots, snapshotAfterImport } from '@frontdesk/search'
import { openStore } from '../packages/cli/src/session.ts'
import type { Dataset } from './dataset.ts'
import { TENANT } from './seed.ts'

/** What `oneItemImports` did. */
export interface OneItemImports {
  imports: number
  seconds: number
  /** How each import left the snapshot, counted (`behind`, `delta`, `saved`, `unwritable`). */
  outcomes: Partial<Record<SnapshotAfterImport, number>>
}

/**
 * The state `count` one-item `frontdesk import`s of edited items leave in the database `db`
 * and the snapshots in `searchDir`, made in one process: each edit is its own `importRecords`
 * transaction (one change in the feed, as the CLI's import of a one-record file writes)
 * followed by `snapshotAfterImport` over the same store and directory, which is all
 * `frontdesk import` does after its commit for a tenant that already has items. What is
 * skipped is the process's start and the file's parsing (~0.15 s each), not anything that
 * leaves a trace in the store or the snapshots.
 */
export async function oneItemImports(options: { db: string; searchDir: string; dataset: Dataset; count: number; log: (line: string) => void }): Promise<OneItemImports> {
  const { db, searchDir, dataset, count, log } = options
  const store = await openStore(db)
  try {
    const frontdesk = createFrontdesk({ store })
    const tenantId = (await store.getTenantByCode(TENANT))?.id ?? ''
    const snapshots = directorySnapshots(searchDir)
    const outcomes: Partial<Record<SnapshotAfterImport, number>> = {}
    const started = performance.now()
    let done = 0
    for (const item of dataset.records()) {
      const record = item.record as Record<string, unknown>
      if (record['kind'] !== 'content') continue
      const edited: ImportItem = { record: { ...record, title: `${String(record['title'])} edited one by one ${done}` }, location: 'record 1' }
      await importRecords(frontdesk.context, { tenantCode: TENANT, records: [edited] })
      const outcome = await snapshotAfterImport(store, snapshots, tenantId)
      outcomes[outcome] = (outcomes[outcome] ?? 0) + 1
      if (++done % 1000 === 0) log(`  ${done} one-item imports (${JSON.stringify(outcomes)})`)
      if (done === count) break
    }
    return { imports: done, seconds: (performance.now() - started) / 1000, outcomes }
  } finally {
    await store.close()
  }
}
