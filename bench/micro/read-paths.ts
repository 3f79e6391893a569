/**
 * In-process timings of the read paths the benchmark's cache-miss scenarios exercise (detail,
 * list pages, category + tag + field filter lists), through the use cases without a response
 * cache, plus the JSON serialisation the server does, over a database seeded by
 * `seed-db.ts`. With `--explain`, prints the query plan of one statement of each kind.
 *
 * `node --conditions=source --import tsx bench/micro/read-paths.ts FILE [--runs N] [--only detail,list,tags] [--explain]`
 */
import type { Database } from 'better-sqlite3'
import { createApiKey, createFrontdesk } from '@frontdesk/core'
import { CATEGORY_CODES, fieldId, REGIONS } from '../dataset.ts'
import { percentile } from '../stats.ts'
import { openSqliteStore } from '@frontdesk/adapter-sqlite'
import { walkedPages } from '../walks.ts'

const args = process.argv.slice(2)
const path = args[0]
if (path === undefined) throw new Error('usage: read-path-timing.ts FILE [--runs N] [--explain]')
const runsAt = args.indexOf('--runs')
const runs = runsAt >= 0 ? Number(args[runsAt + 1]) : 3000
const explain = args.includes('--explain')
const onlyAt = args.indexOf('--only')
const only = onlyAt >= 0 ? (args[onlyAt + 1] ?? '').split(',') : null
const wanted = (name: string) => only === null || only.includes(name)

const store = openSqliteStore({ path })
const frontdesk = createFrontdesk({ store, cache: { maxEntries: 0 }, defaultRateLimit: 0 })
const tenant = await store.getTenantByCode('bench')
if (tenant === null) throw new Error('no bench tenant: seed the file with seed-bench-db.ts')
const { key } = await createApiKey(frontdesk.context, { tenantCode: 'bench', name: `timing ${Date.now()}`, permissions: ['cms:*'], rateLimit: 0 })
const principal = await frontdesk.authenticate({ apiKey: key, authorization: false }, 'cms:read')

// Every SQL text the reader prepares, with the parameters of its last run, for --explain.
const seen = new Map<string, unknown[]>()
if (explain) {
  const db: Database = store.db
  const prepare = db.prepare.bind(db)
  db.prepare = ((sql: string) => {
    const statement = prepare(sql)
    for (const method of ['all', 'get', 'iterate'] as const) {
      const original = statement[method].bind(statement) as (...params: unknown[]) => unknown
      ;(statement as unknown as Record<string, unknown>)[method] = (...params: unknown[]) => {
        seen.set(sql, params)
        return original(...params)
      }
    }
    return statement
  }) as typeof db.prepare
}

let prng = 12345
const random = (n: number) => {
  prng = (prng * 1103515245 + 12345) % 2147483648
  return prng % n
}

const now = new Date().toISOString()
const visibleIds = store.db
  .prepare("SELECT c.id FROM contents c WHERE c.tenant_id = ? AND c.status = 'published' AND c.published_at <= ?")
  .pluck()
  .all(tenant.id, now) as string[]

async function time(label: string, count: number, work: (i: number) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < Math.min(50, count); i++) await work(i)
  const durations: number[] = []
  const cpu = process.cpuUsage()
  const started = performance.now()
  for (let i = 0; i < count; i++) {
    const start = performance.now()
    await work(i)
    durations.push(performance.now() - start)
  }
  const total = performance.now() - started
  const used = process.cpuUsage(cpu)
  durations.sort((a, b) => a - b)
  const f = (ms: number) => ms.toFixed(3).padStart(8)
  console.log(`${label.padEnd(28)} n=${String(count).padStart(5)} mean ${f(total / count)}  p50 ${f(percentile(durations, 0.5))}  p90 ${f(percentile(durations, 0.9))}  p99 ${f(percentile(durations, 0.99))}  max ${f(durations[durations.length - 1] ?? 0)} ms; CPU ${f((used.user + used.system) / 1000 / count)} ms per call`)
}

// Pages to fetch: cursors of the walked lists (default order, each category, title order).
const pages = await walkedPages(frontdesk, principal)
const combos: URLSearchParams[] = []
const tags = store.db
  .prepare('SELECT t.name FROM tags t JOIN content_tags ct ON ct.tenant_id = t.tenant_id AND ct.tag_id = t.id WHERE t.tenant_id = ? GROUP BY t.id ORDER BY count(*) DESC LIMIT 100')
  .pluck()
  .all(tenant.id) as string[]
for (const code of CATEGORY_CODES) {
  for (const tag of tags) {
    for (const region of REGIONS) combos.push(new URLSearchParams({ category_code: code, tags: tag, field_filters: `${fieldId(code, 'region')}:${region}` }))
  }
}
console.log(`${visibleIds.length} visible ids, ${pages.length} walked pages, ${combos.length} tag+field combinations`)

const pick = <T>(list: T[]): T => list[random(list.length)] as T
if (wanted('detail')) await time('store.getContent', runs, () => store.getContent(tenant.id, pick(visibleIds)))
if (wanted('detail')) await time('detail (use case + JSON)', runs, async () => JSON.stringify((await frontdesk.getContent(principal, pick(visibleIds))).body))
if (wanted('list')) await time('list page (use case + JSON)', runs, async () => JSON.stringify((await frontdesk.listContents(principal, pick(pages))).body))
if (wanted('tags')) await time('tags+fields (use case + JSON)', runs, async () => JSON.stringify((await frontdesk.listContents(principal, pick(combos))).body))

if (explain) {
  for (const [sql, params] of [...seen]) {
    if (!/FROM contents c|content_tags|content_fields/.test(sql)) continue
    console.log(`\n${sql}\n  params: ${JSON.stringify(params)}`)
    const plan = store.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { id: number; parent: number; detail: string }[]
    const depth = new Map<number, number>([[0, 0]])
    for (const row of plan) {
      const d = (depth.get(row.parent) ?? 0) + 1
      depth.set(row.id, d)
      console.log(`${'  '.repeat(d)}${row.detail}`)
    }
  }
}
await store.close()
const status = (await import('node:fs')).readFileSync('/proc/self/status', 'utf8')
console.log(status.split('\n').filter((line) => /^(VmRSS|RssAnon|RssFile)/.test(line)).join('  ').replace(/\s+/g, ' '))
