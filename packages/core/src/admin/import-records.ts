import type { Context } from '../app/context.ts'
import { transactionWithEvents } from '../events/content-events.ts'
import { ImportPlanner } from '../import/import-planner.ts'
import type { ImportRecord } from '../import/import-record.ts'
import type { ImportSummary } from '../import/import-summary.ts'
import type { TransactionOptions } from '../port/store.ts'
import { parseImportRecord } from '../import/parse-import-record.ts'
import { requireTenant } from './require-tenant.ts'

/** Records applied per read-ahead (`ImportPlanner.readAhead`): one read of their items instead of one each. */
const READ_AHEAD = 256

/** One record read from an import file, and where it was read (`line 12`, `contents[3]`). */
export interface ImportItem {
  record: unknown
  location: string
}

/** What `importRecords` takes. */
export interface ImportRecordsInput {
  tenantCode: string
  /** The records, in file order; read one at a time, never all at once. */
  records: AsyncIterable<ImportItem> | Iterable<ImportItem>
  /** Check and apply everything, then roll back and report what would have changed. */
  dryRun?: boolean
  /** Called after each record with the number done so far (the caller throttles its display). */
  onProgress?: (done: number) => void
  /**
   * Options of the store transaction the import runs in: `bulk` (a hint that many records
   * follow, which a store declaring `capabilities.bulkLoad` may use) and an `observer` of its
   * writes (e.g. search indexing alongside, see `indexWhileImporting` of `@frontdesk/search`).
   * Default: none.
   */
  transaction?: TransactionOptions
}

/** Thrown inside the transaction to roll a dry run back. */
class DryRun extends Error {
  constructor(readonly summary: ImportSummary) {
    super('dry run')
  }
}

/**
 * Imports records (README "Import format") into a tenant, all or nothing: every record is
 * checked and applied inside one store transaction, and the first invalid one throws a
 * `UsageError` naming its location, field and reason, so that nothing is written. See
 * `ImportPlanner` for the upsert, reference and version rules. Timestamps of one import are
 * all the same instant.
 */
export async function importRecords(ctx: Context, input: ImportRecordsInput): Promise<ImportSummary> {
  const tenant = await requireTenant(ctx, input.tenantCode)
  const dryRun = input.dryRun === true
  const now = ctx.clock.now()
  try {
    return await transactionWithEvents(ctx, async (tx) => {
      const planner = await ImportPlanner.start(tx, tenant.id, now, dryRun)
      let done = 0
      // Records are taken READ_AHEAD at a time, so that the items their ids name are read
      // together; a record that does not parse throws at its turn, after those before it.
      let batch: { parsed: ImportRecord | null; error: unknown; location: string }[] = []
      const applyBatch = async () => {
        await planner.readAhead(batch.flatMap(({ parsed }) => (parsed?.kind === 'content' && parsed.id !== undefined ? [parsed.id] : [])))
        for (const { parsed, error, location } of batch) {
          if (parsed === null) throw error
          await planner.apply(parsed, location)
          input.onProgress?.(++done)
        }
        batch = []
      }
      for await (const item of input.records) {
        try {
          batch.push({ parsed: parseImportRecord(item.record, item.location), error: null, location: item.location })
        } catch (error) {
          batch.push({ parsed: null, error, location: item.location })
        }
        if (batch.length >= READ_AHEAD) await applyBatch()
      }
      await applyBatch()
      await planner.finish()
      if (dryRun) throw new DryRun(planner.summary)
      return planner.summary
    }, input.transaction)
  } catch (error) {
    if (error instanceof DryRun) return error.summary
    throw error
  }
}
