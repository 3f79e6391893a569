import type { Context } from '../app/context.ts'
import type { ApiKeyRecord } from '../model/api-key.ts'
import { requireTenant } from './require-tenant.ts'

/** The tenant's keys, oldest first (hashes included: the edge decides what to show). */
export async function listApiKeys(ctx: Context, tenantCode: string): Promise<ApiKeyRecord[]> {
  const tenant = await requireTenant(ctx, tenantCode)
  return ctx.store.listApiKeys(tenant.id)
}
