import { execFileSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { Dataset } from '../dataset.ts'
import { oneItemImports } from '../start-after-imports.ts'

/*
 * `node --conditions=source --import tsx bench/micro/start-after-imports.ts DB SEARCH_DIR ITEMS COUNT`:
 * on a database seeded by `seed-db.ts` with ITEMS items (its search snapshots in SEARCH_DIR),
 * leaves the state of COUNT one-item imports (see `oneItemImports`), then times a fresh
 * process's first correct search (`first-search.child.ts`). Changes the database.
 */

const [db, searchDir, items, count] = process.argv.slice(2)
if (db === undefined || searchDir === undefined || items === undefined || count === undefined) throw new Error('usage: bench/micro/start-after-imports.ts DB SEARCH_DIR ITEMS COUNT')
const log = (line: string) => process.stderr.write(`${line}\n`)
const done = await oneItemImports({ db, searchDir, dataset: new Dataset(Number(items)), count: Number(count), log })
console.log(`${done.imports} one-item imports in ${done.seconds.toFixed(1)} s: ${JSON.stringify(done.outcomes)}`)
const child = fileURLToPath(new URL('first-search.child.ts', import.meta.url))
for (let round = 0; round < 2; round++) {
  console.log(execFileSync(process.execPath, ['--conditions=source', '--import', 'tsx', child, db, searchDir, 'bench'], { encoding: 'utf8' }).trim())
}
