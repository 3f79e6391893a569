import { existsSync, rmSync } from 'node:fs'
import { openSqliteStore } from '@frontdesk/adapter-sqlite'
import type { SearchPort } from '@frontdesk/core'
import { createApiKey, createFrontdesk } from '@frontdesk/core'
import { Dataset } from '../dataset.ts'
import { createSearchEngine, directorySnapshots } from '../engine.ts'
import type { FtsReference } from '../fts-reference.ts'
import { buildFtsReference, openFtsReference } from '../fts-reference.ts'
import type { SearchClass } from '../search-classes.ts'
import { SEARCH_CLASS_IDS, SearchStreams } from '../search-classes.ts'
import { percentile } from '../stats.ts'

/*
 * `node --conditions=source --import tsx bench/micro/search-vs-fts.ts DB [RUNS] [CLASS,…] [--fts FILE [--fts-rebuild]] [--skip N] [--snapshots DIR]`:
 * the in-process half of `npm run bench`'s search figures without the rest of the run: new
 * queries of each class (never asked before) through the use case, p50/p99/max latency and
 * CPU per search, and with `--fts FILE` (built there over the data set of the database's size
 * unless it exists, or with `--fts-rebuild`) the SQLite FTS5 reference on the same queries, in turns. `--skip N` starts
 * each class's stream N queries further, so that runs of two versions of the code, one after
 * the other, can ask different queries or the same ones. `--snapshots DIR` keeps the index's
 * snapshot there (the next run restores it instead of building). Over a database of
 * `bench/micro/seed-db.ts`.
 */

const args = process.argv.slice(2)
const option = (name: string): string | undefined => {
  const at = args.indexOf(name)
  if (at < 0) return undefined
  const [value] = args.splice(at, 2).slice(1)
  return value
}
const ftsPath = option('--fts')
const skip = Number(option('--skip') ?? 0)
const snapshotDir = option('--snapshots')
const rebuild = args.includes('--fts-rebuild') && args.splice(args.indexOf('--fts-rebuild'), 1).length > 0
const [path, runsArg, classesArg] = args
if (path === undefined) throw new Error(`usage: bench/micro/search-vs-fts.ts DB [RUNS] [CLASS,…] [--fts FILE] [--skip N]; classes: ${SEARCH_CLASS_IDS.join(', ')}`)
const runs = Number(runsArg ?? 200)
const classes = (classesArg === undefined || classesArg === 'all' ? SEARCH_CLASS_IDS : classesArg.split(',')) as SearchClass[]
const store = openSqliteStore({ path })
const engine = createSearchEngine({ store, snapshots: snapshotDir === undefined ? null : directorySnapshots(snapshotDir) })
await engine.warmUp()
let engineCpu = 0
const timedEngine: SearchPort = {
  search: async (tenantId, query) => {
    const cpu = process.cpuUsage()
    const result = await engine.search(tenantId, query)
    const used = process.cpuUsage(cpu)
    engineCpu = used.user + used.system
    return result
  },
}
const frontdesk = createFrontdesk({ store, search: timedEngine, cache: { maxEntries: 0 } })
const { key } = await createApiKey(frontdesk.context, { tenantCode: 'bench', name: `micro-search ${Date.now()}`, permissions: ['cms:search'], rateLimit: 0 })
const principal = await frontdesk.authenticate({ apiKey: key, authorization: false }, 'cms:search')
let fts: FtsReference | null = null
if (ftsPath !== undefined && existsSync(ftsPath) && !rebuild) fts = openFtsReference(ftsPath)
else if (ftsPath !== undefined) {
  rmSync(ftsPath, { force: true })
  const count = await engine.indexedCount(principal.tenant.id)
  // Hint: the data set's article count is the seeded count; the index also holds nothing else.
  fts = buildFtsReference(ftsPath, count, (line) => process.stderr.write(`${line}\n`))
}
const streams = new SearchStreams(new Dataset(0).facts.vocabulary)

const cpuTimed = async <T>(work: () => Promise<T> | T): Promise<{ value: T; ms: number; cpu: number }> => {
  const cpu = process.cpuUsage()
  const at = performance.now()
  const value = await work()
  const ms = performance.now() - at
  const used = process.cpuUsage(cpu)
  return { value, ms, cpu: used.user + used.system }
}
const figures = (ms: number[], cpu: number[]): string => {
  const sorted = [...ms].sort((a, b) => a - b)
  const cpuSorted = [...cpu].sort((a, b) => a - b)
  const mean = cpu.reduce((a, b) => a + b, 0) / Math.max(1, cpu.length)
  return `${percentile(sorted, 0.5).toFixed(2).padStart(6)} ${percentile(sorted, 0.99).toFixed(2).padStart(6)} ${(sorted.at(-1) ?? 0).toFixed(2).padStart(6)} ${mean.toFixed(0).padStart(6)} ${percentile(cpuSorted, 0.99).toFixed(0).padStart(6)}`
}

console.log(`class     use case ms: p50  p99    max | cpu µs: mean  p99 | engine cpu µs: p50  p99 | ${fts === null ? '' : 'FTS5 ms: p50    p99    max | cpu µs: mean p99 | totals'}`)
for (const cls of classes) {
  const stream = streams.stream(cls)
  for (let i = 0; i < skip; i++) stream.next()
  for (let i = 0; i < 5; i++) await frontdesk.search(principal, stream.next())
  const use = { ms: [] as number[], cpu: [] as number[] }
  const ref = { ms: [] as number[], cpu: [] as number[] }
  const inEngine: number[] = []
  let agree = 0
  for (let i = 0; i < runs; i++) {
    const body = stream.next()
    const viaEngine = async () => {
      const run = await cpuTimed(() => frontdesk.search(principal, body))
      use.ms.push(run.ms)
      use.cpu.push(run.cpu)
      inEngine.push(engineCpu)
      return run.value.body.pagination.total
    }
    const viaFts = async () => {
      if (fts === null) return null
      const reference = fts
      const run = await cpuTimed(() => reference.search(body, new Date().toISOString()))
      ref.ms.push(run.ms)
      ref.cpu.push(run.cpu)
      return run.value.total
    }
    const [total, refTotal] = i % 2 === 0 ? [await viaEngine(), await viaFts()] : [await viaFts(), await viaEngine()].reverse()
    if (total === refTotal) agree++
  }
  inEngine.sort((a, b) => a - b)
  const engineFigures = `${percentile(inEngine, 0.5).toFixed(0).padStart(6)} ${percentile(inEngine, 0.99).toFixed(0).padStart(6)}`
  console.log(`${cls.padEnd(9)} ${figures(use.ms, use.cpu)} | ${engineFigures} | ${fts === null ? '' : `${figures(ref.ms, ref.cpu)} | ${agree}/${runs}`}`)
}
fts?.close()
await engine.close()
await store.close()
