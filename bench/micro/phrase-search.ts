import { openSqliteStore } from '@frontdesk/adapter-sqlite'
import { createApiKey, createFrontdesk } from '@frontdesk/core'
import { createSearchEngine } from '../engine.ts'

/*
 * `node --conditions=source --import tsx bench/micro/phrase-search.ts DB [ROUNDS]`: the CPU of
 * searches of quoted phrases against the same words unquoted, over a benchmark database
 * (`bench/micro/seed-db.ts`), each query asked ROUNDS times (default 20) with a new page size
 * (so no memo answers it), after one warm-up round.
 */

const [path, roundsArg] = process.argv.slice(2)
if (path === undefined) throw new Error('usage: bench/micro/phrase-search.ts DB [ROUNDS]')
const rounds = Number(roundsArg ?? 20)
const store = openSqliteStore({ path })
const engine = createSearchEngine({ store, snapshots: null })
await engine.warmUp()
const frontdesk = createFrontdesk({ store, search: engine, cache: { maxEntries: 0 } })
const { key } = await createApiKey(frontdesk.context, { tenantCode: 'bench', name: `micro-phrase ${Date.now()}`, permissions: ['cms:search'], rateLimit: 0 })
const principal = await frontdesk.authenticate({ apiKey: key, authorization: false }, 'cms:search')
const QUERIES = ['of the', 'new service', 'customer experience', 'security update', 'tokyo office', '新製品の発表', 'お知らせ', 'サービス開始']
for (const words of QUERIES) {
  for (const query of [words, `"${words}"`]) {
    let total = 0
    for (let size = 1; size <= 2; size++) total = ((await frontdesk.search(principal, { query, size })).body as { pagination: { total: number } }).pagination.total
    const start = process.cpuUsage()
    for (let i = 0; i < rounds; i++) await frontdesk.search(principal, { query, size: 3 + (i % 90) })
    const used = process.cpuUsage(start)
    console.log(`${query.padEnd(24)} total ${String(total).padStart(6)}  ${((used.user + used.system) / 1000 / rounds).toFixed(2)} ms CPU each`)
  }
}
await engine.close()
await store.close()
