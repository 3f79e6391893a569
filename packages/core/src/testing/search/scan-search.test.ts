import { createMemoryStore } from '../memory/memory-store.ts'
import { createScanSearch } from './scan-search.ts'
import { testSearch } from './test-search.ts'

// The search conformance suite run on the reference itself, over the memory store: the
// reference must pass what it is the reference for. A second store on the same memory
// database plays another process; the scan keeps no snapshots.
testSearch('memory + scan', {
  openStore: async () => ({ store: createMemoryStore() }),
  openSearch: (store) => createScanSearch(store),
  otherProcess: (store) => createMemoryStore({ database: store.database }),
})
