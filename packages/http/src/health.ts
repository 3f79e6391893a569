import type { Frontdesk } from '@frontdesk/core'

/** How long the health check waits for the database before calling it unavailable (ms). */
export const HEALTH_TIMEOUT_MS = 2_000

// An id no tenant can have (ids are `^[A-Za-z0-9_-]{1,64}$`), so the read finds nothing but
// still goes through the database.
const PROBE_TENANT_ID = '~healthz'

/**
 * Whether the application's store answers a read within `timeoutMs`: the check behind
 * `GET /healthz`. Embedders that mount the handler inside their own server can call it from
 * their own health route.
 */
export async function checkHealth(frontdesk: Frontdesk, timeoutMs = HEALTH_TIMEOUT_MS): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs)
  })
  try {
    const probe = frontdesk.context.store.getTenant(PROBE_TENANT_ID).then(
      () => true,
      () => false,
    )
    return await Promise.race([probe, timeout])
  } catch {
    return false
  } finally {
    clearTimeout(timer)
  }
}
