import { testStore } from '@frontdesk/core/testing'
import { openTestStore } from './testing/test-database.ts'

// The storage-port conformance suite, against a fresh PostgreSQL database per test.
testStore('postgres', async () => {
  const { store, cleanup } = await openTestStore()
  return { store, cleanup }
})
