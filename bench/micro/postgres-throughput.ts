/*
 * Durable inquiries per second and import items per second on a throwaway PostgreSQL (fsync
 * on), bounded to a few seconds each: `node --conditions=source --import tsx
 * bench/micro/postgres-throughput.ts [items] [seconds] [callers]`.
 */
import { createFrontdesk, createTenant, importRecords } from '@frontdesk/core'
import { anInquiry } from '@frontdesk/core/testing'
import { openPostgresStore } from '@frontdesk/adapter-postgres'
import { admin } from '@frontdesk/adapter-postgres/testing'

const items = Number(process.argv[2] ?? 20_000)
const seconds = Number(process.argv[3] ?? 5)
const callers = Number(process.argv[4] ?? 64)

const script = new URL('../../scripts/test-postgres.mjs', import.meta.url).href
const { startTestPostgres } = (await import(script)) as { startTestPostgres: (o: { fsync: boolean }) => Promise<{ url: string; stop(): Promise<void> }> }
const pg = await startTestPostgres({ fsync: true })
try {
  await admin(pg.url, 'CREATE DATABASE bench')
  const url = new URL(pg.url)
  url.pathname = '/bench'
  const store = await openPostgresStore({ url: url.toString() })
  const { context } = createFrontdesk({ store })
  const tenant = await createTenant(context, { code: 'acme' })

  // Durable inquiries: `callers` concurrent callers, each inserting one after another.
  let done = 0
  let next = 0
  const until = Date.now() + seconds * 1000
  const started = performance.now()
  await Promise.all(Array.from({ length: callers }, async () => {
    while (Date.now() < until) {
      await store.insertInquiry(anInquiry(tenant.id, `inq_${String(next++).padStart(9, '0')}`))
      done++
    }
  }))
  const inquiryRate = done / ((performance.now() - started) / 1000)

  // Import: one streamed transaction of `items` items in 10 categories with tags and fields.
  async function* records() {
    for (let c = 0; c < 10; c++) yield { record: { kind: 'category', code: `cat${c}`, name: `Category ${c}`, fields: [{ name: 'price', type: 'number' }] }, location: `c${c}` }
    for (let i = 0; i < items; i++) {
      yield {
        record: {
          kind: 'content', slug: `item-${i}`, title: `Item ${i} of the catalogue`, category_code: `cat${i % 10}`, status: 'published',
          published_at: '2025-01-01T00:00:00Z', tags: [`t${i % 50}`, `u${i % 7}`], summary: 'A summary of the item, a sentence or two long.',
          body: `<p>${'Body text of the item with some words in it. '.repeat(20)}</p>`, content: { price: i % 1000 },
        },
        location: `i${i}`,
      }
    }
  }
  const importStart = performance.now()
  const summary = await importRecords(context, { tenantCode: 'acme', records: records() })
  const importSeconds = (performance.now() - importStart) / 1000
  console.log(JSON.stringify({
    durableInquiriesPerSecond: Math.round(inquiryRate), inquiries: done, callers,
    importedItems: summary.contents.created, importItemsPerSecond: Math.round(summary.contents.created / importSeconds), importSeconds: Number(importSeconds.toFixed(2)),
  }))
  await store.close()
} finally {
  await pg.stop()
}
