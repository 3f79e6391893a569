import type { LoadResult } from './load-job.ts'
import type { RunResults } from './results.ts'
import { SEARCH_CLASS_IDS, SEARCH_CLASSES } from './search-classes.ts'
import { formatSmallImport, formatStartUp } from './small-imports.ts'
import { formatWebhooks } from './webhooks.ts'
import { CPU_TARGETS, referenceResult } from './targets.ts'

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
const cpu = (n: number | null | undefined) => (n === null || n === undefined ? 'n/a' : fixed(n, 0))

/** What each row's CPU per request is set against in the report (the targets' references, and the detail miss for every search). */
function comparisonOf(id: string): { reference: string; label: string } | null {
  const target = CPU_TARGETS.find((t) => t.id === id)
  if (target !== undefined) return { reference: target.reference, label: target.short }
  if (id.startsWith('search_')) return { reference: 'detail_miss', label: 'detail miss' }
  if (id === 'reply' || id === 'reply:async' || id.startsWith('floor:')) return { reference: 'ceiling', label: 'ceiling' }
  return null
}

function loadRow(results: RunResults, id: string, label: string, r: LoadResult, ratio: number | undefined, notes: string[]): string[] {
  const comparison = comparisonOf(id)
  const ref = comparison === null ? undefined : referenceResult(results, comparison.reference)
  const versus = comparison === null || ref?.cpuUs == null || r.cpuUs === null ? '' : `×${fixed(r.cpuUs / ref.cpuUs)} ${comparison.label}`
  const bad = Object.entries(r.otherStatuses).map(([status, n]) => `${n}×${status}`)
  if (r.errors > 0) bad.push(`${r.errors} errors`)
  if (r.timeouts > 0) bad.push(`${r.timeouts} timeouts`)
  return [label, fixed(r.rps, 0), fixed(r.p50), fixed(r.p99), fixed(r.max), cpu(r.cpuUs), r.serverCores === null ? '' : fixed(r.serverCores), ratio === undefined ? '' : `${(ratio * 100).toFixed(1)} %`, versus, [...notes, ...bad].filter((x) => x !== '').join('; ')]
}

