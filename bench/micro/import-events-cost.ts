/**
 * What an import's events cost: the benchmark's records imported into a new SQLite database
 * with `importRecords` (which writes each published item's `content.published` event) and,
 * alternately, by the same planner in a plain transaction without the event writer, `--rounds`
 * times each, interleaved, each into a fresh file; prints wall and CPU time of each and the
 * medians. `node --conditions=source --import tsx bench/micro/import-events-cost.ts [ITEMS] [ROUNDS]`
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

const cpus: Record<string, number[]> = { events: [], none: [] }
for (let round = 0; round < rounds; round++) {
  for (const mode of round % 2 === 0 ? ['events', 'none'] : ['none', 'events']) {
    const dir = mkdtempSync(join(tmpdir(), 'frontdesk-import-events-'))
    try {
      const store = openSqliteStore({ path: join(dir, 'import.db') })
      const frontdesk = createFrontdesk({ store })
      await createTenant(frontdesk.context, { code: 'bench', name: 'Benchmark' })
      const cpu = process.cpuUsage()
      const started = performance.now()
      if (mode === 'events') await importRecords(frontdesk.context, { tenantCode: 'bench', records })
      else await withoutEvents(frontdesk.context)
      const seconds = (performance.now() - started) / 1000
      const used = process.cpuUsage(cpu)
      const cpuSeconds = (used.user + used.system) / 1e6
      cpus[mode]?.push(cpuSeconds)
      const events = (await store.readEvents(0, items + 10)).length
      console.log(`${mode === 'events' ? 'with events   ' : 'without events'} ${items}: ${seconds.toFixed(2)} s wall, ${cpuSeconds.toFixed(2)} s CPU, ${events} events`)
      await store.close()
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }
}
const median = (list: number[]) => list.slice().sort((a, b) => a - b)[Math.floor(list.length / 2)] ?? 0
console.log(`median CPU: with events ${median(cpus['events'] ?? []).toFixed(2)} s, without ${median(cpus['none'] ?? []).toFixed(2)} s (${(((median(cpus['events'] ?? []) / median(cpus['none'] ?? [])) - 1) * 100).toFixed(1)} %)`)
