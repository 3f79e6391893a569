import { testStore } from '@frontdesk/core/testing'
import { openPostgresStore } from './postgres-store.ts'
import { openTestStore } from './testing/test-database.ts'

// The storage-port conformance suite, against an empty PostgreSQL database per test; `reopen`
// opens the same database as a second store, as another process would.
testStore('postgres', async () => {
  const { store, url, cleanup } = await openTestStore()
  return { store, cleanup, reopen: () => openPostgresStore({ url }) }
})
