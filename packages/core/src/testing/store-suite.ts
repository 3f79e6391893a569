import type { Test } from 'uvu'
import type { Store } from '../port/store.ts'
import { caseSuite } from './skip-case.ts'

/**
 * Opens a fresh, empty store for one test; `cleanup` (if any) runs after `close()`. `reopen`
 * (optional) opens the same database once more, as another process would (as
 * `StoreSuiteOptions.otherProcess` does).
 */
export type OpenStore<S extends Store = Store> = () => Promise<{ store: S; cleanup?: () => Promise<void>; reopen?: () => Promise<Store> }>

/** What a store can do beyond the port, for the cases that need it (each skipped, with its reason, without). */
export interface StoreSuiteOptions<S extends Store = Store> {
  /** Opens another store on the same database as `store`, as another process would (the suite closes it). */
  otherProcess?: (store: S) => Store | Promise<Store>
  /**
   * Why no store can be opened here (its server did not start), or null (the default): when
   * given, every case is registered as skipped with this reason.
   */
  unavailable?: string | null
}

/** What every conformance test receives: the fresh store of the running test. */
export interface StoreContext {
  readonly store: Store
  /**
   * Another store on the same database, as another process would open it (closed after the
   * test); `null` when neither `StoreSuiteOptions.otherProcess` nor the opener's `reopen` is given.
   */
  otherProcess(): Promise<Store | null>
}

/**
 * A uvu suite whose every test gets a fresh store from `open` (closed and cleaned up after
 * the test, pass or fail). Call `.run()` on it after adding tests.
 */
export function storeSuite<S extends Store>(title: string, open: OpenStore<S>, options: StoreSuiteOptions<S> = {}): Test<StoreContext> {
  let current: { store: S; cleanup?: () => Promise<void>; reopen?: () => Promise<Store>; others: Store[] } | null = null
  const opened = () => {
    if (current === null) throw new Error('No store is open outside a test')
    return current
  }
  const context: StoreContext = {
    get store(): Store {
      return opened().store
    },
    async otherProcess(): Promise<Store | null> {
      const world = opened()
      const other = options.otherProcess !== undefined ? await options.otherProcess(world.store) : world.reopen !== undefined ? await world.reopen() : null
      if (other !== null) world.others.push(other)
      return other
    },
  }
  const s = caseSuite<StoreContext>(title, context)
  s.before.each(async () => {
    current = { ...(await open()), others: [] }
  })
  s.after.each(async () => {
    const world = current
    current = null
    if (world === null) return
    for (const other of world.others) await other.close()
    await world.store.close()
    await world.cleanup?.()
  })
  return s
}
