import { test } from 'uvu'
import { fuzzOptions } from '../testing/fuzz-options.ts'
import { createMemoryStore } from '../testing/memory/memory-store.ts'
import { productDifferentialCheck } from '../testing/product/product-differential.ts'
import { createScanSearch } from '../testing/search/scan-search.ts'
import { createFrontdesk } from './frontdesk.ts'

// Core's own memos and caches (the response cache, found items with their highlights and
// result JSON, category indexes, parsed keys, stamps, secrets) over the memory store and the
// scan search, against the same without any: SQLite and the search engine run the same check
// in @frontdesk/http's tests.
const { runs, seed, path: replay } = fuzzOptions(25)

test(`the use cases with core's memos and response cache answer as without them, over random scenarios (${runs} runs, seed ${seed})`, async () => {
  await productDifferentialCheck(
    {
      async open(options) {
        const store = createMemoryStore()
        return { frontdesk: createFrontdesk({ store, search: createScanSearch(store), ...options }), close: () => store.close() }
      },
    },
    { runs, seed, ...(replay === undefined ? {} : { path: replay }) },
  )
})

test.run()
