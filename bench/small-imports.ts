import { execFileSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { DEFAULT_REBUILD_THRESHOLD } from '@frontdesk/search'
import type { Dataset } from './dataset.ts'
import type { OneItemImports } from './start-after-imports.ts'
import { oneItemImports } from './start-after-imports.ts'
import { TENANT } from './seed.ts'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const GNU_TIME = '/usr/bin/time'

/** One kind of small import, run several times, each a fresh `frontdesk import` process. */
export interface SmallImportRun {
  label: string
  /** Wall time of each run. */
  seconds: number[]
  /** The peak RSS of each run (GNU time's maximum resident set size); `null` without GNU time. */
  peakRssBytes: (number | null)[]
  /**
   * The refresh of the search snapshot an import handed to a process of its own (once in ~2,000
   * changes), per run: its wall time from the import's exit and its peak RSS (`VmHWM`, sampled
   * every 20 ms); `null` when the run handed none off.
   */
  refreshes: (BackgroundRefresh | null)[]
}

/** A background refresh's figures (see `SmallImportRun.refreshes`). */
export interface BackgroundRefresh {
  seconds: number
  peakRssBytes: number | null
}

/** What `measureSmallImports` measured. */
export interface SmallImports {
  /** Items in the tenant before the imports. */
  items: number
  runs: SmallImportRun[]
  /** A fresh process's first correct search: right after a snapshot was written, and with the snapshot the most changes behind an import leaves it. */
  startUp: { fresh: StartUp; behind: StartUp }
  /** With `importsBeforeStart`: the one-item imports made (see `oneItemImports`), and a start after them. */
  afterImports?: OneItemImports & { startUp: StartUp }
}

/** A start's time to its first correct search, from a fresh process's start (`micro/first-search.child.ts`, TypeScript loaded by tsx). */
export interface StartUp {
  seconds: number
  /** How the index was made: `snapshot` or `store`, and the items. */
  source: string
  /** Changes of the feed the start replayed after the snapshot (and its delta). */
  behind: number
  /** Items of the snapshot's delta the start indexed again. */
  deltaItems: number
}

/**
 * Small imports into the bench's seeded tenant, as a CMS syncing its edits sends them, each a
 * fresh `frontdesk import` (or `content delete`) process of the built CLI on the database `db`
 * with its snapshots in `searchDir`: one edited, one created and one deleted item, 1,000 edited
 * items, then the one-item file again (unchanged: the floor of a process that imports
 * nothing). Then a start's first search, once right after the snapshot was written and once
 * with the snapshot as far behind as imports leave it (`DEFAULT_REBUILD_THRESHOLD` changes).
 * With `importsBeforeStart`, then the state of that many one-item imports (`oneItemImports`:
 * deltas written as imports write them) and a start's first search after them.
 * Changes the tenant: run it last.
 */
export async function measureSmallImports(options: { db: string; searchDir: string; dir: string; dataset: Dataset; items: number; rounds: number; importsBeforeStart?: number; log: (line: string) => void }): Promise<SmallImports> {
  const { db, searchDir, dir, dataset, rounds, log } = options
  const contents = [...dataset.records()].map((item) => item.record as Record<string, unknown>).filter((record) => record['kind'] === 'content')
  let edits = 0
  const edited = (record: Record<string, unknown> | undefined) => ({ ...record, title: `${String(record?.['title'])} revised ${++edits}` })
  const file = (name: string, records: Record<string, unknown>[]) => {
    const path = join(dir, name)
    writeFileSync(path, records.map((record) => `${JSON.stringify(record)}\n`).join(''))
    return path
  }
  const cli = (args: string[], env: Record<string, string> = {}) => timed(db, searchDir, dir, args, env)
  // Hint: past the 2,000 changes and with no room for a delta: the snapshot itself is written, so that the next start has nothing to catch up.
  const compact = () => cli(importing(file('compact.ndjson', contents.slice(0, DEFAULT_REBUILD_THRESHOLD + 1).map(edited))), { FRONTDESK_SEARCH_DELTA_ITEMS: '0', FRONTDESK_SEARCH_REFRESH: 'wait' })
  const runs: SmallImportRun[] = []
  const measure = (label: string, make: (round: number) => string[]) => {
    const each = Array.from({ length: rounds }, (_, round) => cli(make(round)))
    const run: SmallImportRun = { label, seconds: each.map((r) => r.seconds), peakRssBytes: each.map((r) => r.peakRssBytes), refreshes: each.map((r) => r.refresh) }
    runs.push(run)
    log(`  ${formatSmallImport(run)}`)
  }
  const importing = (path: string) => ['import', path, '--tenant', TENANT, '--json']
  const startUp = (): StartUp => {
    const out = execFileSync(process.execPath, ['--conditions=source', '--import', 'tsx', join(ROOT, 'bench/micro/first-search.child.ts'), db, searchDir, TENANT], { encoding: 'utf8', cwd: ROOT })
    const answer = JSON.parse(out) as { source: string; behind: number; deltaItems: number; ms: number }
    return { seconds: answer.ms / 1000, source: answer.source, behind: answer.behind, deltaItems: answer.deltaItems }
  }
  // Hint: written now, so that every run starts from an up-to-date snapshot (serve saves it on stop, but not a PostgreSQL bench's restart).
  compact()
  measure('1 edited item', (round) => importing(file(`edit-${round}.ndjson`, [edited(contents[5])])))
  measure('1 created item', (round) => importing(file(`new-${round}.ndjson`, [{ ...contents[6], id: undefined, slug: `bench-new-${round}`, title: `A new item ${round}` }])))
  measure('1 deleted item', (round) => ['content', 'delete', String(contents[100 + round]?.['id']), '--tenant', TENANT])
  measure('1,000 edited items', (round) => importing(file(`thousand-${round}.ndjson`, contents.slice(1000 * (round + 1), 1000 * (round + 2)).map(edited))))
  measure('1 item unchanged', () => importing(join(dir, `edit-${rounds - 1}.ndjson`)))
  compact()
  const fresh = startUp()
  cli(importing(file('behind.ndjson', contents.slice(0, DEFAULT_REBUILD_THRESHOLD).map(edited))))
  const behind = startUp()
  log(`  start-up to a first search: ${formatStartUp(fresh)}; ${formatStartUp(behind)}`)
  const count = options.importsBeforeStart ?? 0
  if (count === 0) return { items: options.items, runs, startUp: { fresh, behind } }
  log(`  ${count} one-item imports, then a start…`)
  const done = await oneItemImports({ db, searchDir, dataset, count, log })
  const after = startUp()
  log(`  ${done.imports} one-item imports in ${done.seconds.toFixed(1)} s (${JSON.stringify(done.outcomes)}); start-up to a first search: ${formatStartUp(after)}`)
  return { items: options.items, runs, startUp: { fresh, behind }, afterImports: { ...done, startUp: after } }
}

/** One line of a small import's figures. */
export function formatSmallImport(run: SmallImportRun): string {
  const mb = (n: number | null) => (n === null ? 'n/a' : (n / 1048576).toFixed(0))
  const refreshes = run.refreshes.flatMap((refresh, i) => (refresh === null ? [] : [`after run ${i + 1} a refresh of its own ${refresh.seconds.toFixed(2)} s, ${mb(refresh.peakRssBytes)} MB`]))
  return `${run.label}: ${run.seconds.map((s) => s.toFixed(2)).join(' / ')} s, peak RSS ${run.peakRssBytes.map(mb).join(' / ')} MB${refreshes.length === 0 ? '' : ` (${refreshes.join('; ')})`}`
}

/** A start's figures. */
export function formatStartUp(start: StartUp): string {
  return `${start.seconds.toFixed(2)} s (${start.source}, ${start.deltaItems === 0 ? '' : `a delta of ${start.deltaItems} items and `}${start.behind} changes replayed)`
}

/**
 * One `frontdesk` command in a fresh process of the built CLI: its wall time and peak RSS (under
 * GNU time when there is one), and the refresh it handed off, followed to its end so that the
 * next command runs alone.
 */
function timed(db: string, searchDir: string, dir: string, args: string[], env: Record<string, string> = {}): { seconds: number; peakRssBytes: number | null; refresh: BackgroundRefresh | null } {
  const command = [join(ROOT, 'packages/cli/bin/frontdesk.js'), '--db', db, '--search-dir', searchDir, ...args]
  const stats = join(dir, 'time.txt')
  const gnu = existsSync(GNU_TIME)
  const started = performance.now()
  execFileSync(gnu ? GNU_TIME : process.execPath, gnu ? ['-o', stats, '-f', '%M', process.execPath, ...command] : command, { stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, ...env } })
  const seconds = (performance.now() - started) / 1000
  const kb = gnu ? Number(readFileSync(stats, 'utf8').trim().split('\n').at(-1)) : Number.NaN
  return { seconds, peakRssBytes: Number.isFinite(kb) ? kb * 1024 : null, refresh: followRefresh(searchDir) }
}

