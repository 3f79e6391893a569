/**
 * Times what `frontdesk import` does, in process: the benchmark's records imported into a new
 * database, then the tenant's search snapshot saved beside it — `overlap`: indexed on a worker
 * thread while the import writes (`indexWhileImporting`, as the CLI does), `serial`: built
 * from the database after the commit (`saveSnapshot`, as before). Each round into a fresh
 * file; `--check`: also builds the overlap's database after the commit and compares the bytes;
 * `--no-bulk`: without `TransactionOptions.bulk` (indexes updated row by row).
 * `node --conditions=source --import tsx bench/micro/import-index.ts [ITEMS] [ROUNDS] [overlap|serial|both] [--check] [--no-bulk]`
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { ImportItem } from '@frontdesk/core'
import { createFrontdesk, createTenant, importRecords } from '@frontdesk/core'
import { Dataset } from '../dataset.ts'
import { openSqliteStore } from '@frontdesk/adapter-sqlite'
import { createSearchEngine, directorySnapshots, indexWhileImporting } from '@frontdesk/search'

const items = Number(process.argv[2] ?? '20000')
const rounds = Number(process.argv[3] ?? '3')
const modes = process.argv[4] === 'both' || process.argv[4] === undefined ? ['overlap', 'serial'] : [process.argv[4]]
const check = process.argv.includes('--check')
const bulk = !process.argv.includes('--no-bulk')
const records: ImportItem[] = [...new Dataset(items).records()]
const cpuSeconds = (u: NodeJS.CpuUsage) => ((u.user + u.system) / 1e6).toFixed(2)

/** CPU seconds of each thread of this process so far, by thread id (Linux: /proc/self/task/TID/stat, utime + stime in ticks of 10 ms). */
function threadCpu(): Map<number, number> {
  const times = new Map<number, number>()
  for (const tid of readdirSync('/proc/self/task')) {
    try {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'latin1')
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      times.set(Number(tid), (Number(fields[11]) + Number(fields[12])) / 100)
    } catch {
      // The thread ended meanwhile.
    }
  }
  return times
}

/** Main thread's and other threads' CPU seconds since `before` (threads that ended meanwhile are not counted). */
function threadSplit(before: Map<number, number>): string {
  let main = 0
  let others = 0
  for (const [tid, seconds] of threadCpu()) {
    const spent = seconds - (before.get(tid) ?? 0)
    if (tid === process.pid) main += spent
    else others += spent
  }
  return `main thread ${main.toFixed(2)} s, other threads ${others.toFixed(2)} s`
}
for (let round = 0; round < rounds; round++) {
  for (const mode of modes) {
    const dir = mkdtempSync(join(tmpdir(), 'frontdesk-import-index-timing-'))
    try {
      const path = join(dir, 'import.db')
      const store = openSqliteStore({ path })
      const frontdesk = createFrontdesk({ store })
      const tenant = await createTenant(frontdesk.context, { code: 'bench', name: 'Benchmark' })
      const cpu = process.cpuUsage()
      const threads = threadCpu()
      const started = performance.now()
      const snapshots = directorySnapshots(`${path}.search`)
      const indexing = mode === 'overlap' ? indexWhileImporting({ tenantId: tenant.id, snapshots }) : null
      await importRecords(frontdesk.context, { tenantCode: 'bench', records, transaction: { bulk, ...(indexing === null ? {} : { observer: indexing.observer }) } })
      const imported = performance.now()
      const importCpu = process.cpuUsage(cpu)
      const split = threadSplit(threads)
      let outcome: string = indexing === null ? 'unused' : await indexing.finish()
      if (outcome === 'unused') {
        const search = createSearchEngine({ store, snapshots, warmUp: false })
        outcome = (await search.saveSnapshot(tenant.id)) ? 'built after the commit' : 'NOT saved'
        await search.close()
      }
      const done = performance.now()
      const used = process.cpuUsage(cpu)
      const s = (ms: number) => (ms / 1000).toFixed(2)
      console.log(`${mode} ${items}: import ${s(imported - started)} s (CPU ${cpuSeconds(importCpu)}: ${split}), then ${s(done - imported)} s (${outcome}); total ${s(done - started)} s = ${Math.round(items / ((done - started) / 1000))} items/s; CPU (all threads) ${cpuSeconds(used)} s`)
      if (mode === 'overlap' && check) {
        // The same database built after the commit, into another directory: the same bytes?
        const search = createSearchEngine({ store, warmUp: false, snapshots: directorySnapshots(join(dir, 'rebuilt')) })
        await search.saveSnapshot(tenant.id)
        await search.close()
        const name = readdirSync(`${path}.search`)[0] ?? ''
        const same = readFileSync(join(`${path}.search`, name)).equals(readFileSync(join(dir, 'rebuilt', name)))
        console.log(`  snapshot ${same ? 'identical to' : 'DIFFERS from'} the one built from the database`)
      }
      await store.close()
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }
}
