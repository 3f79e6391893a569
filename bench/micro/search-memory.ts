import { openSqliteStore } from '@frontdesk/adapter-sqlite'
import { createSearchEngine, directorySnapshots } from '@frontdesk/search'

/*
 * `node --expose-gc --conditions=source --import tsx bench/micro/search-memory.ts FILE`: the
 * memory one process's search index takes for the database FILE (seeded by seed-db.ts, with
 * its snapshots in FILE.search): heap and RSS after a full GC, before and after the index is
 * restored from the snapshot — what each worker of `serve --workers` holds.
 */

const path = process.argv[2]
if (path === undefined) throw new Error('usage: bench/micro/search-memory.ts FILE')
const gc = (globalThis as { gc?: () => void }).gc
if (gc === undefined) throw new Error('run with node --expose-gc')
const mb = (bytes: number) => `${(bytes / 1048576).toFixed(0)} MB`
const store = openSqliteStore({ path })
const tenants = await store.listTenants()
gc()
const before = process.memoryUsage()
const started = performance.now()
const search = createSearchEngine({ store, snapshots: directorySnapshots(`${path}.search`), warmUp: false })
let items = 0
for (const tenant of tenants) items += await search.indexedCount(tenant.id)
const ms = performance.now() - started
gc()
const after = process.memoryUsage()
console.log(
  `${items} items restored in ${ms.toFixed(0)} ms: heap +${mb(after.heapUsed - before.heapUsed)}, array buffers +${mb(after.arrayBuffers - before.arrayBuffers)}, ` +
    `external +${mb(after.external - before.external)}, RSS +${mb(after.rss - before.rss)} (RSS ${mb(after.rss)})`,
)
await search.close()
await store.close()
