import type { Frontdesk, SearchPort, SearchQuery, SearchResult } from '@frontdesk/core'
import type { Registry } from 'prom-client'
import { Counter, Gauge, Histogram, collectDefaultMetrics, Registry as PromRegistry } from 'prom-client'
import { ERROR_STATUS } from './error-status.ts'
import type { HttpResponse } from './http-types.ts'
import { RequestTally } from './request-tally.ts'

/** Options of `createMetrics`. */
export interface MetricsOptions {
  /** Where the metrics are registered: an embedding service's own registry, or a new one (default). */
  registry?: Registry
  /** Also register prom-client's process metrics (CPU, memory, GC, event-loop lag: `process_…`, `nodejs_…`). Default true. */
  processMetrics?: boolean
}

/** What a search index reports of each tenant, e.g. `SearchEngine.stats()` of `@frontdesk/search`. */
export interface IndexStats {
  tenantId: string
  /** Items indexed (any status). */
  items: number
  /** How long the index has been behind the newest committed change it knows of, in ms; 0 when caught up. */
  lagMs: number
}

/**
 * frontdesk's Prometheus metrics (prom-client), and the hooks that feed them. `createServer` and
 * `createHandler` take it as `metrics`; `instrumentSearch`, `inquiryCreated` and `watch` cover
 * what the HTTP edge does not see (wired as README "Metrics" shows). Every name starts with `frontdesk_`; durations are in seconds.
 */
export interface FrontdeskMetrics {
  registry: Registry
  /** Counts one answered request (called by the handler once the response ended). */
  observeRequest(method: string, response: Pick<HttpResponse, 'status' | 'route' | 'code' | 'caller'>, seconds: number): void
  /** Counts a failure of the store that made a request answer 503 (called by `handle`, beside `onUnavailable`). */
  observeStorageError(): void
  /** `hooks.onInquiryCreated` for `createFrontdesk`: counts inquiries committed (not idempotent replays). */
  inquiryCreated(): void
  /** The search engine to give `createFrontdesk`: `search`, timing each search and counting its matching items. */
  instrumentSearch(search: SearchPort): SearchPort
  /**
   * Reads, at each scrape, the response cache of `frontdesk` (hits, misses) and, with `index`,
   * the search index of each tenant (items, lag behind the change feed), labelled by tenant code.
   */
  watch(frontdesk: Frontdesk, index?: () => Promise<readonly IndexStats[]>): void
}

/** Latency buckets (s): a cached read answers in well under a millisecond, a cold search in tens. */
const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5]
/** Matching items per search. */
const CANDIDATE_BUCKETS = [0, 1, 10, 100, 1_000, 10_000, 100_000]

