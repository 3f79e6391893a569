import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { cpus, loadavg, tmpdir, totalmem } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { ensureDevCert } from '@frontdesk/http'
import type { RecordedReply } from './ceiling-server.ts'
import { atExit, installGuards, stopAll, stopChild } from './children.ts'
import { MARKER_TERM } from './dataset.ts'
import type { FtsReference } from './fts-reference.ts'
import { buildFtsReference } from './fts-reference.ts'
import { HttpsClient } from './https-client.ts'
import { measureInProcess } from './in-process.ts'
import type { LoadJob, RequestPlan } from './load-job.ts'
import { runLoad, startCeiling } from './load.ts'
import type { BenchOptions } from './options.ts'
import { parseOptions } from './options.ts'
import { peakResidentBytes, residentBytes } from './process-cpu.ts'
import { countSearchQueries } from './query-count.ts'
import { formatReport } from './report.ts'
import type { RunResults } from './results.ts'
import { RESULTS_FORMAT } from './results.ts'
import type { SearchClass } from './search-classes.ts'
import { SearchStreams } from './search-classes.ts'
import { buildScenarios, CACHE_ENTRIES, firstRequest } from './scenarios.ts'
import { admin } from '@frontdesk/adapter-postgres/testing'
import type { BenchPostgres } from './postgres-server.ts'
import { startBenchPostgres } from './postgres-server.ts'
import { databaseBytes, seed, TENANT } from './seed.ts'
import { measureSmallImports } from './small-imports.ts'
import { measureWebhooks, WEBHOOK_MEASURES, webhookEnv } from './webhooks.ts'
import { startServe } from './server-process.ts'
import { checkTargets } from './targets.ts'
import { WALKED_QUERIES } from './walks.ts'

/*
 * `npm run bench`: seeds a temporary database, measures the import, builds the SQLite FTS5
 * reference, times in-process searches (engine and reference on the same new queries) and
 * list pages, starts the real `frontdesk serve` as its own process, and drives it (and the
 * bare node:https references) with autocannon from separate worker processes, reading each
 * server's CPU time from /proc. Prints the figures against the targets and writes
 * bench-results/<timestamp>.json. Everything runs on 127.0.0.1 and is bounded by --timeout;
 * children are always stopped.
 */

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const log = (line: string) => process.stderr.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${line}\n`)

/**
 * Bytes of what lies beside the database in the temporary directory, other than the database
 * itself, its WAL/SHM, the certificate and profiles: a persisted search index, if serve keeps
 * one. `null` when there is none.
 */
function bytesBeside(dir: string, dbPath: string): number | null {
  const skip = new Set([dbPath, `${dbPath}-wal`, `${dbPath}-shm`, `${dbPath}-journal`, join(dir, '.frontdesk'), join(dir, 'profiles'), join(dir, 'reference')])
  let total = 0
  const walk = (path: string) => {
    if (skip.has(path)) return
    const stat = statSync(path)
    if (stat.isDirectory()) for (const name of readdirSync(path)) walk(join(path, name))
    else total += stat.size
  }
  for (const name of readdirSync(dir)) walk(join(dir, name))
  return total === 0 ? null : total
}

function writeResults(results: RunResults): string {
  const dir = join(ROOT, 'bench-results')
  mkdirSync(dir, { recursive: true })
  const file = join(dir, `${results.startedAt.replace(/[:.]/g, '-')}.json`)
  writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`)
  return file
}

function finish(results: RunResults): void {
  results.finishedAt = new Date().toISOString()
  results.machine.loadAfter = loadavg()
  results.checks = checkTargets(results)
  const file = writeResults(results)
  process.stdout.write(`\n${formatReport(results)}\n\nresults: ${file}\n`)
}

async function firstCorrectSearch(client: HttpsClient, markerId: string, deadlineMs: number): Promise<void> {
  const body = JSON.stringify({ query: MARKER_TERM })
  let last = 'no answer'
  while (performance.now() < deadlineMs) {
    try {
      const answer = await client.request('POST', '/v1/cms/search', body, 5000)
      const json = answer.json as { items?: { id?: string }[]; pagination?: { total?: number } } | null
      if (answer.status === 200 && json?.pagination?.total === 1 && json.items?.[0]?.id === markerId) return
      last = `status ${answer.status}: ${JSON.stringify(answer.json).slice(0, 300)}`
    } catch (error) {
      last = String(error)
    }
    await new Promise((done) => setTimeout(done, 20))
  }
  throw new Error(`no correct search answer in time (last: ${last})`)
}

