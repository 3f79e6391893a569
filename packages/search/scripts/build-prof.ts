/* Builds the search index of a kept bench database (no snapshot), timing it: `node --conditions=source --cpu-prof --import tsx packages/search/scripts/build-prof.ts DB`. */
import { openSqliteStore } from '@frontdesk/adapter-sqlite'
import { createSearchEngine } from '../src/index.ts'

const path = process.argv[2] ?? ''
const store = openSqliteStore({ path })
const search = createSearchEngine({ store, warmUp: false, onBuild: (i) => console.log(i.source, i.items, `${i.ms.toFixed(0)} ms`) })
const cpu = process.cpuUsage()
const started = performance.now()
await search.warmUp()
const used = process.cpuUsage(cpu)
console.log(`build ${(performance.now() - started).toFixed(0)} ms wall, ${((used.user + used.system) / 1000).toFixed(0)} ms cpu, rss ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MB`)
await search.close()
await store.close()
