import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Store } from '@frontdesk/core'
import { seed } from '../seed.ts'

/*
 * `node --conditions=source --import tsx bench/micro/import-events-full.ts [ITEMS] [ROUNDS]`:
 * what content events cost an import as `frontdesk import` runs it (`seed`: the bulk load with
 * the items indexed for search on a worker thread alongside, then the search snapshot saved),
 * into a new SQLite file whose tenant has an endpoint taking every content event, against one
 * without: ROUNDS of each, alternated, each in a fresh file. Prints the seconds to the commit and
 * to the saved snapshot, and the process's CPU seconds (main thread and indexing worker), with
 * the medians. `import-events-cost.ts` measures the store's part alone.
 */

const items = Number(process.argv[2] ?? '100000')
const rounds = Number(process.argv[3] ?? '3')

async function withEndpoint(store: Store, tenantId: string): Promise<void> {
  if (store.webhooks === undefined) throw new Error('this store keeps no webhook endpoints')
  await store.webhooks.createWebhookEndpoint({
    id: 'whe_bench', tenant_id: tenantId, url: 'https://receiver.test/', events: ['content.*'], secret: 'sealed', previous_secret: null,
    previous_secret_until: null, created_at: new Date().toISOString(), disabled_at: null, disabled_reason: null, cursor: 0, attempts: 0,
    next_attempt_at: null, failing_since: null,
  })
}

const MODES = ['endpoint', 'none'] as const
const results: Record<(typeof MODES)[number], { wall: number[]; cpu: number[] }> = { endpoint: { wall: [], cpu: [] }, none: { wall: [], cpu: [] } }
for (let round = 0; round < rounds; round++) {
  for (const mode of round % 2 === 0 ? MODES : [...MODES].reverse()) {
    const dir = mkdtempSync(join(tmpdir(), 'frontdesk-import-events-'))
    try {
      const cpu = process.cpuUsage()
      const seeded = await seed(join(dir, 'import.db'), items, () => {}, undefined, mode === 'endpoint' ? withEndpoint : undefined)
      const used = process.cpuUsage(cpu)
      // Hint: the records' generation is not the import's; its CPU is measured apart (its wall time is not its CPU on a busy machine).
      const cpuSeconds = (used.user + used.system) / 1e6 - seeded.generateCpuSeconds
      const wall = seeded.importSeconds + seeded.indexSeconds
      const events = (await seeded.store.readEvents(0, items + 10)).length
      await seeded.store.close()
      results[mode].wall.push(wall)
      results[mode].cpu.push(cpuSeconds)
      console.log(`${mode.padEnd(8)} ${items}: import ${seeded.importSeconds.toFixed(2)} s + index/snapshot ${seeded.indexSeconds.toFixed(2)} s = ${wall.toFixed(2)} s, ~${cpuSeconds.toFixed(2)} s CPU, ${events} events`)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }
}
const median = (list: number[]) => list.slice().sort((a, b) => a - b)[Math.floor(list.length / 2)] ?? 0
const change = (key: 'wall' | 'cpu') => `${(median(results.endpoint[key]) / median(results.none[key]) * 100 - 100).toFixed(1)} %`
for (let i = 0; i < rounds; i++) {
  const pair = (key: 'wall' | 'cpu') => `${(((results.endpoint[key][i] ?? 0) / (results.none[key][i] ?? 1)) * 100 - 100).toFixed(1)} %`
  console.log(`pair ${i + 1}: wall ${pair('wall')}, CPU ${pair('cpu')}`)
}
console.log(`median: wall ${median(results.none.wall).toFixed(2)} -> ${median(results.endpoint.wall).toFixed(2)} s (${change('wall')}), CPU ${median(results.none.cpu).toFixed(2)} -> ${median(results.endpoint.cpu).toFixed(2)} s (${change('cpu')})`)
