import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { formatReport } from './report.ts'
import type { RunResults } from './results.ts'

/*
 * `node --import tsx bench/show.ts [FILE]`: prints the report of a saved run (default: the
 * newest file in bench-results/), to compare runs without running them again.
 */

const dir = fileURLToPath(new URL('../bench-results/', import.meta.url))
const file = process.argv[2] ?? join(dir, readdirSync(dir).filter((name) => name.endsWith('.json')).sort().at(-1) ?? '')
process.stdout.write(`${formatReport(JSON.parse(readFileSync(file, 'utf8')) as RunResults)}\n`)
