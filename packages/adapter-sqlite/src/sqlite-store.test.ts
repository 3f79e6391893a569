import { testStore } from '@frontdesk/core/testing'
import { openSqliteStore } from './sqlite-store.ts'
import { openTempStore } from '../test/util/temp-store.ts'

// The storage-port conformance suite, against a real database file per test; `reopen` opens
// the same file once more, as another process would.
testStore('sqlite', async () => {
  const { store, path, cleanup } = openTempStore()
  return { store, cleanup, reopen: async () => openSqliteStore({ path }) }
})
