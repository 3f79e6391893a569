import type { Context } from '../app/context.ts'
import { UsageError } from '../errors/frontdesk-error.ts'
import type { Tenant } from '../model/tenant.ts'

/** The tenant with this code; a `UsageError` `Unknown tenant: <code>` when there is none. */
export async function requireTenant(ctx: Context, code: string): Promise<Tenant> {
  const tenant = await ctx.store.getTenantByCode(code)
  if (tenant === null) throw new UsageError(`Unknown tenant: ${code}`)
  return tenant
}
