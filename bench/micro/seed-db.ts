import { seed } from '../seed.ts'

/*
 * `node --conditions=source --import tsx bench/micro/seed-db.ts FILE [ITEMS]`: seeds a new
 * database file with the benchmark's data set (tenant `bench`, default 20,000 items) through
 * the real import path, as `npm run bench` does, and saves its search snapshot beside it, so
 * that the scripts of this folder can be run against it again and again.
 */

const [path, itemsArg] = process.argv.slice(2)
if (path === undefined) throw new Error('usage: bench/micro/seed-db.ts FILE [ITEMS]')
const items = Number(itemsArg ?? 20_000)
const seeded = await seed(path, items, (line) => process.stderr.write(`${line}\n`))
await seeded.store.close()
console.log(`${path}: ${items} items imported in ${seeded.importSeconds.toFixed(1)} s, ${(seeded.dbBytes / 1048576).toFixed(0)} MB`)
