// Child process for the outbox crash test: opens the database at argv[2] (a SQLite path or a
// postgres:// URL) and imports batches into tenant `acme` one transaction after another, until
// it is killed: batch n of run R creates 10 published items `R-n-k`, and from the second batch
// on also retitles the items of the batch before it. Prints `ack n` once a batch's import has
// returned (committed).
import { createFrontdesk, importRecords } from '@frontdesk/core'
import type { Store } from '@frontdesk/core'

const [db, run] = process.argv.slice(2)
if (db === undefined || run === undefined) throw new Error('usage: import-events.child <db> <run>')
const store: Store = /^postgres(ql)?:\/\//.test(db)
  ? await (await import('@frontdesk/adapter-postgres')).openPostgresStore({ url: db })
  : (await import('@frontdesk/adapter-sqlite')).openSqliteStore({ path: db })
const ctx = createFrontdesk({ store }).context
const item = (slug: string, title: string) => ({ kind: 'content', slug, title, category_code: 'news', status: 'published' })
for (let n = 0; n < 10_000; n++) {
  const records = Array.from({ length: 10 }, (_, k) => item(`${run}-${n}-${k}`, `${run}-${n}-${k}`))
  if (n > 0) records.push(...Array.from({ length: 10 }, (_, k) => item(`${run}-${n - 1}-${k}`, `${run}-${n - 1}-${k} edited`)))
  await importRecords(ctx, { tenantCode: 'acme', records: records.map((record, i) => ({ record, location: `r${i}` })) })
  process.stdout.write(`ack ${n}\n`)
}
