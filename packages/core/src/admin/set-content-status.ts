import type { Context } from '../app/context.ts'
import { transactionWithEvents } from '../events/content-events.ts'
import { isoAt } from '../app/clock.ts'
import type { ContentRecord, ContentStatus } from '../model/content.ts'
import { findContent } from './find-content.ts'
import { requireTenant } from './require-tenant.ts'

/**
 * Publishes or unpublishes an item found by id or slug, and returns it as now stored.
 * Publishing an item that never had a `published_at` sets it to now; an item that has one
 * keeps it (a future one stays scheduled). Unpublishing keeps `published_at` so that a later
 * publish restores the same date. A real change bumps `version` and `updated_at`; asking for
 * the status an item already has changes nothing.
 */
export async function setContentStatus(ctx: Context, tenantCode: string, idOrSlug: string, status: ContentStatus): Promise<ContentRecord> {
  const tenant = await requireTenant(ctx, tenantCode)
  return transactionWithEvents(ctx, async (tx) => {
    const item = await findContent(tx, tenant.id, idOrSlug)
    if (item.status === status) return item
    const now = ctx.clock.now()
    const next: ContentRecord = {
      ...item,
      status,
      published_at: status === 'published' ? (item.published_at ?? isoAt(now)) : item.published_at,
      version: item.version + 1,
      updated_at: isoAt(now),
    }
    await tx.putContent(next)
    return next
  })
}
