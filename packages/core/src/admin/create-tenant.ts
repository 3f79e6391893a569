import * as v from 'valibot'
import type { Context } from '../app/context.ts'
import { isoAt } from '../app/clock.ts'
import { UsageError } from '../errors/frontdesk-error.ts'
import { invalidInput } from './invalid-input.ts'
import type { Tenant } from '../model/tenant.ts'
import { newId } from '../util/ids.ts'
import { issuesToDetails } from '../validation/issues.ts'

/** The shape of a tenant code (README "Security"). */
export const TENANT_CODE_PATTERN = /^[a-z0-9][a-z0-9-]{0,62}$/

const TenantInput = v.object({
  code: v.pipe(v.string(), v.regex(TENANT_CODE_PATTERN, 'must be 1-63 characters of a-z, 0-9 and -, not starting with -')),
  name: v.optional(v.pipe(v.string(), v.trim(), v.nonEmpty('must not be empty'), v.maxLength(200, 'must be at most 200 characters'))),
})

/**
 * Creates a tenant. `name` defaults to the code. Refuses a malformed or taken code with a
 * `UsageError`.
 */
export async function createTenant(ctx: Context, input: { code: string; name?: string }): Promise<Tenant> {
  const parsed = v.safeParse(TenantInput, input)
  if (!parsed.success) throw invalidInput('Invalid tenant', issuesToDetails(parsed.issues))
  const { code, name } = parsed.output
  if ((await ctx.store.getTenantByCode(code)) !== null) throw new UsageError(`Tenant already exists: ${code}`)
  const now = ctx.clock.now()
  const tenant: Tenant = { id: newId('ten', now), code, name: name ?? code, created_at: isoAt(now) }
  await ctx.store.createTenant(tenant)
  return tenant
}
