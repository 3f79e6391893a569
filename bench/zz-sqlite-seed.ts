import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { seed } from './seed.ts'
const dir = mkdtempSync(join(tmpdir(), 'zz-'))
const c0 = process.cpuUsage()
const s = await seed(join(dir, 'b.db'), Number(process.argv[2] ?? 20000), () => {})
const c = process.cpuUsage(c0)
console.log({ importS: s.importSeconds.toFixed(2), indexS: s.indexSeconds.toFixed(2), perS: Math.round(Number(process.argv[2] ?? 20000) / (s.importSeconds + s.indexSeconds)), cpuIncludingGeneration: ((c.user + c.system) / 1e6).toFixed(2), gen: s.generateSeconds.toFixed(2) })
await s.store.close(); rmSync(dir, { recursive: true, force: true })
