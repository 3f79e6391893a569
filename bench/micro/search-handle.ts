import { openSqliteStore } from '@frontdesk/adapter-sqlite'
import { createApiKey, createFrontdesk } from '@frontdesk/core'
import { handle } from '@frontdesk/http'
import { Dataset } from '../dataset.ts'
import { createSearchEngine } from '../engine.ts'
import type { SearchClass } from '../search-classes.ts'
import { SEARCH_CLASS_IDS, SearchStreams } from '../search-classes.ts'

/*
 * `node --conditions=source --import tsx bench/micro/search-handle.ts DB [RUNS] [CLASS,…]`:
 * the CPU of a search through the use case (`frontdesk.search()`) against the same through
 * the HTTP adapter's `handle()` (routing, the key, the body, the reply's JSON; no sockets, no
 * TLS), per class of `npm run bench`, on new queries (never asked before) over a benchmark
 * database (`bench/micro/seed-db.ts`). What `handle()` adds is the search's cost before
 * `node:https`; `npm run bench` reports the whole request's.
 */

const [path, runsArg, classesArg] = process.argv.slice(2)
if (path === undefined) throw new Error(`usage: bench/micro/search-handle.ts DB [RUNS] [CLASS,…]; classes: ${SEARCH_CLASS_IDS.join(', ')}`)
const runs = Number(runsArg ?? 300)
const classes = (classesArg?.split(',') ?? SEARCH_CLASS_IDS) as SearchClass[]
const store = openSqliteStore({ path })
const engine = createSearchEngine({ store, snapshots: null })
await engine.warmUp()
const frontdesk = createFrontdesk({ store, search: engine, cache: { maxEntries: 0 } })
const { key } = await createApiKey(frontdesk.context, { tenantCode: 'bench', name: `micro-search ${Date.now()}`, permissions: ['cms:search'], rateLimit: 0 })
const principal = await frontdesk.authenticate({ apiKey: key, authorization: false }, 'cms:search')
const streams = new SearchStreams(new Dataset(0).facts.vocabulary)
const headers = { 'x-api-key': key, 'content-type': 'application/json', host: 'x' }

const cpuOf = async (work: () => Promise<unknown>): Promise<number> => {
  const cpu = process.cpuUsage()
  await work()
  const used = process.cpuUsage(cpu)
  return used.user + used.system
}
const median = (list: number[]) => [...list].sort((a, b) => a - b)[list.length >> 1] ?? 0

console.log('class      use case µs  handle() µs  reply bytes')
for (const cls of classes) {
  const stream = streams.stream(cls)
  const direct: number[] = []
  const viaHandle: number[] = []
  let bytes = 0
  // In turns, each on a query of its own, so that both see the same machine and neither a repeat.
  for (let i = 0; i < runs; i++) {
    direct.push(await cpuOf(() => frontdesk.search(principal, stream.next())))
    viaHandle.push(await cpuOf(async () => {
      const reply = await handle(frontdesk, { method: 'POST', url: '/v1/cms/search', headers, secure: true, remoteAddress: '127.0.0.1', body: Buffer.from(JSON.stringify(stream.next())) })
      if (reply.status !== 200) throw new Error(`status ${reply.status}: ${reply.body.toString()}`)
      bytes += reply.body.length
    }))
  }
  console.log(`${cls.padEnd(9)} ${median(direct).toFixed(0).padStart(12)} ${median(viaHandle).toFixed(0).padStart(12)} ${Math.round(bytes / runs).toString().padStart(12)}`)
}
await engine.close()
await store.close()
