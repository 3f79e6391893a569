import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { formatReport } from './report.ts'
import type { RunResults } from './results.ts'
import { RESULTS_FORMAT } from './results.ts'

/*
 * `node --import tsx bench/show.ts [FILE]`: prints the report of a saved run (default: the
 * newest file in bench-results/), to compare runs without running them again.
 */

const dir = fileURLToPath(new URL('../bench-results/', import.meta.url))
const file = process.argv[2] ?? join(dir, readdirSync(dir).filter((name) => name.endsWith('.json')).sort().at(-1) ?? '')
const results = JSON.parse(readFileSync(file, 'utf8')) as RunResults
if (results.format !== RESULTS_FORMAT) {
  process.stderr.write(`${file} was written by an earlier version of the benchmark (its figures are read in the file itself, or by that version's show.ts)\n`)
  process.exit(1)
}
process.stdout.write(`${formatReport(results)}\n`)
