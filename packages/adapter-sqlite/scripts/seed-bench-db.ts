/**
 * Seeds a database file with the benchmark's data set through the real import path, once, so
 * that in-process timing scripts (`read-path-timing.ts`) can reuse it at 100k items without a
 * full benchmark run: `node --conditions=source --import tsx packages/adapter-sqlite/scripts/seed-bench-db.ts FILE [ITEMS]`.
 */
import { existsSync } from 'node:fs'
import { seed } from '../../../bench/seed.ts'

const [path, itemsArg] = process.argv.slice(2)
if (path === undefined) throw new Error('usage: seed-bench-db.ts FILE [ITEMS]')
if (existsSync(path)) throw new Error(`${path} exists; seeding needs a new file`)
const items = Number(itemsArg ?? '100000')
const cpu = process.cpuUsage()
const seeded = await seed(path, items, (line) => console.log(line))
const used = process.cpuUsage(cpu)
console.log(`import: ${items} items in ${seeded.importSeconds.toFixed(2)} s = ${Math.round(items / seeded.importSeconds)} items/s; ${(seeded.dbBytes / 1e6).toFixed(0)} MB; CPU of the whole seed (records generated too) ${(used.user / 1e6).toFixed(2)} s user + ${(used.system / 1e6).toFixed(2)} s system`)
console.log(`key: ${seeded.key}`)
await seeded.store.close()
