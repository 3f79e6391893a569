// `last_used_at` (CONTRACT §3): recorded when a key is used, and written at most once a minute
// per key — even under a burst of parallel requests — measured with an injected clock.
import * as assert from 'uvu/assert'
import type { Clock } from '@frontdesk/core'
import { memoCase } from '@frontdesk/core/testing'
import type { TestServer } from './util/test-server.ts'
import { behaviourSuite, startTestServer, storeOf } from './util/test-server.ts'

const T0 = Date.parse('2025-06-01T00:00:00.000Z')

interface World {
  server: TestServer
  now: number
  /** Calls of `store.updateApiKey` that set `last_used_at`, per key id. */
  writes: Map<string, number>
}

const test = await behaviourSuite<World>('last_used_at', import.meta.url)

test.before(async (world) => {
  world.now = T0
  const clock: Clock = { now: () => world.now }
  world.server = await startTestServer({ store: storeOf(import.meta.url), clock, failedAuthRate: 0 })
  await world.server.tenant('acme')
  world.writes = new Map()
  const store = world.server.store
  const update = store.updateApiKey.bind(store)
  // Counts the writes the store really receives; the store itself stays the real one.
  store.updateApiKey = (id, patch) => {
    if (patch.last_used_at !== undefined) world.writes.set(id, (world.writes.get(id) ?? 0) + 1)
    return update(id, patch)
  }
})

test.after(async (world) => {
  // Hint: whatever `before` got to; a throw here would end the whole test run.
  await world.server?.close()
})

async function keyRecord(world: World, key: string) {
  const keys = await world.server.store.listApiKeys((await world.server.store.getTenantByCode('acme'))?.id ?? '')
  const record = keys.find((candidate) => key.startsWith(candidate.prefix))
  assert.ok(record, 'key not found')
  return record
}

const use = (world: World, key: string) => world.server.request('GET', '/v1/cms/categories', { headers: { 'x-api-key': key } })

test('a key’s first use records last_used_at; uses within the next minute write nothing; after it, one write', async (world) => {
  const key = await world.server.key('acme', ['cms:read'], { rateLimit: 0 })
  const before = await keyRecord(world, key)
  assert.is(before.last_used_at, null)
  assert.is((await use(world, key)).status, 200)
  assert.is((await keyRecord(world, key)).last_used_at, new Date(T0).toISOString())
  for (const offset of [1_000, 30_000, 59_999]) {
    world.now = T0 + offset
    assert.is((await use(world, key)).status, 200)
  }
  assert.is((await keyRecord(world, key)).last_used_at, new Date(T0).toISOString())
  assert.is(world.writes.get(before.id), 1)
  world.now = T0 + 60_000
  await use(world, key)
  assert.is((await keyRecord(world, key)).last_used_at, new Date(T0 + 60_000).toISOString())
  assert.is(world.writes.get(before.id), 2)
})

memoCase(test, 'a burst of parallel requests with a fresh key writes last_used_at once', async (world) => {
  world.now = T0 + 3_600_000
  const key = await world.server.key('acme', ['cms:read'], { rateLimit: 0 })
  const { id } = await keyRecord(world, key)
  const statuses = await Promise.all(Array.from({ length: 12 }, () => use(world, key).then((response) => response.status)))
  assert.ok(statuses.every((status) => status === 200), statuses.join())
  assert.is(world.writes.get(id), 1, `${world.writes.get(id)} writes for one minute of use`)
  // A minute later, another burst: one more write.
  world.now += 60_000
  await Promise.all(Array.from({ length: 12 }, () => use(world, key)))
  assert.is(world.writes.get(id), 2)
})

test('refused requests (wrong permission) do not touch last_used_at', async (world) => {
  world.now = T0 + 7_200_000
  const key = await world.server.key('acme', ['inquiry:create'], { rateLimit: 0 })
  const { id } = await keyRecord(world, key)
  assert.is((await use(world, key)).status, 403)
  assert.is(world.writes.get(id), undefined)
  assert.is((await keyRecord(world, key)).last_used_at, null)
})

test.run()
