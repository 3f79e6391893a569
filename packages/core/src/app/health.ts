import type * as v from 'valibot'
import type { SearchPort } from '../port/search.ts'
import type { Store } from '../port/store.ts'
import type { HealthBodySchema } from '../response/response-bodies.ts'

/** How long `health()` waits for the store and the search engine before calling them unavailable (ms). */
export const DEFAULT_HEALTH_TIMEOUT_MS = 2_000

/** Options of `frontdesk.health()`. */
export interface HealthOptions {
  /** How long to wait for each answer, in ms. Default `DEFAULT_HEALTH_TIMEOUT_MS` (2 s). */
  timeoutMs?: number
}

/** What `frontdesk.health()` found. */
export interface Health {
  /** `ok` when the store answered and the search engine, if any, is ready; else `unavailable`. */
  status: v.InferOutput<typeof HealthBodySchema>['status']
  /** Whether the store answered `ping()` within the timeout. */
  store: boolean
  /** Whether the search engine answered its `ping()` within the timeout; `null` when there is none or it cannot tell. */
  search: boolean | null
}

/**
 * Whether the application can serve requests: the store's `ping()` and, when the search engine
 * has one, the engine's `ping()`, each within `timeoutMs` (asked at the same time). What
 * `GET /healthz` answers; an embedding service calls the same from its own health route.
 */
export async function checkHealth(store: Store, search: SearchPort | null, options: HealthOptions = {}): Promise<Health> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_HEALTH_TIMEOUT_MS
  let timer: ReturnType<typeof setTimeout> | undefined
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs)
  })
  try {
    const [storeOk, searchOk] = await Promise.all([
      Promise.race([answers(() => store.ping()), timeout]),
      search?.ping === undefined ? null : Promise.race([answers(() => search.ping?.()), timeout]),
    ])
    return { status: storeOk && searchOk !== false ? 'ok' : 'unavailable', store: storeOk, search: searchOk }
  } finally {
    clearTimeout(timer)
  }
}

/** Whether `probe` resolves; a probe that throws at once counts as a rejection. */
async function answers(probe: () => Promise<unknown> | undefined): Promise<boolean> {
  try {
    await probe()
    return true
  } catch {
    return false
  }
}
