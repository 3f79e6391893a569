import { suite } from 'uvu'
import type { Test } from 'uvu'
import type { Store } from '../port/store.ts'

/**
 * Opens a fresh, empty store for one test; `cleanup` (if any) runs after `close()`. `reopen`
 * (optional) opens the same database once more, as another process would: the cases of
 * several writers use it, and are skipped for a store without it.
 */
export type OpenStore = () => Promise<{ store: Store; cleanup?: () => Promise<void>; reopen?: () => Promise<Store> }>

/** What every conformance test receives: the fresh store of the running test. */
export interface StoreContext {
  readonly store: Store
  /** The same database opened once more (closed after the test), or `null` when the adapter gave no `reopen`. */
  another(): Promise<Store | null>
}

/**
 * A uvu suite whose every test gets a fresh store from `open` (closed and cleaned up after
 * the test, pass or fail). Call `.run()` on it after adding tests.
 */
export function storeSuite(title: string, open: OpenStore): Test<StoreContext> {
  let current: { store: Store; cleanup?: () => Promise<void>; reopen?: () => Promise<Store> } | null = null
  const others: Store[] = []
  const context: StoreContext = {
    get store(): Store {
      if (current === null) throw new Error('No store is open outside a test')
      return current.store
    },
    async another(): Promise<Store | null> {
      if (current === null) throw new Error('No store is open outside a test')
      if (current.reopen === undefined) return null
      const other = await current.reopen()
      others.push(other)
      return other
    },
  }
  const s = suite<StoreContext>(title, context)
  s.before.each(async () => {
    current = await open()
  })
  s.after.each(async () => {
    const opened = current
    current = null
    for (const other of others.splice(0)) await other.close()
    if (opened === null) return
    await opened.store.close()
    await opened.cleanup?.()
  })
  return s
}
