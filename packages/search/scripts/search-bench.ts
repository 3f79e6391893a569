/*
 * Measures the search index over a database seeded by the benchmark's data set (bench/seed.ts):
 * build time and memory, snapshot size and reload time, and in-process search latency per
 * query class (the bench's own query choice and timing). Not part of the test suite.
 *
 *   node --conditions=source --import tsx packages/search/scripts/search-bench.ts DB FACTS.json [--runs 200] [--snapshot DIR]
 */
import { readFileSync, rmSync, statSync } from 'node:fs'
import { createFrontdesk } from '@frontdesk/core'
import type { Principal } from '@frontdesk/core'
import { chooseQueries } from '../../../bench/queries.ts'
import { percentile, timeEach } from '../../../bench/stats.ts'
import { openSqliteStore } from '@frontdesk/adapter-sqlite'
import { createSearchEngine, directorySnapshots } from '../src/index.ts'

const [dbPath, factsPath] = process.argv.slice(2)
const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(name)
  return i < 0 ? undefined : process.argv[i + 1]
}
const runs = Number(arg('--runs') ?? 200)
const snapshotDir = arg('--snapshot')
if (dbPath === undefined || factsPath === undefined) throw new Error('usage: search-bench.ts DB FACTS.json')
const { key, facts } = JSON.parse(readFileSync(factsPath, 'utf8'))
const mb = (n: number) => `${(n / 1048576).toFixed(0)} MB`
const gc = () => (globalThis as { gc?: () => void }).gc?.()

const store = openSqliteStore({ path: dbPath })
gc()
const rss0 = process.memoryUsage().rss
const heap0 = process.memoryUsage().heapUsed
const started = performance.now()
const cpu0 = process.cpuUsage()
const search = createSearchEngine({ store, warmUp: false, snapshots: snapshotDir === undefined ? null : directorySnapshots(snapshotDir), onBuild: (i) => console.log(`build ${i.source}: ${i.items} items in ${(i.ms / 1000).toFixed(2)} s`) })
await search.warmUp()
const buildS = (performance.now() - started) / 1000
const cpu = process.cpuUsage(cpu0)
console.log(`warm-up CPU ${((cpu.user + cpu.system) / 1e6).toFixed(2)} s`)
gc()
const m = process.memoryUsage()
console.log(`warm-up ${buildS.toFixed(2)} s; rss ${mb(m.rss)} (+${mb(m.rss - rss0)}), heap +${mb(m.heapUsed - heap0)}, arrayBuffers ${mb(m.arrayBuffers)}`)

if (process.argv.includes('--build-only')) {
  await search.close()
  await store.close()
  process.exit(0)
}
const frontdesk = createFrontdesk({ store, search, cache: { maxEntries: 0 } })
const principal: Principal = await frontdesk.authenticate({ apiKey: key, authorization: false }, 'cms:search')
const t0 = performance.now()
const queries = await chooseQueries(frontdesk, principal, facts.vocabulary, facts.visibleIds.length, 40)
console.log(`chose queries in ${((performance.now() - t0) / 1000).toFixed(1)} s: ${Object.entries(queries).map(([k, v]) => `${k}=${v.length}`).join(' ')}`)
for (const [name, set] of Object.entries(queries)) {
  if (set.length === 0) continue
  for (const { body } of set.slice(0, 10)) await frontdesk.search(principal, body)
  const sorted = await timeEach(runs, (i) => frontdesk.search(principal, set[i % set.length]?.body ?? {}))
  const totals = set.map((q) => q.total)
  console.log(`${name.padEnd(9)} p50 ${percentile(sorted, 0.5).toFixed(2)} ms  p99 ${percentile(sorted, 0.99).toFixed(2)} ms  max ${(sorted[sorted.length - 1] ?? 0).toFixed(2)} ms  (hits ${Math.min(...totals)}–${Math.max(...totals)})`)
}
if (process.argv.includes('--profile-engine')) {
  // The engine alone, without core's request parsing and result building.
  const { parseQueryTerms } = await import('@frontdesk/core')
  const tenant = (await store.listTenants())[0]
  for (const [name, set] of Object.entries(queries)) {
    const sorted = await timeEach(runs, (i) => search.search(tenant?.id ?? '', { terms: parseQueryTerms(String(set[i % set.length]?.body.query ?? '')), now: new Date().toISOString(), categoryId: null, tags: null, filters: [], sort: { kind: 'relevance' }, from: 0, size: 10 }))
    console.log(`engine ${name.padEnd(9)} p50 ${percentile(sorted, 0.5).toFixed(2)} ms  p99 ${percentile(sorted, 0.99).toFixed(2)} ms`)
  }
}
const closing = performance.now()
await search.close()
console.log(`close (snapshot write) ${((performance.now() - closing) / 1000).toFixed(2)} s`)
if (snapshotDir !== undefined) {
  for (const tenant of await store.listTenants()) {
    try {
      console.log(`snapshot ${tenant.code}: ${mb(statSync(`${snapshotDir}/${tenant.id}.index`).size)}`)
    } catch {}
  }
}
await store.close()
if (process.argv.includes('--drop-snapshot') && snapshotDir !== undefined) rmSync(snapshotDir, { recursive: true, force: true })