/** The human-readable report of a run. */
export function formatReport(results: RunResults): string {
  const out: string[] = []
  const o = results.options
  out.push(`frontdesk benchmark — ${o['store'] === 'postgres' ? 'PostgreSQL (fsync and synchronous_commit on), ' : ''}${o['items']} items, ${o['duration']} s per scenario, ${o['connections']} connections, ${Number(o['workers'] ?? 1) > 1 ? `${o['workers']} server worker processes` : 'one server process'}, access log ${o['accessLog'] === false ? 'off' : 'on'}, node ${results.machine.node}, ${results.machine.cpus} CPUs (${results.machine.cpuModel})`)
  out.push(`load average before: ${results.machine.loadBefore.map((n) => n.toFixed(2)).join(' ')}${results.machine.loadAfter === undefined ? '' : `, after: ${results.machine.loadAfter.map((n) => n.toFixed(2)).join(' ')}`}`)
  out.push('')
  out.push('HTTPS, keep-alive. CPU µs/req: the server\'s CPU time (all its processes) over the measured seconds per 2xx answer; cores: that CPU time per second.')
  const rows: string[][] = results.ceiling.map((c, i) => loadRow(results, 'ceiling', `ceiling: bare node:https, 1 KB JSON (run ${i + 1})`, c, undefined, []))
  const replay = results.replyCeiling
  if (replay !== undefined) rows.push(loadRow(results, 'reply', `bare node:https, the detail hit's reply (${replay.replyBytes} B body)`, replay.result, replay.ratio, ['no work: the reply alone']))
  const asyncReplay = results.asyncReplyCeiling
  if (asyncReplay !== undefined) rows.push(loadRow(results, 'reply:async', '… the same, sent from a promise callback', asyncReplay.result, asyncReplay.ratio, ['what an async handler starts from']))
  for (const [kind, floor] of Object.entries(results.floors ?? {})) {
    if (floor === undefined) continue
    const note = kind === 'detail' ? 'the row read and JSON only' : kind === 'list' ? 'the page read and JSON only' : 'the obvious single statement and JSON'
    rows.push(loadRow(results, `floor:${kind}`, `bare node:https + better-sqlite3, ${kind} miss`, floor.result, floor.ratio, [note]))
  }
  for (const s of results.scenarios) {
    if (s.result === undefined) {
      rows.push([s.label, 'FAILED', '', '', '', '', '', '', '', s.error ?? ''])
      continue
    }
    const cache = s.allMisses === undefined || s.distinct === undefined || s.distinct <= 1 ? '' : s.allMisses ? `all misses (${s.distinct} keys)` : `repeats possible (${s.distinct} keys)`
    rows.push(loadRow(results, s.id, s.label, s.result, s.ratio, [cache]))
  }
  out.push(table(['scenario', 'req/s', 'p50 ms', 'p99 ms', 'max ms', 'CPU µs/req', 'cores', 'of ceiling', 'CPU vs', 'notes'], rows))
  if (results.ceilingRps !== undefined) out.push(`ceiling used for ratios: ${fixed(results.ceilingRps, 0)} req/s (mean of the runs)`)
  const sent = results.searchQueries
  if (sent !== undefined) {
    out.push(`search queries drawn for HTTPS (all sent but the few prepared when each load stopped): ${sent.sent}, ${sent.distinct} distinct by the engine's key (${sent.sent === sent.distinct ? 'none repeated: the search memory answered none' : `${sent.sent - sent.distinct} REPEATED`})`)
  }

  const ip = results.inProcess
  if (ip !== undefined) {
    out.push('')
    out.push(`in-process search, queries never asked before (${ip.search[0]?.queries ?? 0} per class; use case: frontdesk.search(), no cache; engine: the search port alone; FTS5: count(*) + page + title highlight):`)
    const searchRows = SEARCH_CLASS_IDS.flatMap((cls) => {
      const c = ip.search.find((s) => s.cls === cls)
      if (c === undefined) return []
      const f = c.fts
      return [[
        SEARCH_CLASSES[cls], `${c.hits.min}/${c.hits.p50}/${c.hits.max}`, fixed(c.useCase.p50), fixed(c.useCase.p99), fixed(c.useCase.max), cpu(c.useCase.cpuUs),
        fixed(c.engine.p50), fixed(c.engine.p99),
        f === null ? '' : fixed(f.p50), f === null ? '' : fixed(f.p99), f === null ? '' : fixed(f.max), f === null ? '' : cpu(f.cpuUs),
        c.totalsAgree === null ? '' : `${c.totalsAgree}/${c.queries}`, c.overlap === null ? '' : `${(c.overlap * 100).toFixed(0)} %`,
        c.otherPages === 0 ? '' : `${c.otherPages} later pages`,
      ]]
    })
    out.push(table(['class', 'hits min/p50/max', 'p50 ms', 'p99 ms', 'max ms', 'CPU µs', 'engine p50', 'engine p99', 'FTS5 p50', 'FTS5 p99', 'FTS5 max', 'FTS5 CPU µs', 'total =', 'page overlap', 'notes'], searchRows))
    out.push(`searches that reached the engine in-process: ${ip.engineSearches.calls}, ${ip.engineSearches.distinct} distinct by the key of its memory`)
    if (results.fts !== undefined) out.push(`FTS5 reference: ${results.fts.items} items, ${results.fts.words} words, ${fixed(results.fts.bytes / MB, 0)} MB, built in ${fixed(results.fts.seconds, 1)} s; typos expanded to the indexed words one edit away (FTS5 has no fuzzy matching)`)
    out.push('')
    out.push(table(['in-process list (uncached)', 'p50 ms', 'p99 ms', 'max ms', ''], [
      ['page 1', fixed(ip.listPage1.p50), fixed(ip.listPage1.p99), fixed(ip.listPage1.max), ''],
      ['page 2 (the first with a cursor)', fixed(ip.listPage2.p50), fixed(ip.listPage2.p99), fixed(ip.listPage2.max), ''],
      [`page ${ip.deepPage} (cursor)`, fixed(ip.listDeep.p50), fixed(ip.listDeep.p99), fixed(ip.listDeep.max), ''],
    ]))
  }
  const imp = results.import
  const serve = results.serve
  out.push('')
  if (imp !== undefined) {
    out.push(`import: ${imp.items} items (${imp.records} records) in ${fixed(imp.seconds, 1)} s = ${fixed(imp.itemsPerSecond, 0)} items/s; then indexing + search snapshot ${fixed(imp.indexBuildSeconds, 1)} s${ip === undefined ? '' : ` (index build alone, in-process: ${fixed(ip.indexBuildSeconds, 1)} s)`}; import with indexing ${fixed(imp.itemsPerSecondWithIndex, 0)} items/s; database ${fixed(imp.dbBytes / MB, 1)} MB`)
  }
  const small = results.smallImports
  if (small !== undefined) {
    out.push(`small imports into ${small.items} items, each a fresh \`frontdesk import\` process: ${small.runs.map(formatSmallImport).join('; ')}`)
    out.push(`start-up to a first correct search after small imports: ${formatStartUp(small.startUp.fresh)}; ${formatStartUp(small.startUp.behind)}`)
    const after = small.afterImports
    if (after !== undefined) out.push(`start-up after ${after.imports} more one-item imports (${fixed(after.seconds, 1)} s, ${JSON.stringify(after.outcomes)}): ${formatStartUp(after.startUp)}`)
  }
  if (results.webhooks !== undefined) out.push(...formatWebhooks(results.webhooks))
  if (serve !== undefined) {
    const mb = (n: number | null | undefined) => (n == null ? 'n/a' : `${fixed(n / MB, 0)} MB`)
    out.push(`serve: listening after ${fixed(serve.listeningMs / 1000)} s, first correct search after ${fixed(serve.firstSearchMs / 1000)} s${serve.restartFirstSearchMs === undefined ? '' : ` (restart: ${fixed(serve.restartFirstSearchMs / 1000)} s)`}; RSS after start ${mb(serve.rssBytes)}${serve.restartRssBytes === undefined ? '' : ` (restart: ${mb(serve.restartRssBytes)})`}, after the load ${mb(serve.rssAfterLoadBytes)}, peak ${mb(serve.peakRssBytes)}; index on disk ${serve.indexDiskBytes === null ? 'n/a (nothing persisted beside the database)' : `${fixed(serve.indexDiskBytes / MB, 1)} MB`}`)
  }
  out.push('')
  out.push('targets (issue 22, meant for 100,000 items):')
  out.push(table(['', 'target', 'measured', ''], results.checks.map((c) => [c.name, c.target, c.value, c.target.startsWith('(') ? '' : mark(c.pass)])))
  if (results.aborted !== undefined) out.push(`\nABORTED: ${results.aborted} — figures above are partial.`)
  return out.join('\n')
}
