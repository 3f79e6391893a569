import { batchReadCases } from './cases/batch-reads.ts'
import { changeFeedCases } from './cases/change-feed.ts'
import { eventModelCases } from './cases/event-model.ts'
import { eventOutboxCases } from './cases/event-outbox.ts'
import { eventRuleCases } from './cases/event-rules.ts'
import { idempotencyCases } from './cases/idempotency.ts'
import { instanceSecretCases } from './cases/instance-secrets.ts'
import { isolationCases } from './cases/isolation.ts'
import { listFilterCases } from './cases/list-filters.ts'
import { listModelCases } from './cases/list-model.ts'
import { listSortingCases } from './cases/list-sorting.ts'
import { recordCases } from './cases/records.ts'
import { searchSourceCases } from './cases/search-source.ts'
import { severalProcessCases } from './cases/several-processes.ts'
import { synonymCases } from './cases/synonyms.ts'
import { transactionCases } from './cases/transactions.ts'
import { twoStoreCases } from './cases/two-stores.ts'
import type { Store } from '../port/store.ts'
import { registerUnless } from './skip-case.ts'
import type { OpenStore, StoreSuiteOptions } from './store-suite.ts'

/**
 * The storage-port conformance suite: registers (and runs) uvu suites that check every rule of
 * `Store` against stores made by `open`, one fresh, empty store per test. An adapter's test
 * file calls it once, then adds its own adapter-only cases. With `options.otherProcess`, the
 * cases of several processes on one database run too (else they are skipped, saying why); with
 * `options.unavailable` (why no store can be opened here), every case is skipped, saying so.
 *
 * ```ts
 * testStore('sqlite', async () => {
 *   const dir = mkdtempSync(join(tmpdir(), 'fd-'))
 *   return { store: openSqliteStore({ path: join(dir, 'db') }), cleanup: async () => rmSync(dir, { recursive: true }) }
 * }, { otherProcess: (store) => openSqliteStore({ path: store.path }) })
 * ```
 */
export function testStore<S extends Store>(name: string, open: OpenStore<S>, options: StoreSuiteOptions<S> = {}): void {
  registerUnless(options.unavailable, () => {
    recordCases(name, open)
    batchReadCases(name, open)
    isolationCases(name, open)
    listFilterCases(name, open)
    listSortingCases(name, open)
    listModelCases(name, open)
    transactionCases(name, open)
    idempotencyCases(name, open)
    changeFeedCases(name, open)
    searchSourceCases(name, open)
    instanceSecretCases(name, open)
    synonymCases(name, open, options)
    severalProcessCases(name, open, options)
    twoStoreCases(name, open, options)
    eventOutboxCases(name, open, options)
    eventRuleCases(name, open)
    eventModelCases(name, open)
  })
}