async function main(options: BenchOptions, results: RunResults): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'frontdesk-bench-'))
  atExit(() => {
    if (options.keep) log(`kept ${dir}`)
    else rmSync(dir, { recursive: true, force: true })
  })
  // The database: a SQLite file in the temporary directory, or a PostgreSQL database of its own
  // on a throwaway server (fsync on) or on the server of --store postgres://….
  const postgres = options.store === 'postgres' ? await openBenchDatabase(options.postgresUrl) : null
  const dbPath = postgres?.url ?? join(dir, 'bench.db')
  // Hint: given to seed and serve alike; a PostgreSQL database's default would be in the working directory.
  const searchDir = join(dir, 'bench.search')
  try {
    await bench(options, results, dir, dbPath, searchDir, postgres?.pid === undefined || postgres.pid === null ? [] : [postgres.pid])
  } finally {
    await postgres?.close()
  }
}

/** A new database on the given PostgreSQL server, or on a throwaway one; `close` drops it (and stops the throwaway server). */
async function openBenchDatabase(given: string | null): Promise<{ url: string; pid: number | null; close(): Promise<void> }> {
  let server: BenchPostgres | null = null
  if (given === null) {
    log('starting a throwaway PostgreSQL (fsync on)…')
    server = await startBenchPostgres()
  }
  const base = given ?? server?.url ?? ''
  const name = `frontdesk_bench_${process.pid}`
  await admin(base, `CREATE DATABASE ${name}`)
  const url = new URL(base)
  url.pathname = `/${name}`
  return {
    url: url.toString(),
    pid: server?.pid ?? null,
    async close() {
      await admin(base, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => undefined)
      await server?.stop()
    },
  }
}

/**
 * The run itself over the database `dbPath`. `databasePids`: the processes of a throwaway
 * PostgreSQL server, whose CPU counts with frontdesk serve's in its scenarios (the database's
 * work is the server's cost too; SQLite's runs inside serve).
 */
