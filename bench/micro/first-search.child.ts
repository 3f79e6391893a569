/**
 * A start like `serve`'s: opens the database and the search engine over the snapshots (read
 * only: closing must not save a caught-up snapshot, which would change what the next start
 * reads), and answers one correct search of the tenant (the marker term finds its one item).
 * Prints JSON: how the index was made, how many changes it replayed after the snapshot (and
 * its delta: how many items that holds), the milliseconds from the process's start to the
 * answer, and the CPU milliseconds the process used until then (steadier than the time on a
 * machine shared with other work).
 * `first-search.child.ts DB SEARCH_DIR TENANT_CODE`
 */
import { parseQueryTerms } from '@frontdesk/core'
import type { SearchBuildInfo } from '@frontdesk/search'
import { createSearchEngine, directorySnapshots, snapshotBacklog } from '@frontdesk/search'
import { openStore } from '../../packages/cli/src/session.ts'
import { MARKER_TERM } from '../dataset.ts'

const [db = '', searchDir = '', code = ''] = process.argv.slice(2)
const store = await openStore(db)
const snapshots = directorySnapshots(searchDir)
const tenantId = (await store.getTenantByCode(code))?.id ?? ''
const backlog = await snapshotBacklog(store, snapshots, tenantId, 1_000_000)
const behind = backlog?.changes ?? -1
const builds: SearchBuildInfo[] = []
const search = createSearchEngine({ store, snapshots: { read: (name) => snapshots.read(name), write: async () => false }, warmUp: false, onBuild: (info) => builds.push(info) })
const result = await search.search(tenantId, { terms: parseQueryTerms(MARKER_TERM), now: new Date().toISOString(), categoryId: null, tags: null, filters: [], sort: { kind: 'relevance' }, from: 0, size: 10 })
if (result.total !== 1) throw new Error(`the marker term found ${result.total} items, not 1`)
// Hint: since the process started (modules loaded included), as a server's start is counted.
const cpu = process.cpuUsage()
process.stdout.write(`${JSON.stringify({ deltaItems: backlog?.delta?.items ?? 0, source: builds.map((b) => `${b.source}${b.snapshot === undefined ? "" : ` (snapshot ${b.snapshot})`} ${b.items} items`).join(', '), behind, ms: performance.now(), cpuMs: (cpu.user + cpu.system) / 1000 })}\n`)
await search.close()
await store.close()
