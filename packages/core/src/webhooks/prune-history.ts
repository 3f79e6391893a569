import type { Context } from '../app/context.ts'
import type { WebhookStore } from '../port/webhook-store.ts'

/** How long delivered events and the attempt log are kept, by default (`serve --webhook-retention-days`). */
export const DEFAULT_WEBHOOK_RETENTION_DAYS = 30
/** Rows of each kind deleted per write: a write holds the store's single writer this briefly. */
const BATCH = 500

/**
 * Deletes webhook history from before `before` (ISO 8601): each tenant's events that every one
 * of its endpoints has handled (disabled ones included: enabling resumes after their cursor),
 * and its attempt log. `batch` rows of each kind per write, yielding between writes so that
 * other writers go first; stops early once `stopped` says so. Returns how many rows went.
 */
export async function pruneWebhookHistory(
  ctx: Context,
  webhooks: WebhookStore,
  before: string,
  options: { batch?: number; stopped?: () => boolean } = {},
): Promise<number> {
  const batch = options.batch ?? BATCH
  let pruned = 0
  for (const tenant of await ctx.store.listTenants()) {
    for (;;) {
      if (options.stopped?.() === true) return pruned
      const deleted = await webhooks.pruneWebhookHistory(tenant.id, before, batch)
      pruned += deleted
      if (deleted === 0) break
      await new Promise((resolve) => setImmediate(resolve))
    }
  }
  return pruned
}
