import type { Store } from '../../port/store.ts'
import { differentialCases } from './cases/differential.ts'
import { freshnessCases } from './cases/freshness.ts'
import { matchingCases } from './cases/matching.ts'
import { narrowingCases } from './cases/narrowing.ts'
import { orderingCases } from './cases/ordering.ts'
import { snapshotCases } from './cases/snapshots.ts'
import { synonymCases } from './cases/synonyms.ts'
import { tenantCases } from './cases/tenants.ts'
import { understandingCases } from './cases/understanding.ts'
import { visibilityCases } from './cases/visibility.ts'
import type { SearchPairing } from './search-suite.ts'
import { registerUnless } from '../skip-case.ts'

/**
 * The search-port conformance suite: registers (and runs) uvu suites that check every rule of
 * `SearchPort` (README "Search") against an engine over a store, one fresh store and engine per
 * test: matching, what visitors type (word forms, compounds, Japanese variants, no dead ends), synonyms, visibility and scheduling, tags and filters, sorts, pages and totals,
 * tenants, freshness (from another process: optional), restart from a snapshot (optional),
 * and a differential check against the brute-force reference (`createScanSearch`) over random
 * catalogues and sequences of operations. Every store and engine pairing runs it once.
 *
 * ```ts
 * testSearch('sqlite', {
 *   openStore: async () => openTempStore(),
 *   openSearch: (store) => createSqliteSearch(store, { snapshotDir: null }),
 *   otherProcess: (store) => openSqliteStore({ path: store.path }),
 *   openSearchWithSnapshots: (store, restored) =>
 *     createSqliteSearch(store, { onBuild: (info) => info.source === 'snapshot' && restored(info.tenantId) }),
 * })
 * ```
 */
export function testSearch<S extends Store>(name: string, pairing: SearchPairing<S>): void {
  registerUnless(pairing.unavailable, () => {
    matchingCases(name, pairing)
    understandingCases(name, pairing)
    synonymCases(name, pairing)
    visibilityCases(name, pairing)
    narrowingCases(name, pairing)
    orderingCases(name, pairing)
    tenantCases(name, pairing)
    freshnessCases(name, pairing)
    snapshotCases(name, pairing)
    differentialCases(name, pairing)
  })
}
