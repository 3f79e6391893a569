/**
 * Where the SQL time of the benchmark's category + tag + field_filters lists goes, by statement
 * kind (filter counts, lists driven by one filter's links, merged filters, lists by an order
 * index): 12,000 random lists, then 12,000 random pages of the walked lists, through the use case (no response cache), two rounds, over a
 * database seeded by `seed-db.ts`.
 *
 * `node --conditions=source --import tsx bench/micro/list-statements.ts FILE`
 */
import type { Database } from 'better-sqlite3'
import { createApiKey, createFrontdesk } from '@frontdesk/core'
import { CATEGORY_CODES, fieldId, REGIONS } from '../dataset.ts'
import { openSqliteStore } from '@frontdesk/adapter-sqlite'
import { walkedPages } from '../walks.ts'
const store = openSqliteStore({ path: process.argv[2] as string })
const frontdesk = createFrontdesk({ store, cache: { maxEntries: 0 }, defaultRateLimit: 0 })
const tenant = await store.getTenantByCode('bench')
if (tenant === null) throw new Error('no tenant')
const { key } = await createApiKey(frontdesk.context, { tenantCode: 'bench', name: `t ${Date.now()}`, permissions: ['cms:*'], rateLimit: 0 })
const principal = await frontdesk.authenticate({ apiKey: key, authorization: false }, 'cms:read')
const totals = new Map<string, { n: number; ms: number; rows: number }>()
const db: Database = store.db
const prepare = db.prepare.bind(db)
db.prepare = ((sql: string) => {
  const statement = prepare(sql)
  const kind = sql.startsWith('SELECT count') ? 'count' : sql.includes('INTERSECT') ? 'list merged' : sql.includes('CROSS JOIN contents c') ? 'list driven' : sql.includes('FROM contents c') ? `list by index${sql.includes('c.category_id IN') ? ', one category' : ''}${sql.includes('ORDER BY c.title') ? ', by title' : ''}` : sql.slice(0, 40)
  for (const method of ['all', 'get'] as const) {
    const original = statement[method].bind(statement) as (...params: unknown[]) => unknown
    ;(statement as unknown as Record<string, unknown>)[method] = (...params: unknown[]) => {
      const s = performance.now()
      const r = original(...params)
      const t = totals.get(kind) ?? { n: 0, ms: 0, rows: 0 }
      t.n++; t.ms += performance.now() - s; t.rows += Array.isArray(r) ? r.length : 1
      totals.set(kind, t)
      return r
    }
  }
  return statement
}) as typeof db.prepare
const tags = db.prepare('SELECT t.name FROM tags t JOIN content_tags ct ON ct.tenant_id = t.tenant_id AND ct.tag_id = t.id WHERE t.tenant_id = ? GROUP BY t.id ORDER BY count(*) DESC LIMIT 100').pluck().all(tenant.id) as string[]
const combos: URLSearchParams[] = []
for (const code of CATEGORY_CODES) for (const tag of tags) for (const region of REGIONS) combos.push(new URLSearchParams({ category_code: code, tags: tag, field_filters: `${fieldId(code, 'region')}:${region}` }))
// The walked lists' pages (default order, each category, title order), as list_miss rotates them.
const pages = await walkedPages(frontdesk, principal)
let prng = 7
for (const [name, lists] of [['category + tag + field', combos], ['walked pages', pages]] as const) {
  for (let round = 0; round < 2; round++) {
    totals.clear()
    const s = performance.now()
    for (let i = 0; i < 12000; i++) {
      prng = (prng * 1103515245 + 12345) % 2147483648
      await frontdesk.listContents(principal, lists[prng % lists.length] as URLSearchParams)
    }
    const all = performance.now() - s
    console.log(`${name}, round ${round}: ${((all / 12000) * 1000).toFixed(0)} µs per list`)
    for (const [k, t] of totals) console.log(`  ${k.padEnd(40)} n=${t.n} ${((t.ms / 12000) * 1000).toFixed(1)} µs per list, ${((t.ms / t.n) * 1000).toFixed(1)} µs each, ${(t.rows / t.n).toFixed(1)} rows`)
  }
}
await store.close()
