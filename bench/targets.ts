import type { LoadResult } from './load-job.ts'
import type { Check, RunResults } from './results.ts'
import { SEARCH_CLASSES } from './search-classes.ts'

/*
 * The targets (issue 22, at 100,000 items), checked against a run's figures. The cost of an
 * HTTP scenario is the server's CPU time per answered request, compared with a bare
 * reference measured in the same run (the bare server sending the same bytes, the floors) or
 * with another scenario of the run; in-process search is compared with SQLite FTS5 on the
 * same queries. Issue 8's remaining targets (inquiries, import, start-up) stay.
 */

const MB = 1024 * 1024
const ms = (n: number) => `${n.toFixed(2)} ms`
const us = (n: number) => `${n.toFixed(0)} µs`

/** The scenario's load result, if it ran; with repeats, its CPU per request is the mean of all runs. */
export function scenarioResult(results: RunResults, id: string): LoadResult | undefined {
  const scenario = results.scenarios.find((s) => s.id === id)
  const result = scenario?.result
  const runs = [result, ...(scenario?.repeats ?? [])].map((run) => run?.cpuUs).filter((cpu) => cpu !== null && cpu !== undefined)
  if (result === undefined || runs.length < 2) return result
  return { ...result, cpuUs: runs.reduce((sum, cpu) => sum + cpu, 0) / runs.length }
}

/** The CPU references of scenarios: what each one's CPU per request is compared with, and the bound. */
export const CPU_TARGETS: { id: string; reference: string; label: string; short: string; max: number }[] = [
  { id: 'detail_hit', reference: 'reply', label: 'the bare server sending the same bytes', short: 'bare reply', max: 1.6 },
  { id: 'detail_miss', reference: 'floor:detail', label: 'its floor (row read + JSON only)', short: 'floor', max: 1.3 },
  { id: 'list_miss', reference: 'floor:list', label: 'its floor (page read + JSON only)', short: 'floor', max: 1.3 },
  { id: 'list_tags_fields', reference: 'list_miss', label: 'the plain list miss', short: 'list miss', max: 2 },
  { id: 'list_deep', reference: 'list_page1', label: 'page 1', short: 'page 1', max: 1.1 },
  { id: 'search_mix', reference: 'detail_miss', label: 'the detail miss', short: 'detail miss', max: 3 },
]

/** A reference's load result: `reply`, `reply:async`, `floor:<kind>`, `ceiling` (the first run) or a scenario id. */
export function referenceResult(results: RunResults, reference: string): LoadResult | undefined {
  if (reference === 'reply') return results.replyCeiling?.result
  if (reference === 'reply:async') return results.asyncReplyCeiling?.result
  if (reference === 'ceiling') return results.ceiling[0]
  if (reference.startsWith('floor:')) return results.floors[reference.slice('floor:'.length) as 'detail' | 'list' | 'filtered']?.result
  return scenarioResult(results, reference)
}

/** Every target with its measured figure and whether it is met. */
export function checkTargets(results: RunResults): Check[] {
  const checks: Check[] = []
  const add = (name: string, target: string, value: string | null, pass: boolean | null) =>
    checks.push({ name, target, value: value ?? 'not measured', pass: value === null ? null : pass })

  for (const { id, reference, label, max } of CPU_TARGETS) {
    const own = scenarioResult(results, id)?.cpuUs ?? null
    const ref = referenceResult(results, reference)?.cpuUs ?? null
    const name = `${id}: server CPU per request`
    const target = `≤ ${max}× ${label}`
    if (own === null || ref === null) add(name, target, null, null)
    else add(name, target, `${us(own)} vs ${us(ref)} (×${(own / ref).toFixed(2)})`, own <= max * ref)
  }

  const ip = results.inProcess
  if (ip !== undefined) {
    const ratio = ip.listDeep.p50 / Math.max(ip.listPage1.p50, 1e-9)
    add(`  deep page ${ip.deepPage} vs page 1, in-process uncached p50`, '(reference)', `${ms(ip.listDeep.p50)} vs ${ms(ip.listPage1.p50)} (×${ratio.toFixed(2)})`, true)
    for (const c of ip.search) {
      const own = c.useCase
      const fts = c.fts
      const fast = own.p50 <= 3 && own.p99 <= 15
      const value = `p50 ${ms(own.p50)}, p99 ${ms(own.p99)}${fts === null ? '' : `; FTS5 ${ms(fts.p50)}, ${ms(fts.p99)}`}`
      add(`search in-process: ${SEARCH_CLASSES[c.cls]}`, 'p50 ≤ 3, p99 ≤ 15 ms, ≤ FTS5', value, fast && (fts === null || (own.p50 <= fts.p50 && own.p99 <= fts.p99)))
    }
    const compared = ip.search.filter((c) => c.totalsAgree !== null)
    if (compared.length > 0) {
      const agree = compared.reduce((n, c) => n + (c.totalsAgree ?? 0), 0)
      const all = compared.reduce((n, c) => n + c.queries, 0)
      add('search total exact (= FTS5 count(*))', 'every query', `${agree} of ${all}`, agree === all)
    }
    add('search memory answered none in-process', 'every query new', `${ip.engineSearches.distinct} distinct of ${ip.engineSearches.calls}`, ip.engineSearches.distinct === ip.engineSearches.calls)
  } else {
    add('search in-process', 'p50 ≤ 3, p99 ≤ 15 ms, ≤ FTS5', null, null)
  }
  const sent = results.searchQueries
  if (sent !== undefined) add('search memory answered none over HTTPS', 'every query new', `${sent.distinct} distinct of ${sent.sent}`, sent.distinct === sent.sent)

  const inquiry = scenarioResult(results, 'inquiry')
  add('inquiry creation (durable)', '≥ 2,000/s', inquiry === undefined ? null : `${Math.round(inquiry.rps)}/s`, (inquiry?.rps ?? 0) >= 2000)
  const imp = results.import
  add('import incl. indexing', '≥ 10,000 items/s', imp === undefined ? null : `${Math.round(imp.itemsPerSecondWithIndex)} items/s (import alone ${Math.round(imp.itemsPerSecond)}/s)`, (imp?.itemsPerSecondWithIndex ?? 0) >= 10_000)
  const serve = results.serve
  // Hint: judged on the first start after the import and on the restart alike: both must meet it.
  const slowest = serve === undefined ? Infinity : Math.max(serve.firstSearchMs, serve.restartFirstSearchMs ?? 0)
  const starts = serve === undefined ? null : `${(serve.firstSearchMs / 1000).toFixed(2)} s${serve.restartFirstSearchMs === undefined ? '' : `, restart ${(serve.restartFirstSearchMs / 1000).toFixed(2)} s`}`
  add('serve start → first correct search', '≤ 5 s', starts, slowest <= 5000)
  const peak = serve?.peakRssBytes ?? null
  add('server RSS, peak through the benchmark', '≤ 600 MB', peak === null ? null : `${(peak / MB).toFixed(0)} MB`, (peak ?? Infinity) <= 600 * MB)
  add('index size on disk', '(reported)', serve === undefined ? null : serve.indexDiskBytes == null ? 'n/a (nothing persisted; rebuilt on start)' : `${(serve.indexDiskBytes / MB).toFixed(1)} MB`, true)
  return checks
}
