export { testStore } from './test-store.ts'
export type { OpenStore, StoreContext } from './store-suite.ts'
export { storeSuite } from './store-suite.ts'
export * from './fixtures.ts'
