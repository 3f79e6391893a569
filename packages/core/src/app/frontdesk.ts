import type { RequiredPermission } from '../auth/permissions.ts'
import type { Credentials, Principal } from '../auth/principal.ts'
import { authenticate } from '../auth/authenticate.ts'
import { ProcessRateLimits } from '../auth/process-rate-limits.ts'
import { DEFAULT_RATE_LIMIT, RateLimiter } from '../auth/rate-limiter.ts'
import type { ResponseCacheOptions } from '../cache/response-cache.ts'
import { ResponseCache } from '../cache/response-cache.ts'
import { getCategory } from '../content/get-category.ts'
import { getContent } from '../content/get-content.ts'
import { listCategories } from '../content/list-categories.ts'
import { listContents } from '../content/list-contents.ts'
import { createInquiry } from '../inquiry/create-inquiry.ts'
import { listInquiryCategories } from '../inquiry/list-inquiry-categories.ts'
import type { RateLimitStore } from '../port/rate-limit-store.ts'
import type { SearchPort } from '../port/search.ts'
import type { Store } from '../port/store.ts'
import { searchContents } from '../search/search-contents.ts'
import type { Clock } from './clock.ts'
import { systemClock } from './clock.ts'
import type { Context } from './context.ts'
import type { HealthOptions } from './health.ts'
import { checkHealth } from './health.ts'
import type { FrontdeskHooks } from './hooks.ts'
import { InstanceSecrets } from './instance-secrets.ts'
import { memoByDefault } from './memo-switch.ts'

/** Failed authentications allowed per client address and second, by default. */
export const DEFAULT_FAILED_AUTH_RATE = 10

/** Options of `createFrontdesk`. */
export interface FrontdeskOptions {
  /** The storage adapter, e.g. `openSqliteStore()` of `@frontdesk/adapter-sqlite`. */
  store: Store
  /** Where time comes from. Default: the system clock. */
  clock?: Clock
  /** The content-area response cache. Default: 60 s, 10 000 entries. */
  cache?: ResponseCacheOptions
  /** Callbacks, e.g. `onInquiryCreated`. */
  hooks?: FrontdeskHooks
  /** The full-text engine of POST /v1/cms/search, e.g. `createSearchEngine({ store })` of `@frontdesk/search`. Without it, search fails. */
  search?: SearchPort
  /**
   * Failed authentications (unknown or malformed key) allowed per client address and second,
   * with bursts of twice that; further attempts get 429 until the bucket refills. Default 10;
   * 0 turns the limit off.
   */
  failedAuthRate?: number
  /**
   * Requests per second of a key without a rate limit of its own (burst: twice that).
   * Default 100 (README "Security"); 0 makes such keys unlimited.
   */
  defaultRateLimit?: number
  /**
   * Where the token buckets of the rate limits live. Default: the store's own
   * (`Store.rateLimits`), shared by every process on the same database, so that a key's limit
   * holds for all of them together; else this process's memory (`ProcessRateLimits`).
   */
  rateLimits?: RateLimitStore
  /** Called when the shared rate-limit store fails (each process then limits alone for a second). Default: ignore. */
  onRateLimitStoreError?: (error: unknown) => void
  /**
   * Keep what is worth keeping between requests: the response cache of the content area,
   * the items searches found (records, prepared texts, highlights and result JSON), parsed
   * keys and last-use stamps, indexes of the store's category objects, the instance secrets.
   * `false` computes every reply afresh from the store: the same answers, slower (tests
   * compare both). Default true, unless the environment variable `FRONTDESK_NO_MEMO` is `1`.
   */
  memo?: boolean
}

/**
 * The frontdesk application: the public `/v1` operations over a store, ready to be mounted by
 * an edge (`@frontdesk/http`) or called directly by an embedding service. Operator use cases
 * (tenants, keys, import…) are plain functions taking `frontdesk.context`.
 */
export function createFrontdesk(options: FrontdeskOptions) {
  const clock = options.clock ?? systemClock
  const memo = options.memo ?? memoByDefault()
  const context: Context = {
    store: options.store,
    clock,
    cache: new ResponseCache(clock, options.cache),
    hooks: options.hooks ?? {},
    search: options.search ?? null,
    rateLimiter: new RateLimiter(clock, {
      store: options.rateLimits ?? options.store.rateLimits ?? new ProcessRateLimits(),
      ...(options.onRateLimitStoreError === undefined ? {} : { onStoreError: options.onRateLimitStoreError }),
    }),
    failedAuthRate: options.failedAuthRate ?? DEFAULT_FAILED_AUTH_RATE,
    defaultRateLimit: options.defaultRateLimit ?? DEFAULT_RATE_LIMIT,
    secrets: new InstanceSecrets(options.store, memo),
    memo,
  }
  return {
    context,
    /** Checks credentials, then the permission; see `authenticate`. */
    authenticate: (credentials: Credentials, required: RequiredPermission) => authenticate(context, credentials, required),
    listContents: (p: Principal, query: URLSearchParams, previewToken: string | null = null) => listContents(context, p, query, previewToken),
    getContent: (p: Principal, id: string, previewToken: string | null = null) => getContent(context, p, { id }, previewToken),
    getContentBySlug: (p: Principal, slug: string, previewToken: string | null = null) => getContent(context, p, { slug }, previewToken),
    listCategories: (p: Principal) => listCategories(context, p),
    getCategory: (p: Principal, id: string) => getCategory(context, p, id),
    search: (p: Principal, body: unknown) => searchContents(context, p, body),
    createInquiry: (p: Principal, body: unknown, idempotencyKey: string | null = null) => createInquiry(context, p, body, idempotencyKey),
    listInquiryCategories: (p: Principal) => listInquiryCategories(context, p),
    /** Whether the store and the search engine answer (within 2 s by default); see `checkHealth`. Needs no key. */
    health: (options?: HealthOptions) => checkHealth(context.store, context.search, options),
    /**
     * Gives back the rate-limit tokens this process leased and not used, so that other
     * processes get them at once. Call it when stopping, before closing the store (which stays
     * the caller's); requests after it are limited from this process's memory.
     */
    close: () => context.rateLimiter.close(),
  }
}

/** The application `createFrontdesk` returns. */
export type Frontdesk = ReturnType<typeof createFrontdesk>
