import type { QueryClass } from './queries.ts'
import { QUERY_CLASS_LABELS } from './queries.ts'
import type { RunResults } from './results.ts'

const MB = 1024 * 1024

function table(head: string[], rows: string[][]): string {
  const widths = head.map((h, i) => Math.max(width(h), ...rows.map((r) => width(r[i] ?? ''))))
  // First and last columns are text (left-aligned), the others figures.
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 || i === head.length - 1 ? pad(c, widths[i] ?? 0) : padStart(c, widths[i] ?? 0))).join('  ').trimEnd()
  return [line(head), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n')
}

// Hint: ✓ and ✗ are one column wide, as are the other characters used here.
function width(text: string): number {
  return [...text].length
}
function pad(text: string, n: number): string {
  return text + ' '.repeat(Math.max(0, n - width(text)))
}
function padStart(text: string, n: number): string {
  return ' '.repeat(Math.max(0, n - width(text))) + text
}

const mark = (pass: boolean | null) => (pass === null ? '?' : pass ? '✓' : '✗')
const fixed = (n: number, digits = 2) => n.toFixed(digits)

/** The human-readable report of a run. */
export function formatReport(results: RunResults): string {
  const out: string[] = []
  const ceiling = results.ceilingRps
  out.push(`frontdesk benchmark — ${results.options['items']} items, ${results.options['duration']} s per scenario, ${results.options['connections']} connections, access log ${results.options['accessLog'] === false ? 'off' : 'on'}, node ${results.machine.node}, ${results.machine.cpus} CPUs (${results.machine.cpuModel})`)
  out.push(`load average before: ${results.machine.loadBefore.map((n) => n.toFixed(2)).join(' ')}${results.machine.loadAfter === undefined ? '' : `, after: ${results.machine.loadAfter.map((n) => n.toFixed(2)).join(' ')}`}`)
  out.push('')
  const rows: string[][] = results.ceiling.map((c, i) => [`ceiling: bare node:https, 1 KB JSON (run ${i + 1})`, fixed(c.rps, 0), fixed(c.p50), fixed(c.p99), '', ''])
  const replay = results.replyCeiling
  if (replay !== undefined) {
    rows.push([`bare node:https, the detail hit's reply (${replay.replyBytes} B body)`, fixed(replay.result.rps, 0), fixed(replay.result.p50), fixed(replay.result.p99), replay.ratio === undefined ? '' : `${(replay.ratio * 100).toFixed(1)} %`, 'no work: the reply size alone'])
  }
  const asyncReplay = results.asyncReplyCeiling
  if (asyncReplay !== undefined) {
    rows.push([`… the same, sent from a promise callback`, fixed(asyncReplay.result.rps, 0), fixed(asyncReplay.result.p50), fixed(asyncReplay.result.p99), asyncReplay.ratio === undefined ? '' : `${(asyncReplay.ratio * 100).toFixed(1)} %`, 'what an async handler starts from'])
  }
  for (const [kind, floor] of Object.entries(results.floors ?? {})) {
    if (floor === undefined) continue
    const note = kind === 'detail' ? 'the row read and JSON only' : kind === 'list' ? 'the page read and JSON only' : 'the obvious single statement and JSON'
    rows.push([`bare node:https + better-sqlite3, ${kind} miss`, fixed(floor.result.rps, 0), fixed(floor.result.p50), fixed(floor.result.p99), floor.ratio === undefined ? '' : `${(floor.ratio * 100).toFixed(1)} %`, note])
  }
  for (const s of results.scenarios) {
    if (s.result === undefined) {
      rows.push([s.label, 'FAILED', '', '', '', s.error ?? ''])
      continue
    }
    const r = s.result
    const bad = Object.entries(r.otherStatuses).map(([status, n]) => `${n}×${status}`)
    if (r.errors > 0) bad.push(`${r.errors} errors`)
    if (r.timeouts > 0) bad.push(`${r.timeouts} timeouts`)
    const cache = s.allMisses === undefined || s.distinct === undefined || s.distinct <= 1 ? '' : s.allMisses ? `all misses (${s.distinct} keys)` : `repeats possible (${s.distinct} keys)`
    rows.push([s.label, fixed(r.rps, 0), fixed(r.p50), fixed(r.p99), s.ratio === undefined ? '' : `${(s.ratio * 100).toFixed(1)} %`, [cache, ...bad].filter((x) => x !== '').join('; ')])
  }
  out.push(table(['scenario (HTTPS, keep-alive)', 'req/s', 'p50 ms', 'p99 ms', 'of ceiling', 'notes'], rows))
  if (ceiling !== undefined) out.push(`ceiling used for ratios: ${fixed(ceiling, 0)} req/s (mean of the runs)`)

  const ip = results.inProcess
  if (ip !== undefined) {
    out.push('')
    out.push(`in-process (use cases called directly, no HTTP, no response cache; ${ip.search.en1.runs} calls per class):`)
    const searchRows = (Object.keys(QUERY_CLASS_LABELS) as QueryClass[]).map((name) => {
      const set = ip.queries[name]
      const totals = set.map((q) => q.total).sort((a, b) => a - b)
      const l = ip.search[name]
      return [`search: ${QUERY_CLASS_LABELS[name]}`, String(set.length), set.length === 0 ? '' : `${totals[0]}–${totals[totals.length - 1]}`, fixed(l.p50), fixed(l.p99), fixed(l.max)]
    })
    searchRows.push(['list page 1', '', '', fixed(ip.listPage1.p50), fixed(ip.listPage1.p99), fixed(ip.listPage1.max)])
    if (ip.listPage2 !== undefined) searchRows.push(['list page 2 (cursor)', '', '', fixed(ip.listPage2.p50), fixed(ip.listPage2.p99), fixed(ip.listPage2.max)])
    searchRows.push([`list page ${ip.deepPage} (cursor)`, '', '', fixed(ip.listDeep.p50), fixed(ip.listDeep.p99), fixed(ip.listDeep.max)])
    out.push(table(['what', 'queries', 'hits', 'p50 ms', 'p99 ms', 'max ms'], searchRows))
  }
  const imp = results.import
  const serve = results.serve
  out.push('')
  if (imp !== undefined) {
    out.push(`import: ${imp.items} items (${imp.records} records) in ${fixed(imp.seconds, 1)} s = ${fixed(imp.itemsPerSecond, 0)} items/s; then indexing + search snapshot ${fixed(imp.indexBuildSeconds, 1)} s${results.inProcess === undefined ? '' : ` (index build alone, in-process: ${fixed(results.inProcess.indexBuildSeconds, 1)} s)`}; import with indexing ${fixed(imp.itemsPerSecondWithIndex, 0)} items/s; database ${fixed(imp.dbBytes / MB, 1)} MB`)
  }
  if (serve !== undefined) {
    out.push(`serve: listening after ${fixed(serve.listeningMs / 1000)} s, first correct search after ${fixed(serve.firstSearchMs / 1000)} s${serve.restartFirstSearchMs === undefined ? '' : ` (restart: ${fixed(serve.restartFirstSearchMs / 1000)} s)`}; RSS after start ${serve.rssBytes === null ? 'n/a' : `${fixed(serve.rssBytes / MB, 0)} MB`}${serve.restartRssBytes == null ? '' : ` (restart: ${fixed(serve.restartRssBytes / MB, 0)} MB)`}${serve.rssAfterLoadBytes == null ? '' : `, after the load ${fixed(serve.rssAfterLoadBytes / MB, 0)} MB`}; index on disk ${serve.indexDiskBytes === null ? 'n/a (nothing persisted beside the database)' : `${fixed(serve.indexDiskBytes / MB, 1)} MB`}`)
  }
  out.push('')
  out.push('targets (issue 8, meant for 100,000 items):')
  out.push(table(['', 'target', 'measured', ''], results.checks.map((c) => [c.name, c.target, c.value, c.target.startsWith('(') ? '' : mark(c.pass)])))
  if (results.aborted !== undefined) out.push(`\nABORTED: ${results.aborted} — figures above are partial.`)
  return out.join('\n')
}
