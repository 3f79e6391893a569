import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { track } from './children.ts'
import type { RunResults } from './results.ts'

/*
 * `npm run bench -- --store both …`: the whole run on SQLite, then on PostgreSQL, one after the
 * other on the same machine (each its own process, as `--store sqlite` and `--store postgres`
 * run it, each writing its results file), and a closing note with the figures side by side.
 */

const RUN = fileURLToPath(new URL('./run.ts', import.meta.url))

/** Runs `bench/run.ts` with `args` (stdout and stderr passed through); resolves to its results file. */
function runOnce(args: string[]): Promise<string> {
  const child = track(spawn(process.execPath, ['--conditions=source', '--import', 'tsx', RUN, ...args], { stdio: ['ignore', 'pipe', 'inherit'] }))
  let out = ''
  child.stdout?.on('data', (chunk: Buffer) => {
    out += chunk.toString('utf8')
    process.stdout.write(chunk)
  })
  return new Promise((resolve, reject) => {
    child.once('exit', (code, signal) => {
      const file = /^results: (.+)$/m.exec(out)?.[1]
      if (file === undefined) reject(new Error(`the run ${args.join(' ')} ended (${code ?? signal}) without results`))
      else resolve(file)
    })
  })
}

/** Both runs, then the comparison. `args` are the command line's, without `--store`. */
export async function runBoth(args: string[]): Promise<void> {
  const sqlite = await runOnce([...args, '--store', 'sqlite'])
  // Hint: the first run built the bundle.
  const postgres = await runOnce([...args.filter((arg) => arg !== '--no-build'), '--no-build', '--store', 'postgres'])
  const read = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as RunResults
  process.stdout.write(`\n${formatComparison(read(sqlite), read(postgres))}\n\nresults: ${sqlite}\n         ${postgres}\n`)
}

/** The closing note: every scenario's figures on both stores, and the import. */
export function formatComparison(sqlite: RunResults, postgres: RunResults): string {
  const rows: string[][] = [['', 'SQLite req/s', 'CPU µs/req', 'PostgreSQL req/s', 'CPU µs/req', 'PostgreSQL CPU ×']]
  const num = (n: number | null | undefined, digits = 0) => (n === null || n === undefined ? 'n/a' : n.toFixed(digits))
  const ceiling = (r: RunResults) => r.ceiling.at(-1)
  rows.push(['ceiling: bare node:https', num(sqlite.ceilingRps), num(ceiling(sqlite)?.cpuUs), num(postgres.ceilingRps), num(ceiling(postgres)?.cpuUs), ''])
  for (const scenario of sqlite.scenarios) {
    const other = postgres.scenarios.find((s) => s.id === scenario.id)
    const a = scenario.result
    const b = other?.result
    const ratio = a?.cpuUs && b?.cpuUs ? `×${(b.cpuUs / a.cpuUs).toFixed(2)}` : ''
    rows.push([scenario.label, num(a?.rps), num(a?.cpuUs), num(b?.rps), num(b?.cpuUs), ratio])
  }
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((row) => [...(row[i] ?? '')].length))) ?? []
  const line = (row: string[]) => row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0))).join('  ')
  const imported = (r: RunResults) => (r.import === undefined ? 'n/a' : `${r.import.itemsPerSecondWithIndex.toFixed(0)} items/s with indexing (${r.import.itemsPerSecond.toFixed(0)} without the snapshot's last steps)`)
  return [
    `SQLite and PostgreSQL, one after the other on this machine (PostgreSQL's CPU counted with serve's; load average ${sqlite.machine.loadBefore[0]?.toFixed(2)} → ${postgres.machine.loadAfter?.[0]?.toFixed(2) ?? '?'}):`,
    line(rows[0] ?? []),
    widths.map((w) => '-'.repeat(w)).join('  '),
    ...rows.slice(1).map(line),
    `import: SQLite ${imported(sqlite)}; PostgreSQL ${imported(postgres)}`,
  ].join('\n')
}
