import type { Test } from 'uvu'
import type { SearchPort } from '../../port/search.ts'
import type { Store } from '../../port/store.ts'
import { caseSuite, skipCase } from '../skip-case.ts'
import { createScanSearch } from './scan-search.ts'

/**
 * A store and search engine pairing, as `testSearch` runs it: how to open a fresh store, how
 * to start the engine over it, and what the pairing can do beyond the required port.
 */
export interface SearchPairing<S extends Store = Store> {
  /** Opens a fresh, empty store for one test; `cleanup` (if any) runs after `close()`. */
  openStore(): Promise<{ store: S; cleanup?: () => Promise<void> }>
  /** Starts the engine over `store` (closed by the suite, before the store). */
  openSearch(store: S): SearchPort | Promise<SearchPort>
  /**
   * Optional: opens another store on the same database, as another process would (closed by
   * the suite). Without it, the cases of changes committed by another process are skipped.
   */
  otherProcess?(store: S): Store | Promise<Store>
  /**
   * Optional, for an engine that keeps snapshots of its indexes between runs: starts it as
   * `openSearch` does, and calls `restored(tenantId)` for each tenant whose index it restored
   * from a snapshot rather than built from the store. Without it, the restart cases are skipped.
   */
  openSearchWithSnapshots?(store: S, restored: (tenantId: string) => void): SearchPort | Promise<SearchPort>
  /**
   * Cases this pairing is known to fail, by title, each with its reason (a bug, an issue):
   * they are skipped, saying so, until the entry is removed. A failing case stays written down
   * and runnable instead of turning every test run red.
   */
  knownFailures?: Readonly<Record<string, string>>
  /**
   * Random scenarios the differential check runs. Default: `FRONTDESK_FUZZ_RUNS` from the
   * environment, else 25 (seed: `FRONTDESK_FUZZ_SEED`, else fixed).
   */
  fuzzRuns?: number
  /**
   * Why the store cannot be had here (its server did not start), or null (the default): when
   * given, every case is registered as skipped with this reason.
   */
  unavailable?: string | null
}

/** What every search conformance test receives. */
export interface SearchContext {
  /** The fresh store of the running test. */
  readonly store: Store
  /** The engine under test, over `store`. */
  readonly search: SearchPort
  /** The brute-force reference over the same store (`createScanSearch`). */
  readonly reference: SearchPort
  /** Another store on the same database, as another process would open it; `null` when the pairing has none. */
  otherProcess(): Promise<Store | null>
  /**
   * Closes the engine under test and starts a new one with snapshots (see
   * `SearchPairing.openSearchWithSnapshots`), which `search` is from then on; resolves to the
   * tenants it restored from a snapshot so far (the set grows as it restores more). `null`
   * when the pairing keeps no snapshots.
   */
  restartWithSnapshots(): Promise<Set<string> | null>
}

/**
 * A uvu suite whose every test gets a fresh store, the engine under test and the reference
 * over it (all closed after the test, pass or fail). Call `.run()` on it after adding tests.
 */
export function searchSuite<S extends Store>(title: string, pairing: SearchPairing<S>): Test<SearchContext> {
  let current: { store: S; search: SearchPort; reference: SearchPort; others: Store[]; cleanup?: () => Promise<void> } | null = null
  const world = () => {
    if (current === null) throw new Error('No store is open outside a test')
    return current
  }
  const context: SearchContext = {
    get store(): Store {
      return world().store
    },
    get search(): SearchPort {
      return world().search
    },
    get reference(): SearchPort {
      return world().reference
    },
    async otherProcess(): Promise<Store | null> {
      const opened = world()
      if (pairing.otherProcess === undefined) return null
      const other = await pairing.otherProcess(opened.store)
      opened.others.push(other)
      return other
    },
    async restartWithSnapshots(): Promise<Set<string> | null> {
      const opened = world()
      if (pairing.openSearchWithSnapshots === undefined) return null
      await opened.search.close?.()
      const restored = new Set<string>()
      opened.search = await pairing.openSearchWithSnapshots(opened.store, (tenantId) => void restored.add(tenantId))
      return restored
    },
  }
  const s = caseSuite<SearchContext>(title, context)
  // Hint: a case the pairing lists in `knownFailures` is registered as a skip with its reason.
  const guarded = Object.assign(
    (name: string, handler: Parameters<Test<SearchContext>>[1]) => {
      const reason = pairing.knownFailures?.[name]
      if (reason === undefined) s(name, handler)
      else skipCase(s, title, name, `known failure: ${reason}`)
    },
    { only: s.only, skip: s.skip, before: s.before, after: s.after, run: s.run },
  ) as Test<SearchContext>
  s.before.each(async () => {
    const { store, cleanup } = await pairing.openStore()
    current = { store, search: await pairing.openSearch(store), reference: createScanSearch(store), others: [], ...(cleanup ? { cleanup } : {}) }
  })
  s.after.each(async () => {
    const opened = current
    current = null
    if (opened === null) return
    await opened.search.close?.()
    for (const other of opened.others) await other.close()
    await opened.store.close()
    await opened.cleanup?.()
  })
  return guarded
}
