import { testStore } from '../test-store.ts'
import { createMemoryStore } from './memory-store.ts'

// The storage-port conformance suite, against a fresh memory database per test; a second
// store on the same database plays another process.
testStore('memory', async () => ({ store: createMemoryStore() }), {
  otherProcess: (store) => createMemoryStore({ database: store.database }),
})
