import { test } from 'uvu'
import * as assert from 'uvu/assert'
import type { SearchPort } from '../port/search.ts'
import type { Store } from '../port/store.ts'
import { createMemoryStore } from '../testing/memory/memory-store.ts'
import { createFrontdesk } from './frontdesk.ts'

const noHits: SearchPort['search'] = async () => ({ total: 0, hits: [] })

test('ok when the store answers and the engine cannot tell', async () => {
  const store = createMemoryStore()
  const frontdesk = createFrontdesk({ store, search: { search: noHits } })
  assert.equal(await frontdesk.health(), { status: 'ok', store: true, search: null })
  await store.close()
})

test('unavailable once the store is closed', async () => {
  const store = createMemoryStore()
  const frontdesk = createFrontdesk({ store })
  await store.close()
  assert.equal(await frontdesk.health(), { status: 'unavailable', store: false, search: null })
})

test('a store that never answers is unavailable after the timeout, not a hang', async () => {
  const store: Store = Object.assign(Object.create(createMemoryStore()) as Store, { ping: () => new Promise<void>(() => undefined) })
  const frontdesk = createFrontdesk({ store })
  const started = Date.now()
  assert.equal(await frontdesk.health({ timeoutMs: 50 }), { status: 'unavailable', store: false, search: null })
  assert.ok(Date.now() - started < 1_000)
})

test('the search engine’s ping counts: ready, failing, or throwing at once', async () => {
  const store = createMemoryStore()
  const ready = createFrontdesk({ store, search: { search: noHits, ping: async () => undefined } })
  assert.equal(await ready.health(), { status: 'ok', store: true, search: true })
  const closed = createFrontdesk({ store, search: { search: noHits, ping: () => Promise.reject(new Error('closed')) } })
  assert.equal(await closed.health(), { status: 'unavailable', store: true, search: false })
  const throwing = createFrontdesk({
    store,
    search: {
      search: noHits,
      ping: () => {
        throw new Error('closed')
      },
    },
  })
  assert.equal(await throwing.health(), { status: 'unavailable', store: true, search: false })
  const stuck = createFrontdesk({ store, search: { search: noHits, ping: () => new Promise<void>(() => undefined) } })
  assert.equal(await stuck.health({ timeoutMs: 20 }), { status: 'unavailable', store: true, search: false })
  await store.close()
})

test.run()
