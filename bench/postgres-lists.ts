/*
 * List queries on PostgreSQL at the benchmark's size: seeds the bench data set (as `frontdesk
 * import` does), then times the list requests through core's use case (the response cache off)
 * and prints the plan PostgreSQL chose for each (auto_explain, EXPLAIN ANALYZE with buffers):
 *
 *   node --conditions=source --import tsx bench/postgres-lists.ts [--items 100000] [--runs 7] [--vacuum]
 *
 * A throwaway server (fsync on, the benchmark's settings, auto_explain loaded) is started and
 * stopped; its log holds the plans.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { openPostgresStore } from '@frontdesk/adapter-postgres'
import { admin } from '@frontdesk/adapter-postgres/testing'
import type { Principal } from '@frontdesk/core'
import { createApiKey, createFrontdesk, createTenant, importRecords } from '@frontdesk/core'
import { CATEGORY_CODES, Dataset, fieldId } from './dataset.ts'
import { startBenchPostgres } from './postgres-server.ts'

const { values } = parseArgs({ options: { items: { type: 'string', default: '100000' }, runs: { type: 'string', default: '7' }, vacuum: { type: 'boolean' } } })
const items = Number(values.items)
const runs = Number(values.runs)

const server = await startBenchPostgres(false, { shared_preload_libraries: 'auto_explain' })
try {
  await admin(server.url, 'CREATE DATABASE lists')
  const url = new URL(server.url)
  url.pathname = '/lists'
  const seeding = await openPostgresStore({ url: url.toString() })
  const seeded = createFrontdesk({ store: seeding }).context
  await createTenant(seeded, { code: 'bench' })
  const dataset = new Dataset(items)
  const started = performance.now()
  await importRecords(seeded, { tenantCode: 'bench', records: dataset.records(), transaction: { bulk: true } })
  console.log(`imported ${items} items in ${((performance.now() - started) / 1000).toFixed(1)} s`)
  const { record } = await createApiKey(seeded, { tenantCode: 'bench', name: 'lists', permissions: ['cms:read'], rateLimit: 0 })
  await seeding.close()
  // With --vacuum: as autovacuum leaves the table a minute after a large import (the visibility
  // map set, so that index-only scans skip the rows); without, as it is right after the import.
  if (values.vacuum === true) await admin(url.toString(), 'VACUUM (ANALYZE) contents')
  // Every new session of the database logs its statements' plans, with actual times and buffers.
  for (const setting of ['log_min_duration = 0', 'log_analyze = on', 'log_buffers = on', 'log_timing = on', 'log_nested_statements = on']) {
    await admin(url.toString(), `ALTER DATABASE lists SET auto_explain.${setting}`)
  }
  const store = await openPostgresStore({ url: url.toString(), poolSize: 1 })
  const frontdesk = createFrontdesk({ store, cache: { maxEntries: 0 } })
  const tenant = await store.getTenantByCode('bench')
  if (tenant === null) throw new Error('no tenant')
  const principal: Principal = { tenant, key: record }
  const list = async (query: string) => {
    const reply = await frontdesk.listContents(principal, new URLSearchParams(query))
    if (reply.status !== 200) throw new Error(`${query}: ${reply.status} ${JSON.stringify(reply.body)}`)
    return reply.body as { items: { id: string }[]; pagination: { next_cursor: string | null } }
  }
  /** Times `query` `runs` times; the median and the slowest, in ms. */
  const time = async (label: string, query: string) => {
    const ms: number[] = []
    let count = 0
    for (let i = 0; i < runs; i++) {
      const start = performance.now()
      count = (await list(query)).items.length
      ms.push(performance.now() - start)
    }
    ms.sort((a, b) => a - b)
    console.log(`${label.padEnd(46)} median ${ms[Math.floor(ms.length / 2)]?.toFixed(2)} ms, max ${ms.at(-1)?.toFixed(2)} ms, ${count} items  (${query.slice(0, 110)})`)
  }
  /** The query of page `n` of `query` (walked with its cursors), or of its last page when it has fewer. */
  const pageOf = async (query: string, n: number): Promise<string> => {
    let at = query
    for (let page = 1; page < n; page++) {
      const cursor = (await list(at)).pagination.next_cursor
      if (cursor === null) {
        console.log(`(${query} has ${page} pages: its last one is timed)`)
        break
      }
      at = `${query}&cursor=${encodeURIComponent(cursor)}`
    }
    return at
  }
  const code = CATEGORY_CODES[0]
  const tag = dataset.facts.tags[0] ?? ''
  const rare = dataset.facts.tags[150] ?? ''
  const cases: [string, string][] = [
    ['list page 1 (newest first)', 'limit=20'],
    ['deep page by cursor: page 100 of 20', await pageOf('limit=20', 100)],
    [`deep page by cursor: page ${Math.floor(items / 200)} of 100 (half way)`, await pageOf('limit=100', Math.floor(items / 200))],
    ['title order, page 1', 'limit=20&sort=title:asc'],
    ['one category', `limit=20&category_code=${code}`],
    ['category + common tag + field filter', `limit=20&${new URLSearchParams({ category_code: code, tags: tag, field_filters: `${fieldId(code, 'region')}:tokyo` })}`],
    ['category + rare tag + field filter', `limit=20&${new URLSearchParams({ category_code: code, tags: rare, field_filters: `${fieldId(code, 'region')}:online` })}`],
    ['common tag alone', `limit=20&${new URLSearchParams({ tags: tag })}`],
    ['custom-field sort (number) in a category', `limit=20&category_code=${code}&sort=custom_reading_minutes:desc`],
    ['custom-field sort (date), deep page 50', await pageOf(`limit=20&category_code=${code}&sort=custom_event_date:asc`, 50)],
  ]
  const logFile = join(server.dir, 'postgres.log')
  const logStart = readFileSync(logFile, 'utf8').length
  for (const [label, query] of cases) await time(label, query)
  await store.close()
  const log = readFileSync(logFile, 'utf8').slice(logStart)
  console.log('\nplans (the last run of each, auto_explain):')
  const plans = log.split(/\n(?=\S.*LOG:\s+duration:)/).filter((entry) => /FROM contents c/.test(entry))
  for (let i = runs - 1; i < plans.length; i += runs) console.log(`${plans[i]?.slice(0, 3000)}\n`)
} finally {
  await server.stop()
}