/**
 * The refresh a command just handed off (its lock file in `searchDir` appears within ~0.3 s of
 * the command's exit), followed until its lock is gone; `null` when none appeared in 0.5 s.
 */
function followRefresh(searchDir: string): BackgroundRefresh | null {
  const started = performance.now()
  const pause = new Int32Array(new SharedArrayBuffer(4))
  const holder = () => {
    const lock = existsSync(searchDir) ? readdirSync(searchDir).find((name) => name.endsWith('.lock')) : undefined
    return lock === undefined ? null : Number(readFileSync(join(searchDir, lock), 'utf8').trim() || Number.NaN)
  }
  let pid = holder()
  while (pid === null && performance.now() - started < 500) {
    Atomics.wait(pause, 0, 0, 10)
    pid = holder()
  }
  if (pid === null) return null
  let peakKb: number | null = null
  for (let current: number | null = pid; current !== null && performance.now() - started < 600_000; current = holder()) {
    try {
      const hwm = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${current}/status`, 'utf8'))?.[1]
      if (hwm !== undefined) peakKb = Math.max(peakKb ?? 0, Number(hwm))
    } catch {
      // Hint: it has just exited (or its id is not yet written); its lock goes with it.
    }
    Atomics.wait(pause, 0, 0, 20)
  }
  return { seconds: (performance.now() - started) / 1000, peakRssBytes: peakKb === null ? null : peakKb * 1024 }
}
