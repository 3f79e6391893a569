import { readFileSync } from 'node:fs'
import { createFrontdesk } from '@frontdesk/core'
import type { Principal } from '@frontdesk/core'
import { chooseQueries } from '../../../bench/queries.ts'
import { openSqliteStore } from '@frontdesk/adapter-sqlite'
import { createSearchEngine, directorySnapshots } from '../src/index.ts'
const [dbPath, factsPath, snap, cls] = process.argv.slice(2)
const { key, facts } = JSON.parse(readFileSync(factsPath ?? '', 'utf8'))
const store = openSqliteStore({ path: dbPath ?? '' })
const search = createSearchEngine({ store, warmUp: false, snapshots: snap === undefined ? null : directorySnapshots(snap) })
await search.warmUp()
const frontdesk = createFrontdesk({ store, search, cache: { maxEntries: 0 } })
const principal: Principal = await frontdesk.authenticate({ apiKey: key, authorization: false }, 'cms:search')
const queries = await chooseQueries(frontdesk, principal, facts.vocabulary, facts.visibleIds.length, 40)
const set = queries[(cls ?? 'filtered') as keyof typeof queries]
const c0 = process.cpuUsage()
for (let r = 0; r < 10; r++) for (const { body } of set) await frontdesk.search(principal, body)
const c = process.cpuUsage(c0)
console.log(cls, 'cpu ms per search', ((c.user + c.system) / 1000 / (10 * set.length)).toFixed(2), JSON.stringify(set[0]?.body))
await search.close()
await store.close()
