/**
 * What an import's events cost: the benchmark's records imported into a new SQLite database
 * with `importRecords` into a tenant with an endpoint taking content events (each published
 * item's `content.published` is written), with `importRecords` into a tenant without one (no
 * event is written: `EventWriter.eventSubscriptions`), and by the same planner in a plain
 * transaction without the event writer, `ROUNDS` times each, interleaved (the order rotates),
 * each into a fresh file; prints wall and CPU time of each and the medians.
 * `node --conditions=source --import tsx bench/micro/import-events-cost.ts [ITEMS] [ROUNDS] [MODES]`
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Context, ImportItem } from '@frontdesk/core'
import { createFrontdesk, createTenant, importRecords, parseImportRecord } from '@frontdesk/core'
import { ImportPlanner } from '../../packages/core/src/import/import-planner.ts'
import { Dataset } from '../dataset.ts'
import { openSqliteStore } from '@frontdesk/adapter-sqlite'

const items = Number(process.argv[2] ?? '20000')
const rounds = Number(process.argv[3] ?? '3')
const records: ImportItem[] = [...new Dataset(items).records()]

async function withoutEvents(ctx: Context): Promise<void> {
  const tenant = await ctx.store.getTenantByCode('bench')
  await ctx.store.transaction(async (tx) => {
    const planner = await ImportPlanner.start(tx, tenant?.id ?? '', ctx.clock.now())
    for (const item of records) await planner.apply(parseImportRecord(item.record, item.location), item.location)
    await planner.finish()
  })
}

const ALL_MODES = ['subscribed', 'unsubscribed', 'none'] as const
// Hint: a third argument (e.g. `subscribed`) runs some modes only, to profile one (`node --cpu-prof`).
const MODES = process.argv[4] === undefined ? ALL_MODES : ALL_MODES.filter((mode) => process.argv[4]?.split(',').includes(mode))
const LABELS = { subscribed: 'events, an endpoint', unsubscribed: 'events, no endpoint', none: 'no event writer' }
const cpus: Record<string, number[]> = { subscribed: [], unsubscribed: [], none: [] }
for (let round = 0; round < rounds; round++) {
  for (const mode of [...MODES.slice(round % MODES.length), ...MODES.slice(0, round % MODES.length)]) {
    const dir = mkdtempSync(join(tmpdir(), 'frontdesk-import-events-'))
    try {
      const store = openSqliteStore({ path: join(dir, 'import.db') })
      const frontdesk = createFrontdesk({ store })
      const tenant = await createTenant(frontdesk.context, { code: 'bench', name: 'Benchmark' })
      if (mode === 'subscribed') {
        await store.webhooks.createWebhookEndpoint({
          id: 'whe_bench', tenant_id: tenant.id, url: 'https://receiver.test/', events: ['content.*'], secret: 'sealed', previous_secret: null,
          previous_secret_until: null, created_at: new Date().toISOString(), disabled_at: null, disabled_reason: null, cursor: 0, attempts: 0,
          next_attempt_at: null, failing_since: null,
        })
      }
      const cpu = process.cpuUsage()
      const started = performance.now()
      if (mode !== 'none') await importRecords(frontdesk.context, { tenantCode: 'bench', records })
      else await withoutEvents(frontdesk.context)
      const seconds = (performance.now() - started) / 1000
      const used = process.cpuUsage(cpu)
      const cpuSeconds = (used.user + used.system) / 1e6
      cpus[mode]?.push(cpuSeconds)
      const events = (await store.readEvents(0, items + 10)).length
      console.log(`${LABELS[mode].padEnd(20)} ${items}: ${seconds.toFixed(2)} s wall, ${cpuSeconds.toFixed(2)} s CPU, ${events} events`)
      await store.close()
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }
}
const median = (list: number[]) => list.slice().sort((a, b) => a - b)[Math.floor(list.length / 2)] ?? 0
const none = median(cpus['none'] ?? [])
const versus = (mode: string) => `${median(cpus[mode] ?? []).toFixed(2)} s (${((median(cpus[mode] ?? []) / none - 1) * 100).toFixed(1)} %)`
console.log(`median CPU: no event writer ${none.toFixed(2)} s; events, no endpoint ${versus('unsubscribed')}; events, an endpoint ${versus('subscribed')}`)
