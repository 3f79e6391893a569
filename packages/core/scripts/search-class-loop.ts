/**
 * `node --cpu-prof --conditions=source --import tsx packages/core/scripts/search-class-loop.ts DB KEY ITEMS CLASS [SECONDS]`:
 * repeats the benchmark's queries of one class (en1, en2, ja1, ja2, common, filtered) for
 * SECONDS (default 10) after the index is built, to profile where one class's searches spend
 * their time. Prints the CPU per search, and the part of it inside the engine (`SearchPort.search`,
 * by the wall clock).
 */
import { openSqliteStore } from '@frontdesk/adapter-sqlite'
import { createSearchEngine, directorySnapshots } from '@frontdesk/search'
import { createFrontdesk } from '@frontdesk/core'
import { Dataset } from '../../../bench/dataset.ts'
import type { QueryClass } from '../../../bench/queries.ts'
import { chooseQueries } from '../../../bench/queries.ts'

const [path, key, itemsArg, className, secondsArg] = process.argv.slice(2)
if (path === undefined || key === undefined || itemsArg === undefined || className === undefined) {
  throw new Error('usage: search-class-loop.ts DB KEY ITEMS CLASS [SECONDS]')
}
const dataset = new Dataset(Number(itemsArg))
for (const _ of dataset.records());
const store = openSqliteStore({ path })
const search = createSearchEngine({ store, snapshots: directorySnapshots(`${path}.search`) })
await search.warmUp()
// The engine's share, by the wall clock from call to answer: searches run one at a time, so
// that is its CPU time (and its freshness check), when the machine is not busy elsewhere.
let engineMs = 0
const engineSearch = search.search.bind(search)
search.search = async (tenantId, query) => {
  const at = performance.now()
  const result = await engineSearch(tenantId, query)
  engineMs += performance.now() - at
  return result
}
const frontdesk = createFrontdesk({ store, search, cache: { maxEntries: 0 } })
const principal = await frontdesk.authenticate({ apiKey: key, authorization: false }, 'cms:search')
const queries = await chooseQueries(frontdesk, principal, dataset.facts.vocabulary, dataset.facts.visibleIds.length, 40)
const set = queries[className as QueryClass]
if (set === undefined) throw new Error(`unknown class ${className}: ${Object.keys(queries).join(', ')}`)
const until = performance.now() + Number(secondsArg ?? 10) * 1000
const start = process.cpuUsage()
engineMs = 0
let count = 0
while (performance.now() < until) {
  for (const { body } of set) {
    await frontdesk.search(principal, body)
    count++
  }
}
const used = process.cpuUsage(start)
console.log(`${className}: ${count} searches, ${(((used.user + used.system) / 1000) / count).toFixed(3)} ms CPU each, ${(engineMs / count).toFixed(3)} ms in the engine`)
await search.close()
await store.close()
