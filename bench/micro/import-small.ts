/**
 * What small imports cost on a large tenant (`measureSmallImports` of `bench/small-imports.ts`,
 * which `npm run bench` runs at the end on its own database): the tenant seeded as the bench
 * does (`bench/seed.ts`), into a SQLite file or, with `--db postgres://…`, a PostgreSQL
 * database (which must exist and be empty), then one-item and 1,000-item imports, each a
 * fresh `frontdesk import` process of the built CLI (`node scripts/build.mjs` first), and a
 * start's first search. Made for sizes the bench does not run, 1,000,000 items included
 * (about an hour and 3 GB on two cores; not in CI).
 * `node --conditions=source --import tsx bench/micro/import-small.ts [ITEMS] [--db URL] [--rounds N]` (`KEEP=1`: keep the directory)
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { seed } from '../seed.ts'
import { formatSmallImport, formatStartUp, measureSmallImports } from '../small-imports.ts'

const { values, positionals } = parseArgs({ options: { db: { type: 'string' }, rounds: { type: 'string' } }, allowPositionals: true })
const items = Number(positionals[0] ?? '100000')
const rounds = Number(values.rounds ?? '3')
const dir = mkdtempSync(join(tmpdir(), 'frontdesk-import-small-'))
const db = values.db ?? join(dir, 'bench.db')
const searchDir = join(dir, 'bench.search')
const log = (line: string) => process.stderr.write(`${line}\n`)
try {
  const seeded = await seed(db, items, log, searchDir)
  await seeded.store.close()
  const measured = await measureSmallImports({ db, searchDir, dir, dataset: seeded.dataset, items, rounds, log })
  process.stdout.write(`${items} items, ${db.startsWith('postgres') ? 'PostgreSQL' : 'SQLite'}; import ${Math.round(items / seeded.importSeconds)} items/s\n`)
  for (const run of measured.runs) process.stdout.write(`${formatSmallImport(run)}\n`)
  process.stdout.write(`start-up: ${formatStartUp(measured.startUp.fresh)}; ${formatStartUp(measured.startUp.behind)}\n`)
} finally {
  if (process.env['KEEP'] === '1') process.stderr.write(`kept ${dir}\n`)
  else rmSync(dir, { recursive: true, force: true })
}
