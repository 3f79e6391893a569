/* Seeds N bench items, builds and closes the index as the bench does, reopens and reports how the index came back. */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { seed } from '../../../bench/seed.ts'
import { openSqliteStore } from '../src/sqlite-store.ts'
import { createSqliteSearch } from '../src/search/sqlite-search.ts'
import { readSnapshot } from '../src/search/snapshot-file.ts'

const dir = mkdtempSync(join(tmpdir(), 'fd-snapcheck-'))
const path = join(dir, 'bench.db')
const s = await seed(path, Number(process.argv[2] ?? 2000), () => undefined)
const a = createSqliteSearch(s.store, { onBuild: (i) => console.log('first', i.source, i.items) })
await a.warmUp()
await a.close()
await s.store.close()
const store = openSqliteStore({ path })
const tenant = (await store.listTenants())[0]?.id ?? ''
const file = readSnapshot(`${path}.search`, tenant)
console.log('snapshot', file?.seq, JSON.stringify(file?.anchor))
console.log('row', JSON.stringify(store.db.prepare('SELECT * FROM change_log WHERE seq = ?').get(file?.seq)), JSON.stringify(store.db.prepare('SELECT min(seq) a, max(seq) b FROM change_log').get()))
const b = createSqliteSearch(store, { onBuild: (i) => console.log('second', i.source, i.items) })
await b.warmUp()
await b.close()
await store.close()
console.log(dir)
