import type { Store } from '@frontdesk/core'
import { testStore } from '@frontdesk/core/testing'
import { openPostgresStore } from './postgres-store.ts'
import { openTestStore, postgresUnavailable } from './testing/test-database.ts'

// The storage-port conformance suite, against an empty PostgreSQL database per test; another
// store opened on the same database plays another process (the cases of several processes).
const urls = new WeakMap<Store, string>()
testStore(
  'postgres',
  async () => {
    const { store, url, cleanup } = await openTestStore()
    urls.set(store, url)
    return { store, cleanup, reopen: () => openPostgresStore({ url }) }
  },
  { otherProcess: (store) => openPostgresStore({ url: urls.get(store) ?? '' }), unavailable: await postgresUnavailable() },
)
