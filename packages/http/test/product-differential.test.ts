// The whole product — a real store (SQLite, or PostgreSQL when imported with `?store=postgres`),
// the search engine of @frontdesk/search with its snapshots, and core's response cache and
// memos — against the obviously-right reference of @frontdesk/core/testing (the memory store,
// the scan search, no memo, no cache), over random scenarios of imports, edits, deletes,
// category and tag changes, keys, preview tokens, time, restarts and reads of two tenants: see
// `productDifferentialCheck`. `FRONTDESK_FUZZ_RUNS` / `FRONTDESK_FUZZ_SEED` (or `npm run fuzz`) run more.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openPostgresStore } from '@frontdesk/adapter-postgres'
import { openTestStore } from '@frontdesk/adapter-postgres/testing'
import { openSqliteStore } from '@frontdesk/adapter-sqlite'
import type { Store } from '@frontdesk/core'
import { createFrontdesk } from '@frontdesk/core'
import type { ProductOptions, ProductUnderTest } from '@frontdesk/core/testing'
import { fuzzOptions, productDifferentialCheck } from '@frontdesk/core/testing'
import { createSearchEngine, directorySnapshots } from '@frontdesk/search'
import type { SearchBuildInfo, SearchEngine } from '@frontdesk/search'
import * as assert from 'uvu/assert'
import { behaviourSuite, storeOf } from './util/test-server.ts'

const kind = storeOf(import.meta.url)
const { runs, seed, path: replay } = fuzzOptions(kind === 'postgres' ? 25 : 40)
const test = await behaviourSuite('the whole product against the reference', import.meta.url)
/** How the engines' tenant indexes were made over every run: built from the store (first, or rebuilt past the threshold) or restored from a snapshot. */
const builds = { store: 0, snapshot: 0 }
const onBuild = (info: SearchBuildInfo) => void builds[info.source]++

/**
 * The product as `frontdesk serve` assembles it, over a new database: a tenant with more than
 * one change since its index was caught up is rebuilt (the bulk build: the range indexer, field
 * columns made afresh), a single change is applied item by item, so that a scenario runs both; a restart saves the indexes as snapshots and the
 * next engine restores them and catches up from the change feed.
 */
async function open(options: ProductOptions): Promise<ProductUnderTest> {
  const dir = mkdtempSync(join(tmpdir(), 'frontdesk-product-'))
  const snapshots = directorySnapshots(join(dir, 'search'))
  let store: Store
  let reopen: () => Promise<Store>
  let release: () => Promise<void>
  if (kind === 'postgres') {
    const opened = await openTestStore()
    store = opened.store
    reopen = () => openPostgresStore({ url: opened.url })
    release = opened.cleanup
  } else {
    const path = join(dir, 'product.db')
    store = openSqliteStore({ path })
    reopen = async () => openSqliteStore({ path })
    release = async () => undefined
  }
  let search: SearchEngine = createSearchEngine({ store, snapshots, rebuildThreshold: 1, warmUp: false, onBuild })
  const make = () => createFrontdesk({ store, search, ...options })
  return {
    frontdesk: make(),
    // Hint: a first import into an empty SQLite file builds its indexes once, as the CLI's does.
    importTransaction: (_tenantId, first) => (first && kind === 'sqlite' ? { bulk: true } : undefined),
    async restart() {
      await search.close()
      await store.close()
      store = await reopen()
      search = createSearchEngine({ store, snapshots, rebuildThreshold: 1, warmUp: false, onBuild })
      return make()
    },
    async close() {
      await search.close()
      await store.close()
      await release()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

test(`every answer of the product is one the reference allows, over random scenarios (${runs} runs, seed ${seed})`, async () => {
  await productDifferentialCheck({ open }, { runs, seed, ...(replay === undefined ? {} : { path: replay }) })
})

test('the scenarios reach the engine\u2019s bulk builds and its snapshots', () => {
  console.log('    tenant indexes:', JSON.stringify(builds))
  // Hint: a first build of the tenants searched, and rebuilds past the threshold on top.
  assert.ok(builds.store > runs, `built from the store ${builds.store} times in ${runs} runs`)
  assert.ok(builds.snapshot > 0, `restored from a snapshot ${builds.snapshot} times`)
})

test.run()
