// Test helper (not a test): core's memory store with a movable clock, for the operator
// use-case tests, and a way to snapshot a tenant's whole content model.
import type { Context } from '../../src/app/context.ts'
import { createFrontdesk } from '../../src/app/frontdesk.ts'
import type { ImportRecordOut } from '../../src/import/import-record.ts'
import type { ContentRecord } from '../../src/model/content.ts'
import type { ImportItem } from '../../src/admin/import-records.ts'
import { createTenant } from '../../src/admin/create-tenant.ts'
import { exportRecords } from '../../src/admin/export-records.ts'
import { createMemoryStore } from '../../src/testing/memory/memory-store.ts'

/** 2025-06-20T12:00:00Z, where every fixture's clock starts. */
export const START = Date.parse('2025-06-20T12:00:00.000Z')

/** A fresh memory store; `clock` moves by hand. */
export async function openAdminFixture() {
  const store = createMemoryStore()
  let now = START
  const clock = { now: () => now, advance: (ms: number) => void (now += ms) }
  const frontdesk = createFrontdesk({ store, clock })
  const ctx: Context = frontdesk.context
  return {
    store,
    ctx,
    frontdesk,
    clock,
    /** Creates a tenant with this code. */
    tenant: (code = 'acme') => createTenant(ctx, { code }),
    /** Every export record of the tenant. */
    dump: (code = 'acme') => collect(exportRecords(ctx, code)),
    /** Every content item of the tenant as stored (versions and timestamps included), by id. */
    contents: async (code = 'acme') => {
      const tenant = await store.getTenantByCode(code)
      if (tenant === null) return []
      return store.listContents(tenant.id, { visibility: { kind: 'all' }, sort: { key: 'id', direction: 'asc' }, limit: 100_000 }) as Promise<ContentRecord[]>
    },
    close: () => store.close(),
  }
}

/** The fixture `openAdminFixture` returns. */
export type AdminFixture = Awaited<ReturnType<typeof openAdminFixture>>

/** Everything an async iterable yields. */
export async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = []
  for await (const item of items) out.push(item)
  return out
}

/** Import items from plain records, located as `line 1`, `line 2`, … */
export function lines(records: readonly unknown[]): ImportItem[] {
  return records.map((record, i) => ({ record, location: `line ${i + 1}` }))
}

/** Export records, as import items. */
export function reimport(records: readonly ImportRecordOut[]): ImportItem[] {
  return lines(records)
}

/** The error `promise` rejects with (fails the test when it resolves). */
export async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise
  } catch (error) {
    if (error instanceof Error) return error
    throw new Error(`rejected with a non-Error: ${String(error)}`)
  }
  throw new Error('expected a rejection, but it resolved')
}
