/**
 * Times the store part of an import: the benchmark's records (generated first) imported with
 * `importRecords` into a new database, `--rounds` times, each into a fresh file; prints wall and
 * CPU time of each import alone. `node --conditions=source --import tsx bench/micro/import-store.ts [ITEMS] [ROUNDS] [--again]` (`--again`:
 * import the same records a second time, which reads and compares every item and writes none)
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { ImportItem } from '@frontdesk/core'
import { createFrontdesk, createTenant, importRecords } from '@frontdesk/core'
import { Dataset } from '../dataset.ts'
import { openSqliteStore } from '@frontdesk/adapter-sqlite'

const items = Number(process.argv[2] ?? '20000')
const rounds = Number(process.argv[3] ?? '3')
const again = process.argv.includes('--again')
const records: ImportItem[] = [...new Dataset(items).records()]
for (let round = 0; round < rounds; round++) {
  const dir = mkdtempSync(join(tmpdir(), 'frontdesk-import-timing-'))
  try {
    const store = openSqliteStore({ path: join(dir, 'import.db') })
    const frontdesk = createFrontdesk({ store })
    await createTenant(frontdesk.context, { code: 'bench', name: 'Benchmark' })
    const cpu = process.cpuUsage()
    const started = performance.now()
    await importRecords(frontdesk.context, { tenantCode: 'bench', records })
    const seconds = (performance.now() - started) / 1000
    const used = process.cpuUsage(cpu)
    console.log(`import ${items}: ${seconds.toFixed(2)} s = ${Math.round(items / seconds)} items/s; CPU ${(used.user / 1e6).toFixed(2)} user + ${(used.system / 1e6).toFixed(2)} system = ${Math.round(items / ((used.user + used.system) / 1e6))} items per CPU second`)
    if (again) {
      // The same records again: every item is read and compared, none written.
      const cpuAgain = process.cpuUsage()
      const startedAgain = performance.now()
      await importRecords(frontdesk.context, { tenantCode: 'bench', records })
      const secondsAgain = (performance.now() - startedAgain) / 1000
      const usedAgain = process.cpuUsage(cpuAgain)
      console.log(`  again, unchanged: ${secondsAgain.toFixed(2)} s = ${Math.round(items / secondsAgain)} items/s; CPU ${((usedAgain.user + usedAgain.system) / 1e6).toFixed(2)} s`)
    }
    await store.close()
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
