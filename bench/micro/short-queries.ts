import { openSqliteStore } from '@frontdesk/adapter-sqlite'
import { createApiKey, createFrontdesk } from '@frontdesk/core'
import { createSearchEngine } from '../engine.ts'

/*
 * `node --conditions=source --import tsx bench/micro/short-queries.ts DB [ROUNDS]`: the CPU of
 * the queries of the bad-input rule and of one letter (README "Search"), over a benchmark
 * database (`bench/micro/seed-db.ts`): each query's first search (nothing of it remembered),
 * then ROUNDS more (default 10) with a new page size each (so no page memo answers them).
 * `Q=q1,q2,…` asks those queries instead. With `FRONTDESK_NO_MEMO=1` every search is a first one.
 */

const [path, roundsArg] = process.argv.slice(2)
if (path === undefined) throw new Error('usage: bench/micro/short-queries.ts DB [ROUNDS]')
const rounds = Number(roundsArg ?? 10)
const store = openSqliteStore({ path })
const engine = createSearchEngine({ store, snapshots: null })
await engine.warmUp()
const frontdesk = createFrontdesk({ store, search: engine, cache: { maxEntries: 0 } })
const { key } = await createApiKey(frontdesk.context, { tenantCode: 'bench', name: `micro-short ${Date.now()}`, permissions: ['cms:search'], rateLimit: 0 })
const principal = await frontdesk.authenticate({ apiKey: key, authorization: false }, 'cms:search')
// Warms the process as a server's traffic would (compiled code paths, the tenant's found items) on queries none of those below shares a term with.
for (const query of ['frontdeskbenchmarker', 'pr', 'co', 'ma', 're', 'in', 'de', 'pl', 'st', 'ser', 'tok', '開発', 'サービス', 'プロ', '新製', 'quarterly report', 'ab', 'se']) {
  for (let i = 0; i < 3; i++) await frontdesk.search(principal, { query, size: 1 + i })
}
const QUERIES = process.env['Q'] !== undefined ? process.env['Q'].split(',') : [
  'a', 's', 'x', 'e', 'あ', 'の', 'サ', '日', '-', '""', '- -', '"', '!!??', '★☆♪', '😀😀', '🎉 👍',
  'a'.repeat(500), 'e'.repeat(500), 'あ'.repeat(500), 'ア'.repeat(500), '日'.repeat(500), 'ー'.repeat(500), '-'.repeat(500), '"'.repeat(500), '😀'.repeat(250),
  'a '.repeat(250), 'あ '.repeat(250), 'a b c d e f g h i j k l m n o p q r s t u v w x y z', '"a" '.repeat(125), '"a"', '"の"', '"of the"', '"お知らせ"',
]
const label = (query: string) => (query.length > 20 ? `${JSON.stringify(query.slice(0, 6))}…×${query.length}` : JSON.stringify(query))
for (const query of QUERIES) {
  const first = process.cpuUsage()
  const body = (await frontdesk.search(principal, { query, size: 10 })).body as { pagination?: { total: number } }
  const firstUsed = process.cpuUsage(first)
  const start = process.cpuUsage()
  for (let i = 0; i < rounds; i++) await frontdesk.search(principal, { query, size: 11 + i })
  const used = process.cpuUsage(start)
  const ms = (usage: NodeJS.CpuUsage, n: number) => ((usage.user + usage.system) / 1000 / n).toFixed(2)
  console.log(`${label(query).padEnd(24)} total ${String(body.pagination?.total ?? '-').padStart(6)}  first ${ms(firstUsed, 1).padStart(7)} ms  warm ${ms(used, rounds).padStart(7)} ms CPU`)
}
await engine.close()
await store.close()
