import type { RateLimitStore } from '@frontdesk/core'
import { testRateLimitStore } from '@frontdesk/core/testing'
import { openPostgresStore } from './postgres-store.ts'
import { openTestStore, postgresUnavailable } from './testing/test-database.ts'

testRateLimitStore('postgres', async () => {
  const { store, url, cleanup } = await openTestStore()
  return {
    store: store.rateLimits,
    // Hint: another store on the database, as another server process has, closed with its handle.
    another: async (): Promise<RateLimitStore> => {
      const other = await openPostgresStore({ url })
      return { scope: other.rateLimits.scope, take: (...a) => other.rateLimits.take(...a), giveBack: (...a) => other.rateLimits.giveBack(...a), close: () => other.close() }
    },
    cleanup,
  }
}, { unavailable: await postgresUnavailable() })
