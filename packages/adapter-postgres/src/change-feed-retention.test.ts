import * as assert from 'uvu/assert'
import { aCategory, aContent, aTenant } from '@frontdesk/core/testing'
import { openTestStore, postgresSuite } from './testing/test-database.ts'
import type { PostgresStore } from './postgres-store.ts'
import { openPostgresStore } from './postgres-store.ts'

interface World {
  store: PostgresStore
  cleanup: () => Promise<void>
}

const test = await postgresSuite<World>('postgres: a transaction of more changes than the feed keeps')

const RETENTION = 10

test.before.each(async (world) => {
  const opened = await openTestStore()
  world.cleanup = opened.cleanup
  await opened.store.close()
  world.store = await openPostgresStore({ url: opened.url, changeFeedRetention: RETENTION })
  await world.store.createTenant(aTenant('ten_feed'))
  await world.store.transaction((tx) => tx.putCategory(aCategory('ten_feed', 'cat_1')))
})

// Hint: `cleanup` is missing when the first `before.each` failed.
test.after.each(async (world) => {
  await world.store?.close()
  await world.cleanup?.()
})

test('keeps exactly the newest changes, in order: older positions are answered with null, the newest read whole', async ({ store }) => {
  const before = await store.feedPosition()
  const ids = Array.from({ length: 4 * RETENTION + 3 }, (_, i) => `cnt_${String(i).padStart(3, '0')}`)
  await store.transaction(async (tx) => {
    for (const id of ids) await tx.putContent(aContent('ten_feed', id, 'cat_1'))
  })
  const head = await store.feedPosition()
  const [pos, epoch] = head.split('.') as [string, string]
  assert.is(await store.readChanges(before, 100), null)
  assert.is(await store.readChanges(`${Number(pos) - RETENTION - 1}.${epoch}`, 100), null)
  const kept = await store.readChanges(`${Number(pos) - RETENTION}.${epoch}`, 100)
  assert.equal(kept?.changes.map((c) => c.id), ids.slice(-RETENTION))
  assert.is(kept?.position, head)
  // Hint: and the next transaction's changes follow on from the head.
  await store.transaction((tx) => tx.putContent(aContent('ten_feed', 'cnt_next', 'cat_1')))
  assert.equal((await store.readChanges(head, 100))?.changes.map((c) => c.id), ['cnt_next'])
})

test.run()
