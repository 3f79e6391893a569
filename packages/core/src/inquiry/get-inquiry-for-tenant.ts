import { requireTenant } from '../admin/require-tenant.ts'
import type { Context } from '../app/context.ts'
import { UsageError } from '../errors/frontdesk-error.ts'
import type { InquiryRecord } from '../model/inquiry.ts'

/**
 * One inquiry of a tenant, for an operator (CLI `inquiry show`). Throws a `UsageError`
 * `Unknown tenant: <code>` or `Unknown inquiry: <id>` (also for another tenant's inquiry).
 */
export async function getInquiryForTenant(ctx: Context, tenantCode: string, id: string): Promise<InquiryRecord> {
  const tenant = await requireTenant(ctx, tenantCode)
  const inquiry = await ctx.store.getInquiry(tenant.id, id)
  if (inquiry === null) throw new UsageError(`Unknown inquiry: ${id}`)
  return inquiry
}
