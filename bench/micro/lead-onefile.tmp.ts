import { writeFileSync } from 'node:fs'
import { Dataset } from '../dataset.ts'
const [out, nArg, skipArg] = process.argv.slice(2) as [string, string, string]
let i = 0, n = Number(nArg), skip = Number(skipArg), made = 0
for (const item of new Dataset(1_000_000).records()) {
  const r = item.record as Record<string, unknown>
  if (r['kind'] !== 'content') continue
  if (i++ < skip) continue
  writeFileSync(`${out}-${made}.jsonl`, JSON.stringify({ ...r, title: `${String(r['title'])} lead edit ${made}` }) + '\n')
  if (++made === n) break
}
