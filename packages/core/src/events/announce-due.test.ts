import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { createFrontdesk } from '../app/frontdesk.ts'
import { importRecords } from '../admin/import-records.ts'
import { createMemoryStore } from '../testing/memory/memory-store.ts'
import { aTenant } from '../testing/fixtures.ts'
import { DueContentAnnouncer } from './announce-due.ts'

const test = suite('DueContentAnnouncer')

test('announces a scheduled publication at the first tick after its moment, once, across several announcers; a failing store is reported and retried', async () => {
  const store = createMemoryStore()
  const clock = { ms: Date.parse('2026-01-01T00:00:00.000Z') }
  const ctx = createFrontdesk({ store, clock: { now: () => clock.ms } }).context
  await store.createTenant(aTenant('ten_1', 't1'))
  await importRecords(ctx, {
    tenantCode: 't1',
    records: [
      { record: { kind: 'category', code: 'news', name: 'News' }, location: 'a' },
      { record: { kind: 'content', slug: 'later', title: 'Later', category_code: 'news', status: 'published', published_at: '2026-01-01T00:01:00.000Z' }, location: 'b' },
    ],
  })
  const errors: unknown[] = []
  const first = new DueContentAnnouncer(ctx, { onError: (error) => errors.push(error) })
  const second = new DueContentAnnouncer(ctx)
  await first.tick()
  await second.tick()
  assert.equal(await store.readEvents(0, 10), [])
  clock.ms += 60_000
  await Promise.all([first.tick(), second.tick(), first.tick()])
  await second.tick()
  const events = await store.readEvents(0, 10)
  assert.equal(events.map((e) => `${e.type}:${String(e.data['slug'])}`), ['content.published:later'])
  assert.is(events[0]?.created_at, '2026-01-01T00:01:00.000Z')
  await store.close()
  await first.tick()
  assert.is(errors.length, 1, 'a closed store is reported, not thrown')
  first.start()
  await first.stop()
  await second.stop()
})

test.run()
