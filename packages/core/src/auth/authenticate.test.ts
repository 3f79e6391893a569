import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { createApiKey } from '../admin/create-api-key.ts'
import { createTenant } from '../admin/create-tenant.ts'
import { createFrontdesk } from '../app/frontdesk.ts'
import { StorageUnavailableError } from '../errors/frontdesk-error.ts'
import type { Store } from '../port/store.ts'
import { createMemoryStore } from '../testing/memory/memory-store.ts'
import { authenticate } from './authenticate.ts'

/** A memory store whose `updateApiKey` throws `failure()` while it returns an error. */
function storeFailingStamps(failure: () => Error | null): Store {
  const store = createMemoryStore()
  return new Proxy(store, {
    get(target, name, receiver) {
      if (name === 'updateApiKey') {
        return (...args: Parameters<Store['updateApiKey']>) => {
          const error = failure()
          return error === null ? target.updateApiKey(...args) : Promise.reject(error)
        }
      }
      const value = Reflect.get(target, name, receiver)
      return typeof value === 'function' ? value.bind(target) : value
    },
  })
}

test('a key is still accepted when storage cannot record last_used_at; the next minute records it', async () => {
  let failing: Error | null = new StorageUnavailableError('busy')
  const store = storeFailingStamps(() => failing)
  const clock = { t: Date.parse('2026-01-01T00:00:00Z'), now: () => clock.t }
  const { context } = createFrontdesk({ store, clock })
  await createTenant(context, { code: 'acme' })
  const { record, key } = await createApiKey(context, { tenantCode: 'acme', name: 'site', permissions: ['cms:read'] })
  const principal = await authenticate(context, { apiKey: key, authorization: false }, 'cms:read')
  assert.is(principal.key.id, record.id)
  assert.is((await store.getApiKey(record.id))?.last_used_at, null)
  failing = null
  clock.t += 1_000
  await authenticate(context, { apiKey: key, authorization: false }, 'cms:read')
  assert.is((await store.getApiKey(record.id))?.last_used_at, '2026-01-01T00:00:01.000Z')
  await store.close()
})

test('any other failure to record last_used_at fails the request', async () => {
  const store = storeFailingStamps(() => new Error('not a storage outage'))
  const { context } = createFrontdesk({ store, clock: { now: () => Date.parse('2026-01-01T00:00:00Z') } })
  await createTenant(context, { code: 'acme' })
  const { key } = await createApiKey(context, { tenantCode: 'acme', name: 'site', permissions: ['cms:read'] })
  const error = await authenticate(context, { apiKey: key, authorization: false }, 'cms:read').catch((e: unknown) => e)
  assert.match(String(error), /not a storage outage/)
  await store.close()
})

test.run()