async function bench(options: BenchOptions, results: RunResults, dir: string, dbPath: string, searchDir: string, databasePids: number[]): Promise<void> {
  const postgres = options.store === 'postgres'
  if (options.build) {
    log('building the CLI bundle (npm run build)…')
    execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: ROOT, stdio: 'inherit', timeout: 180_000 })
  }

  log(`seeding ${options.items} items into ${postgres ? 'a PostgreSQL database' : dbPath}…`)
  const seeded = await seed(dbPath, options.items, log, searchDir)
  const facts = seeded.dataset.facts
  log(`imported in ${seeded.importSeconds.toFixed(1)} s (${Math.round(options.items / seeded.importSeconds)} items/s); ${facts.visibleIds.length} visible`)

  let fts: FtsReference | null = null
  if (options.fts) {
    log('building the SQLite FTS5 reference over the same items…')
    mkdirSync(join(dir, 'reference'))
    fts = buildFtsReference(join(dir, 'reference', 'fts5.db'), options.items, log)
    results.fts = fts.build
  }
  // The search queries of the whole run: in-process takes the first of each class, every HTTPS scenario the next ones.
  const streams = new SearchStreams(facts.vocabulary)
  log('in-process: building the search index, timing new searches of every class (engine and FTS5), list pages, walking lists…')
  let inProcess
  try {
    inProcess = await measureInProcess(seeded.store, seeded.key, streams, fts, {
      runs: options.runs,
      deepPage: 2000,
      walkQueries: WALKED_QUERIES,
    }, log)
  } finally {
    fts?.close()
  }
  const { walks, categories, ...kept } = inProcess
  results.inProcess = { ...kept, walkedPages: walks.reduce((n, w) => n + w.paths.length, 0) }
  const httpFrom = streams.positions()
  results.import = {
    items: options.items,
    records: seeded.summary.records,
    generateSeconds: seeded.generateSeconds,
    seconds: seeded.importSeconds,
    itemsPerSecond: options.items / seeded.importSeconds,
    // Hint: what `frontdesk import` does end to end: the store's import, then indexing and the snapshot.
    indexBuildSeconds: seeded.indexSeconds,
    itemsPerSecondWithIndex: options.items / (seeded.importSeconds + seeded.indexSeconds),
    dbBytes: seeded.dbBytes,
  }
  await seeded.store.close()
  const cert = await ensureDevCert(join(dir, '.frontdesk'))

  const nodeFlags = [...options.nodeFlags, ...(options.cpuProf ? ['--cpu-prof', '--cpu-prof-dir', join(dir, 'profiles')] : [])]
  const serveFlags = [
    ...(options.accessLog ? [] : ['--no-access-log']),
    ...(options.workers > 1 ? ['--workers', String(options.workers)] : []),
    // Hint: the load generator is one client address; past 64 connections the per-address limit would refuse it.
    ...(options.connections > 64 ? ['--max-connections-per-address', '0'] : []),
    ...options.serveFlags,
  ]
  /** Starts serve and waits for the first correct search answer. */
  const start = async (what: string) => {
    log(`${what} frontdesk serve…`)
    // Hint: serve may build the whole search index before listening; the global timeout bounds this wait.
    // Hint: in the temporary directory, so that --dev-cert finds the certificate made below on PostgreSQL too.
    const started = await startServe(dbPath, nodeFlags, ['--search-dir', searchDir, ...serveFlags], options.timeout * 1000, dir)
    const probe = new HttpsClient(started.origin, cert.ca, { 'x-api-key': seeded.key })
    try {
      await firstCorrectSearch(probe, facts.markerId, performance.now() + 120_000)
    } catch (error) {
      probe.close()
      await stopChild(started.child, 5000)
      throw error
    }
    const firstSearchMs = performance.now() - started.spawnedAt
    const rssBytes = residentBytes([started.child.pid ?? 0])
    log(`serving ${started.origin}: listening after ${(started.listeningMs / 1000).toFixed(2)} s, first correct search after ${(firstSearchMs / 1000).toFixed(2)} s`)
    return { serve: started, client: probe, firstSearchMs, rssBytes }
  }

  // The first start after the import, then a restart (which may use whatever the first left on disk).
  const first = await start('starting')
  first.client.close()
  const firstPeak = peakResidentBytes([first.serve.child.pid ?? 0])
  await stopChild(first.serve.child, 60_000)
  const indexDiskBytes = bytesBeside(dir, dbPath)
  const second = await start('restarting')
  const { serve, client } = second
  results.serve = {
    listeningMs: first.serve.listeningMs,
    firstSearchMs: first.firstSearchMs,
    rssBytes: first.rssBytes,
    restartFirstSearchMs: second.firstSearchMs,
    restartRssBytes: second.rssBytes,
    indexDiskBytes,
  }
  const servePid = serve.child.pid ?? 0
  try {
    const ceiling = await startCeiling(cert.certPath, cert.keyPath)
    const job = (origin: string, plan: RequestPlan, serverPid: number | undefined): LoadJob => ({
      origin,
      headers: { 'x-api-key': seeded.key, ...((plan.kind === 'fixed' || plan.kind === 'rotate') && plan.method === 'GET' ? {} : { 'content-type': 'application/json' }) },
      plan,
      connections: options.connections,
      warmupSeconds: options.warmup,
      durationSeconds: options.duration,
      serverPids: serverPid === undefined ? [] : [serverPid, ...(serverPid === servePid ? databasePids : [])],
    })
    const ceilingPlan: RequestPlan = { kind: 'fixed', method: 'GET', path: '/v1/cms/contents/ceiling' }
    log('ceiling: bare node:https…')
    results.ceiling.push(await runLoad(job(ceiling.origin, ceilingPlan, ceiling.child.pid)))
    const scenarios = buildScenarios(facts, walks, inProcess.deepPage).filter((s) => options.only === null || options.only.includes(s.id))
    const hit = scenarios.find((s) => s.id === 'detail_hit')
    if (hit?.plan.kind === 'fixed') {
      const answer = await client.raw('GET', hit.plan.path)
      const replyPath = join(dir, 'detail-hit-reply.json')
      const headers = Object.fromEntries(Object.entries(answer.headers).filter(([name]) => !['date', 'connection', 'keep-alive', 'content-length'].includes(name)))
      writeFileSync(replyPath, JSON.stringify({ status: answer.status, headers, bodyBase64: answer.body.toString('base64') } satisfies RecordedReply))
      for (const asynchronous of [false, true]) {
        const replay = await startCeiling(cert.certPath, cert.keyPath, ['--reply', replyPath, ...(asynchronous ? ['--async'] : [])])
        try {
          log(`ceiling: bare node:https with the detail hit's reply (${answer.body.length} bytes of body)${asynchronous ? ', sent from a promise callback' : ''}…`)
          const result = await runLoad(job(replay.origin, ceilingPlan, replay.child.pid))
          if (asynchronous) results.asyncReplyCeiling = { replyBytes: answer.body.length, result }
          else results.replyCeiling = { replyBytes: answer.body.length, result }
        } finally {
          await stopChild(replay.child, 2000)
        }
      }
    }
    // The floors: a bare server doing only the SQLite read and JSON a miss needs, over the same requests (SQLite only).
    for (const [kind, id] of postgres ? [] : [['detail', 'detail_miss'], ['list', 'list_miss'], ['filtered', 'list_tags_fields']] as const) {
      const scenario = scenarios.find((s) => s.id === id)
      if (scenario === undefined) continue
      const floor = await startCeiling(cert.certPath, cert.keyPath, ['--floor', kind, '--db', dbPath, '--tenant', TENANT])
      try {
        log(`floor: bare node:https + better-sqlite3, ${kind} read and JSON only…`)
        results.floors[kind] = { result: await runLoad(job(floor.origin, scenario.plan, floor.child.pid)) }
      } finally {
        await stopChild(floor.child, 2000)
      }
    }

    for (const scenario of scenarios) {
      let plan = scenario.plan
      let first
      if (plan.kind === 'search') {
        // The check takes the first new query of the plan's first class; the load starts after it.
        const classes = Object.keys(plan.shares) as SearchClass[]
        first = { method: 'POST', path: '/v1/cms/search', body: JSON.stringify(streams.stream(classes[0] ?? 'en1').next()) }
        plan = { ...plan, start: Object.fromEntries(classes.map((cls) => [cls, streams.stream(cls).position])) }
      } else first = firstRequest(plan)
      const problem = scenario.check(await client.request(first.method, first.path, first.body))
      if (problem !== null) {
        log(`${scenario.id}: wrong answer before the load (${problem}); skipped`)
        results.scenarios.push({ id: scenario.id, label: scenario.label, error: problem })
        continue
      }
      log(`${scenario.id}: ${scenario.label}…`)
      try {
        const result = await runLoad(job(serve.origin, plan, servePid))
        for (const [cls, count] of Object.entries(result.consumed ?? {}) as [SearchClass, number][]) streams.stream(cls).skip(count)
        const entry = { id: scenario.id, label: scenario.label, result, ...(scenario.distinct === undefined ? {} : { distinct: scenario.distinct }) }
        // A rotation over more keys than the cache holds misses every time (LRU); so does one never repeated.
        const allMisses = scenario.distinct === undefined || scenario.distinct <= 1 ? undefined : scenario.distinct > CACHE_ENTRIES || result.planned <= scenario.distinct
        results.scenarios.push(allMisses === undefined ? entry : { ...entry, allMisses })
        log(`  ${Math.round(result.rps)} req/s, p50 ${result.p50.toFixed(2)} ms, p99 ${result.p99.toFixed(2)} ms, server CPU ${result.cpuUs === null ? 'n/a' : `${result.cpuUs.toFixed(0)} µs`} per request`)
      } catch (error) {
        // How many queries a failed load took is unknown: later scenarios start well beyond them.
        if (plan.kind === 'search') for (const cls of Object.keys(plan.shares) as SearchClass[]) streams.stream(cls).skip(100_000)
        results.scenarios.push({ id: scenario.id, label: scenario.label, error: String(error) })
      }
    }
    results.searchQueries = countSearchQueries(facts.vocabulary, categories, httpFrom, streams.positions())

    // Scenarios held within a few percent of each other run again, in the other order: one run
    // of each moves by more than that on this machine.
    for (const id of [...REPEATED].reverse()) {
      const scenario = scenarios.find((s) => s.id === id)
      const entry = results.scenarios.find((s) => s.id === id)
      if (scenario === undefined || entry?.result === undefined) continue
      log(`${id} again…`)
      const again = await runLoad(job(serve.origin, scenario.plan, servePid))
      entry.repeats = [...(entry.repeats ?? []), again]
      log(`  ${Math.round(again.rps)} req/s, server CPU ${again.cpuUs === null ? 'n/a' : `${again.cpuUs.toFixed(0)} µs`} per request`)
    }

    log('ceiling again…')
    results.ceiling.push(await runLoad(job(ceiling.origin, ceilingPlan, ceiling.child.pid)))
    await stopChild(ceiling.child, 2000)
    const ceilingRps = results.ceiling.reduce((n, c) => n + c.rps, 0) / results.ceiling.length
    results.ceilingRps = ceilingRps
    for (const s of results.scenarios) if (s.result !== undefined) s.ratio = s.result.rps / ceilingRps
    if (results.replyCeiling !== undefined) results.replyCeiling.ratio = results.replyCeiling.result.rps / ceilingRps
    if (results.asyncReplyCeiling !== undefined) results.asyncReplyCeiling.ratio = results.asyncReplyCeiling.result.rps / ceilingRps
    for (const floor of Object.values(results.floors)) floor.ratio = floor.result.rps / ceilingRps
    results.serve.rssAfterLoadBytes = residentBytes([servePid])
    results.serve.dbBytesAfter = await databaseBytes(dbPath)
  } finally {
    client.close()
    const peaks = [firstPeak, peakResidentBytes([servePid])].filter((n) => n !== null)
    results.serve.peakRssBytes = peaks.length === 0 ? null : Math.max(...peaks)
    log('stopping frontdesk serve…')
    await stopChild(serve.child, 20_000)
    if (options.cpuProf) log(`CPU profile of the server in ${join(dir, 'profiles')}`)
  }
  const webhookMeasure = (id: string) => options.only === null || options.only.includes('webhooks') || options.only.includes(id)
  if (options.webhooks && WEBHOOK_MEASURES.some(webhookMeasure)) {
    const detail = buildScenarios(facts, walks, inProcess.deepPage).find((s) => s.id === 'detail_hit')
    if (detail !== undefined) {
      results.webhooks = await measureWebhooks({
        db: dbPath,
        searchDir,
        cert,
        apiKey: seeded.key,
        env: webhookEnv(cert.caPath, postgres),
        startServe: (flags, env) => startServe(dbPath, nodeFlags, ['--search-dir', searchDir, ...flags, ...serveFlags], options.timeout * 1000, dir, env),
        stopServe: (started) => stopChild(started.child, 20_000),
        load: (origin, plan, pid, rate) =>
          runLoad({
            origin,
            headers: { 'x-api-key': seeded.key, ...(plan.kind === 'fixed' && plan.method === 'GET' ? {} : { 'content-type': 'application/json' }) },
            plan,
            connections: options.connections,
            ...(rate === undefined ? {} : { rate }),
            warmupSeconds: options.warmup,
            durationSeconds: options.duration,
            serverPids: [pid, ...databasePids],
          }),
        detailPlan: detail.plan,
        duration: options.duration,
        warmup: options.warmup,
        only: webhookMeasure,
        log,
      })
    }
  }
  if (options.smallImports) {
    // Hint: last, since they change the tenant; on a tenant of their own with --import-items.
    let on = { db: dbPath, searchDir, items: options.items, dataset: seeded.dataset }
    if (options.importItems !== null && options.importItems !== options.items) {
      const db = join(dir, 'imports.db')
      log(`seeding ${options.importItems} items into ${db} for the small imports…`)
      const other = await seed(db, options.importItems, log, join(dir, 'imports.search'))
      await other.store.close()
      on = { db, searchDir: join(dir, 'imports.search'), items: options.importItems, dataset: other.dataset }
    }
    log(`small imports into ${on.items} items, each a fresh frontdesk import process…`)
    results.smallImports = await measureSmallImports({ ...on, dir, rounds: 3, importsBeforeStart: options.importsBeforeStart, log })
  }
}

