import type { Context } from '../app/context.ts'
import type { Tenant } from '../model/tenant.ts'

/** Every tenant, ordered by code. */
export async function listTenants(ctx: Context): Promise<Tenant[]> {
  return ctx.store.listTenants()
}
