/**
 * The CPU of a first import's indexing worker alone, on one thread, without the import's
 * thread competing (which makes the whole import's figures move with the machine's load): the
 * items of a database seeded by `seed-db.ts` read back, put in the worker's message batches
 * (`WriteBatch`, cloned as `postMessage` clones them), then per round analysed
 * (`ImportAnalysis.take`, what the worker does while the import writes) and their snapshot
 * encoded (`end` and `snapshotPieces`, what it does while the import commits; the bytes are
 * counted, not written). The worker is the longer of the import's two threads at 100,000 items.
 * `node --conditions=source --import tsx bench/micro/import-worker-cpu.ts FILE [ROUNDS]`
 */
import { openSqliteStore } from '@frontdesk/adapter-sqlite'
import type { FeedPosition } from '@frontdesk/core'
import { fileByteSpill, fileSpill } from '../../packages/search/src/build/list-spill.ts'
import type { Writes } from '../../packages/search/src/import/import-analysis.ts'
import { ImportAnalysis, WriteBatch } from '../../packages/search/src/import/import-analysis.ts'
import { snapshotPieces } from '../../packages/search/src/snapshots/snapshot-codec.ts'
import { TENANT } from '../seed.ts'

const [path, roundsArg] = process.argv.slice(2)
if (path === undefined) throw new Error('usage: bench/micro/import-worker-cpu.ts FILE [ROUNDS]')
const rounds = Number(roundsArg ?? 3)
const store = openSqliteStore({ path })
const tenantId = (await store.getTenantByCode(TENANT))?.id ?? ''
const categories = await store.listCategories(tenantId)
const tags = new Map((await store.listTags(tenantId)).map((tag): [string, string] => [tag.id, tag.name]))
const batches: Writes[] = []
let after: { value: string; id: string } | undefined
for (;;) {
  const page = await store.listContents(tenantId, { visibility: { kind: 'all' }, sort: { key: 'id', direction: 'asc' }, limit: 256, ...(after === undefined ? {} : { after }) })
  const batch = new WriteBatch()
  for (const item of page) batch.item(item)
  if (batch.size > 0) batches.push(structuredClone(batch.take()))
  const last = page.at(-1)
  if (page.length < 256 || last === undefined) break
  after = { value: last.id, id: last.id }
}
const position: FeedPosition = await store.feedPosition()
await store.close()
const ms = (u: NodeJS.CpuUsage) => ((u.user + u.system) / 1000).toFixed(0)
for (let round = 0; round < rounds; round++) {
  const start = process.cpuUsage()
  const analysis = new ImportAnalysis(categories, fileSpill(), fileByteSpill())
  for (const writes of batches) analysis.take(writes)
  const analysed = process.cpuUsage(start)
  const snapshot = analysis.end({ categories, tags })
  let bytes = 0
  if (snapshot !== null) for (const piece of snapshotPieces(position, snapshot)) bytes += piece.length
  const encoded = process.cpuUsage(start)
  console.log(`analysis ${ms(analysed)} ms CPU, snapshot ${ms({ user: encoded.user - analysed.user, system: encoded.system - analysed.system })} ms CPU, ${bytes} bytes`)
}