/** Scenarios run a second time at the end (see there): page 2,000 is held within 10 % of page 1. */
const REPEATED = ['list_page1', 'list_deep']

let options: BenchOptions
try {
  options = parseOptions(process.argv.slice(2))
} catch (error) {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`)
  process.exit(2)
}
const cpu = cpus()
const results: RunResults = {
  format: RESULTS_FORMAT,
  startedAt: new Date().toISOString(),
  options: { ...options },
  machine: { node: process.version, cpus: cpu.length, cpuModel: cpu[0]?.model ?? 'unknown', memoryBytes: totalmem(), loadBefore: loadavg() },
  ceiling: [],
  floors: {},
  scenarios: [],
  checks: [],
}
if (options.store === 'both') {
  // Each store's run is a process of its own with its own guards; this one only waits and compares.
  const { runBoth } = await import('./compare.ts')
  const args = process.argv.slice(2)
  const without: string[] = []
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--store') i++
    else if (!args[i]?.startsWith('--store=')) without.push(args[i] ?? '')
  }
  installGuards(2 * options.timeout * 1000, (reason) => log(`${reason}: stopping`))
  await runBoth(without).catch((error: unknown) => {
    log(`failed: ${error instanceof Error ? error.message : String(error)}`)
    process.exitCode = 1
  })
  await stopAll(2000)
  process.exit()
}
installGuards(options.timeout * 1000, (reason) => {
  results.aborted = reason
  log(`${reason}: stopping`)
  finish(results)
})
main(options, results).then(
  () => {
    finish(results)
    return stopAll(2000)
  },
  async (error: unknown) => {
    results.aborted = error instanceof Error ? error.message : String(error)
    log(`failed: ${results.aborted}`)
    finish(results)
    await stopAll(2000)
    process.exitCode = 1
  },
)
