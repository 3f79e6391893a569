/*
 * Import speed (with search indexing) and durable inquiries per second on PostgreSQL, each
 * bounded to a few seconds, in-process (no HTTP; `npm run bench -- --store postgres` measures
 * inquiries over HTTPS):
 *
 *   node --conditions=source --import tsx bench/postgres-throughput.ts [--items N] [--seconds S]
 *        [--callers N] [--url postgres://…] [--only import|inquiries] [--statements] [--pregenerated]
 *        [--no-index] [--no-bulk]
 *
 * Without --url a throwaway server is started (scripts/test-postgres.mjs) with fsync on and the
 * benchmark's server settings (`BENCH_SERVER_SETTINGS`); every connection commits with
 * synchronous_commit on (the store sets it). The import is the benchmark's data set
 * (bench/dataset.ts, 1–2 KB HTML bodies, tags and five custom fields per category) streamed from
 * its generator into one `importRecords` transaction as `frontdesk import` does it: a bulk load,
 * the items analysed for search on a worker thread while they are written, the snapshot saved.
 * --no-bulk imports without the bulk hint: indexes kept up row by row (what the store did before
 * it declared bulkLoad), items by the unnest upsert as before (COPY needs no hint and stays).
 * --no-index imports without the search indexing alongside (then builds it from the database).
 * --pregenerated generates the records first (as `npm run bench` seeds), timing only the import.
 * --statements prints the statements that took the most time on the server (pg_stat_statements).
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import pg from 'pg'
import { openPostgresStore } from '@frontdesk/adapter-postgres'
import { admin } from '@frontdesk/adapter-postgres/testing'
import { createFrontdesk, createTenant, importRecords } from '@frontdesk/core'
import { anInquiry } from '@frontdesk/core/testing'
import { createSearchEngine, directorySnapshots, indexWhileImporting } from '@frontdesk/search'
import { Dataset } from './dataset.ts'
import { BENCH_SERVER_SETTINGS, startBenchPostgres } from './postgres-server.ts'
import { cpuBetween, readCpu } from './process-cpu.ts'

const { values } = parseArgs({
  options: {
    items: { type: 'string', default: '20000' },
    seconds: { type: 'string', default: '5' },
    callers: { type: 'string', default: '64' },
    url: { type: 'string' },
    only: { type: 'string' },
    statements: { type: 'boolean' },
    pregenerated: { type: 'boolean' },
    'no-index': { type: 'boolean' },
    'no-bulk': { type: 'boolean' },
  },
})
const items = Number(values.items)
const seconds = Number(values.seconds)
const callers = Number(values.callers)

const server = values.url === undefined ? await startBenchPostgres(values.statements === true) : null
const baseUrl = values.url ?? server?.url ?? ''
const dir = mkdtempSync(join(tmpdir(), 'frontdesk-pg-throughput-'))
const database = `bench_${process.pid}`
try {
  await admin(baseUrl, `CREATE DATABASE ${database}`)
  const url = new URL(baseUrl)
  url.pathname = `/${database}`
  const store = await openPostgresStore({ url: url.toString() })
  const { context } = createFrontdesk({ store })
  const result: Record<string, unknown> = { server: server === null ? 'given' : { fsync: 'on', synchronous_commit: 'on', ...BENCH_SERVER_SETTINGS } }

  if (values.only !== 'inquiries') {
    await createTenant(context, { code: 'bench' })
    const tenantId = (await store.getTenantByCode('bench'))?.id ?? ''
    const snapshots = directorySnapshots(join(dir, 'search'))
    const indexing = indexWhileImporting({ tenantId, snapshots })
    if (values.statements === true) {
      await admin(url.toString(), 'CREATE EXTENSION IF NOT EXISTS pg_stat_statements')
      await admin(url.toString(), 'SELECT pg_stat_statements_reset()')
    }
    // Streamed from the generator, as a file is (the records are never all in memory); or, with
    // --pregenerated, generated first, as \`npm run bench\` seeds, so that only the import is timed.
    const records = values.pregenerated === true ? [...new Dataset(items).records()] : new Dataset(items).records()
    const started = performance.now()
    // CPU of this process (main thread and the indexing worker) and of the server's processes (a throwaway one only).
    const cpuStart = { client: process.cpuUsage(), server: server === null ? null : readCpu([server.pid]) }
    const summary = await importRecords(context, {
      tenantCode: 'bench',
      records,
      transaction: { bulk: values['no-bulk'] !== true, ...(values['no-index'] === true ? {} : { observer: indexing.observer }) },
    })
    const importSeconds = (performance.now() - started) / 1000
    const outcome = values['no-index'] === true ? 'none' : await indexing.finish()
    if (outcome === 'unused' || outcome === 'none') {
      const search = createSearchEngine({ store, snapshots, warmUp: false })
      await search.saveSnapshot(tenantId)
      await search.close()
    }
    const totalSeconds = (performance.now() - started) / 1000
    const clientCpu = process.cpuUsage(cpuStart.client)
    const serverCpuSeconds = cpuStart.server === null || server === null ? null : cpuBetween(cpuStart.server, readCpu([server.pid])) / 1e6
    Object.assign(result, {
      importedItems: summary.contents.created,
      importSeconds: Number(importSeconds.toFixed(2)),
      importItemsPerSecond: Math.round(summary.contents.created / importSeconds),
      indexing: outcome,
      withIndexingSeconds: Number(totalSeconds.toFixed(2)),
      withIndexingItemsPerSecond: Math.round(summary.contents.created / totalSeconds),
      // On two shared cores the wall time says as much about the machine as about the import; CPU seconds move less.
      clientCpuSeconds: Number(((clientCpu.user + clientCpu.system) / 1e6).toFixed(2)),
      serverCpuSeconds: serverCpuSeconds === null ? null : Number(serverCpuSeconds.toFixed(2)),
    })
    if (values.statements === true) result['statements'] = await topStatements(url.toString())
  }

  if (values.only !== 'import') {
    const tenant = await createTenant(context, { code: 'inquiries' })
    let done = 0
    let next = 0
    const until = Date.now() + seconds * 1000
    const started = performance.now()
    await Promise.all(Array.from({ length: callers }, async () => {
      while (Date.now() < until) {
        await store.insertInquiry(anInquiry(tenant.id, `inq_${String(next++).padStart(9, '0')}`))
        done++
      }
    }))
    Object.assign(result, { durableInquiriesPerSecond: Math.round(done / ((performance.now() - started) / 1000)), inquiries: done, callers })
  }
  console.log(JSON.stringify(result, null, 2))
  await store.close()
  await admin(baseUrl, `DROP DATABASE IF EXISTS ${database} WITH (FORCE)`)
} finally {
  rmSync(dir, { recursive: true, force: true })
  await server?.stop()
}

/** The statements that took the most server time, from pg_stat_statements. */
async function topStatements(url: string): Promise<unknown[]> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    const { rows } = await client.query<{ query: string; calls: string; total_ms: number; rows: string }>(
      `SELECT left(regexp_replace(query, '\\s+', ' ', 'g'), 140) AS query, calls, round(total_exec_time::numeric, 1)::float8 AS total_ms, rows
         FROM pg_stat_statements ORDER BY total_exec_time DESC LIMIT 12`,
    )
    return rows
  } finally {
    await client.end()
  }
}
