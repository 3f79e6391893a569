import type { Context } from '../app/context.ts'
import { transactionWithEvents } from '../events/content-events.ts'
import type { ContentRecord } from '../model/content.ts'
import { findContent } from './find-content.ts'
import { requireTenant } from './require-tenant.ts'

/** Deletes an item found by id or slug (with its tag links and field values); returns what was deleted. */
export async function deleteContentItem(ctx: Context, tenantCode: string, idOrSlug: string): Promise<ContentRecord> {
  const tenant = await requireTenant(ctx, tenantCode)
  return transactionWithEvents(ctx, async (tx) => {
    const item = await findContent(tx, tenant.id, idOrSlug)
    await tx.deleteContent(tenant.id, item.id)
    return item
  })
}
