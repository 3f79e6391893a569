import { suite } from 'uvu'
import type { Test } from 'uvu'
import type { Store } from '../port/store.ts'

/** Opens a fresh, empty store for one test; `cleanup` (if any) runs after `close()`. */
export type OpenStore = () => Promise<{ store: Store; cleanup?: () => Promise<void> }>

/** What every conformance test receives: the fresh store of the running test. */
export interface StoreContext {
  readonly store: Store
}

/**
 * A uvu suite whose every test gets a fresh store from `open` (closed and cleaned up after
 * the test, pass or fail). Call `.run()` on it after adding tests.
 */
export function storeSuite(title: string, open: OpenStore): Test<StoreContext> {
  let current: { store: Store; cleanup?: () => Promise<void> } | null = null
  const context: StoreContext = {
    get store(): Store {
      if (current === null) throw new Error('No store is open outside a test')
      return current.store
    },
  }
  const s = suite<StoreContext>(title, context)
  s.before.each(async () => {
    current = await open()
  })
  s.after.each(async () => {
    const opened = current
    current = null
    if (opened === null) return
    await opened.store.close()
    await opened.cleanup?.()
  })
  return s
}
