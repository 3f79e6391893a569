import { openSqliteStore } from '@frontdesk/adapter-sqlite'
import type { SearchPort } from '@frontdesk/core'
import { createApiKey, createFrontdesk } from '@frontdesk/core'
import { Dataset } from '../dataset.ts'
import { createSearchEngine } from '../engine.ts'
import type { SearchClass } from '../search-classes.ts'
import { SEARCH_CLASS_IDS, SearchStreams } from '../search-classes.ts'

/*
 * `node --cpu-prof --conditions=source --import tsx bench/micro/search-class-loop.ts DB CLASS [SECONDS]`:
 * searches new queries of one class of `npm run bench` (never asked before, as there) for
 * SECONDS (default 10) after the index is built, over a benchmark database
 * (`bench/micro/seed-db.ts`), to profile where that class's searches spend their time. Prints
 * the CPU per search and the part of it inside the engine (the search port's calls, by the
 * wall clock: searches run one at a time).
 */

const [path, className, secondsArg] = process.argv.slice(2)
if (path === undefined || className === undefined || !(SEARCH_CLASS_IDS as string[]).includes(className)) {
  throw new Error(`usage: bench/micro/search-class-loop.ts DB CLASS [SECONDS]; CLASS: ${SEARCH_CLASS_IDS.join(', ')}`)
}
const store = openSqliteStore({ path })
const engine = createSearchEngine({ store, snapshots: null })
await engine.warmUp()
let engineMs = 0
const timed: SearchPort = {
  search: async (tenantId, query) => {
    const at = performance.now()
    const result = await engine.search(tenantId, query)
    engineMs += performance.now() - at
    return result
  },
}
const frontdesk = createFrontdesk({ store, search: timed, cache: { maxEntries: 0 } })
const { key } = await createApiKey(frontdesk.context, { tenantCode: 'bench', name: `micro-search ${Date.now()}`, permissions: ['cms:search'], rateLimit: 0 })
const principal = await frontdesk.authenticate({ apiKey: key, authorization: false }, 'cms:search')
const stream = new SearchStreams(new Dataset(0).facts.vocabulary).stream(className as SearchClass)
const until = performance.now() + Number(secondsArg ?? 10) * 1000
const start = process.cpuUsage()
let count = 0
while (performance.now() < until) {
  await frontdesk.search(principal, stream.next())
  count++
}
const used = process.cpuUsage(start)
console.log(`${className}: ${count} new searches, ${((used.user + used.system) / 1000 / count).toFixed(3)} ms CPU each, ${(engineMs / count).toFixed(3)} ms in the engine`)
await engine.close()
await store.close()
