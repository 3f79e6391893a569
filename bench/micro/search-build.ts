/*
 * `node --conditions=source [--cpu-prof] --import tsx bench/micro/search-build.ts DB`: builds the
 * search index of a database seeded by `seed-db.ts` from the store (no snapshot), and prints
 * its wall and CPU time and the process's memory afterwards.
 */
import { openSqliteStore } from '@frontdesk/adapter-sqlite'
import { createSearchEngine } from '@frontdesk/search'

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
