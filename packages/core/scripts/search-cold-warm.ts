/**
 * In-process search timings, items found for the first time ("cold") against items found
 * before ("warm", what the benchmark's repeated queries measure), per query class of the
 * benchmark, in CPU ms per search (the machine is shared: wall time swings with others' load).
 *
 * `node --conditions=source --import tsx packages/core/scripts/search-cold-warm.ts DB KEY ITEMS [ROUNDS]`
 * over a database seeded by `packages/adapter-sqlite/scripts/seed-bench-db.ts DB ITEMS` (it
 * prints KEY); queries are chosen as the benchmark chooses them. Cold: a new frontdesk per round (no found items), each query once; warm: the same
 * frontdesk again.
 */
import { openSqliteStore } from '@frontdesk/adapter-sqlite'
import { createSearchEngine } from '@frontdesk/search'
import { createFrontdesk } from '@frontdesk/core'
import { Dataset } from '../../../bench/dataset.ts'
import type { QueryClass } from '../../../bench/queries.ts'
import { chooseQueries } from '../../../bench/queries.ts'

const [path, key, itemsArg, roundsArg] = process.argv.slice(2)
if (path === undefined || key === undefined || itemsArg === undefined) throw new Error('usage: search-cold-warm.ts DB KEY ITEMS [ROUNDS]')
const rounds = Number(roundsArg ?? '5')
// The data set is deterministic: generating it again gives the seeded vocabulary and visible items.
const dataset = new Dataset(Number(itemsArg))
for (const _ of dataset.records());

const store = openSqliteStore({ path })
const search = createSearchEngine({ store })
await search.warmUp()
const chooser = createFrontdesk({ store, search, cache: { maxEntries: 0 } })
const principal = await chooser.authenticate({ apiKey: key, authorization: false }, 'cms:search')
const queries = await chooseQueries(chooser, principal, dataset.facts.vocabulary, dataset.facts.visibleIds.length, 40)

const cpuMs = (from: NodeJS.CpuUsage): number => {
  const used = process.cpuUsage(from)
  return (used.user + used.system) / 1000
}
const quantile = (sorted: readonly number[], q: number): number => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? 0
const line = (label: string, times: number[]): string => {
  const sorted = [...times].sort((a, b) => a - b)
  const mean = sorted.reduce((sum, t) => sum + t, 0) / Math.max(1, sorted.length)
  return `${label} p50 ${quantile(sorted, 0.5).toFixed(2)}  p99 ${quantile(sorted, 0.99).toFixed(2)}  mean ${mean.toFixed(2)}`
}

for (const [name, set] of Object.entries(queries) as [QueryClass, (typeof queries)[QueryClass]][]) {
  const cold: number[] = []
  const warm: number[] = []
  for (let round = 0; round < rounds; round++) {
    const frontdesk = createFrontdesk({ store, search, cache: { maxEntries: 0 } })
    for (const { body } of set) {
      const start = process.cpuUsage()
      await frontdesk.search(principal, body)
      cold.push(cpuMs(start))
    }
    for (const { body } of set) {
      const start = process.cpuUsage()
      await frontdesk.search(principal, body)
      warm.push(cpuMs(start))
    }
  }
  console.log(`${name.padEnd(8)} cold: ${line('', cold)}   warm: ${line('', warm)}`)
}
await search.close()
await store.close()
