import type { RateLimiter } from '../auth/rate-limiter.ts'
import type { ResponseCache } from '../cache/response-cache.ts'
import type { SearchPort } from '../port/search.ts'
import type { Store } from '../port/store.ts'
import type { Clock } from './clock.ts'
import type { InstanceSecrets } from './instance-secrets.ts'
import type { FrontdeskHooks } from './hooks.ts'

/** What every use case receives: the port and the process-wide helpers. Built by `createFrontdesk`. */
export interface Context {
  store: Store
  clock: Clock
  /** Public replies of the content area (README "Content list"). */
  cache: ResponseCache
  hooks: FrontdeskHooks
  /** Token buckets per key and per address of failed authentications (README "Security"). */
  rateLimiter: RateLimiter
  /** Failed authentications allowed per client address and second (burst: twice that); 0 = unlimited. */
  failedAuthRate: number
  /** Requests per second of a key without its own rate limit (burst: twice that); 0 = unlimited. */
  defaultRateLimit: number
  /** The full-text engine of POST /v1/cms/search; `null` when none was configured. */
  search: SearchPort | null
  /** The installation's secrets kept in the store (the cursor HMAC key). */
  secrets: InstanceSecrets
  /**
   * Whether core keeps what it may between requests (`FrontdeskOptions.memo`): the response
   * cache, found search items with their highlights and results, parsed keys, key stamps,
   * indexes of category objects, secrets. `false`: every request computes its answer afresh.
   */
  memo: boolean
}