/** Registers frontdesk's metrics in `options.registry` (or a new registry) and returns their hooks. */
export function createMetrics(options: MetricsOptions = {}): FrontdeskMetrics {
  const registry = options.registry ?? new PromRegistry()
  const registers = [registry]
  if (options.processMetrics ?? true) collectDefaultMetrics({ register: registry })
  const requests = new RequestTally(registry, { requests: 'frontdesk_http_requests_total', duration: 'frontdesk_http_request_duration_seconds' }, LATENCY_BUCKETS)
  const rateLimited = new Counter({ name: 'frontdesk_rate_limited_total', help: 'Requests refused with 429: over a key\'s rate limit (key), or too many failed authentications from one address (failed_auth).', labelNames: ['limit'] as const, registers })
  const failedKeys = new Counter({ name: 'frontdesk_auth_failures_total', help: 'Requests refused with 401: a missing, unknown or malformed key, a disabled key, a bad preview token; by error code.', labelNames: ['code'] as const, registers })
  const unavailable = new Counter({ name: 'frontdesk_unavailable_total', help: 'Requests answered 503 (the store or the search engine did not answer).', registers })
  const storageErrors = new Counter({ name: 'frontdesk_storage_errors_total', help: 'Failures of the store that made a request answer 503.', registers })
  const inquiries = new Counter({ name: 'frontdesk_inquiries_created_total', help: 'Inquiries committed (idempotent replays not counted).', registers })
  const searchLatency = new Histogram({ name: 'frontdesk_search_duration_seconds', help: 'Time the search engine took per search, catch-up with the change feed included.', buckets: LATENCY_BUCKETS, registers })
  const candidates = new Histogram({ name: 'frontdesk_search_candidates', help: 'Items matching each search (its total), before paging.', buckets: CANDIDATE_BUCKETS, registers })
  // Hint: the series whose labels are known in advance start at 0, so that rate() and increase() count the first refusal too.
  for (const limit of ['key', 'failed_auth']) rateLimited.inc({ limit }, 0)
  for (const [code, status] of Object.entries(ERROR_STATUS)) if (status === 401) failedKeys.inc({ code }, 0)
  let watched: { frontdesk: Frontdesk; index?: () => Promise<readonly IndexStats[]> } | null = null
  let tenantCodes = new Map<string, string>()

  new Counter({
    name: 'frontdesk_response_cache_lookups_total',
    help: 'Lookups in the content response cache, by result (hit or miss).',
    labelNames: ['result'] as const,
    registers,
    collect() {
      const cache = watched?.frontdesk.context.cache
      if (cache === undefined) return
      this.reset()
      this.inc({ result: 'hit' }, cache.hits)
      this.inc({ result: 'miss' }, cache.misses)
    },
  })
  const tenantCode = async (tenantId: string) => {
    const known = tenantCodes.get(tenantId)
    if (known !== undefined || watched === null) return known ?? tenantId
    // Hint: tenants are few and their codes never change; a tenant made since the last read is read again.
    tenantCodes = new Map((await watched.frontdesk.context.store.listTenants()).map((tenant) => [tenant.id, tenant.code]))
    return tenantCodes.get(tenantId) ?? tenantId
  }
  // Hint: both index gauges of one scrape share one reading.
  let reading: Promise<readonly IndexStats[]> | null = null
  const indexStats = () => {
    if (reading !== null) return reading
    const current = watched?.index === undefined ? Promise.resolve([]) : watched.index()
    const clear = () => {
      if (reading === current) reading = null
    }
    current.then(clear, clear)
    reading = current
    return current
  }
  new Gauge({
    name: 'frontdesk_search_index_items',
    help: 'Items in the search index, by tenant (code).',
    labelNames: ['tenant'] as const,
    registers,
    // Hint: one worker's index is the same as another's, so a cluster view takes one of them, not their sum.
    aggregator: 'max',
    async collect() {
      this.reset()
      for (const stats of await indexStats()) this.set({ tenant: await tenantCode(stats.tenantId) }, stats.items)
    },
  })
  new Gauge({
    name: 'frontdesk_search_feed_lag_seconds',
    help: 'How long the search index of a tenant has been behind the newest committed change (0: caught up).',
    labelNames: ['tenant'] as const,
    registers,
    aggregator: 'max',
    async collect() {
      this.reset()
      for (const stats of await indexStats()) this.set({ tenant: await tenantCode(stats.tenantId) }, stats.lagMs / 1000)
    },
  })

  return {
    registry,
    observeRequest(method, response, seconds) {
      requests.observe(response.route ?? 'unmatched', method, response.status, seconds)
      if (response.status < 400) return
      if (response.status === 429 && response.code === 'RATE_LIMITED') rateLimited.inc({ limit: response.caller === undefined ? 'failed_auth' : 'key' })
      else if (response.status === 401) failedKeys.inc({ code: response.code ?? 'UNAUTHORIZED' })
      else if (response.status === 503) unavailable.inc()
    },
    observeStorageError: () => storageErrors.inc(),
    inquiryCreated: () => inquiries.inc(),
    instrumentSearch(search) {
      const timed = async (tenantId: string, query: SearchQuery): Promise<SearchResult> => {
        const stop = searchLatency.startTimer()
        const result = await search.search(tenantId, query)
        stop()
        candidates.observe(result.total)
        return result
      }
      return {
        search: timed,
        ...(search.ping === undefined ? {} : { ping: () => search.ping?.() ?? Promise.resolve() }),
        ...(search.close === undefined ? {} : { close: () => search.close?.() ?? Promise.resolve() }),
      }
    },
    watch(frontdesk, index) {
      watched = index === undefined ? { frontdesk } : { frontdesk, index }
    },
  }
}
