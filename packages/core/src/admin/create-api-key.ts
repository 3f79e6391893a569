import type { Context } from '../app/context.ts'
import { isoAt } from '../app/clock.ts'
import { generateApiKey } from '../auth/api-key.ts'
import type { Permission } from '../auth/permissions.ts'
import { isPermission, PERMISSIONS } from '../auth/permissions.ts'
import { UsageError } from '../errors/frontdesk-error.ts'
import type { ApiKeyRecord } from '../model/api-key.ts'
import { newId } from '../util/ids.ts'
import { requireTenant } from './require-tenant.ts'

/** What `createApiKey` takes. */
export interface CreateApiKeyInput {
  tenantCode: string
  /** A label for listings, 1 to 100 characters. */
  name: string
  /** Names from `PERMISSIONS`; at least one for a tenant key, none for a personal key. */
  permissions: string[]
  /** A personal key (`fdp_…`): holds no permission of this API (README "CLI reference"). Default: `false`. */
  personal?: boolean
  /** Requests per second; `0` = unlimited; `null`/absent = the default (100). */
  rateLimit?: number | null
}

/**
 * Creates an API key. Returns the stored record and the key itself, which is never stored
 * (only its SHA-256 and a display prefix) and so can be shown only this once.
 */
export async function createApiKey(ctx: Context, input: CreateApiKeyInput): Promise<{ record: ApiKeyRecord; key: string }> {
  const tenant = await requireTenant(ctx, input.tenantCode)
  const name = input.name.trim()
  if (name === '' || name.length > 100) throw new UsageError('Key name must be 1 to 100 characters')
  const permissions = checkPermissions(input.permissions, input.personal === true)
  const rateLimit = input.rateLimit ?? null
  if (rateLimit !== null && !(Number.isSafeInteger(rateLimit) && rateLimit >= 0)) {
    throw new UsageError('Rate limit must be an integer ≥ 0 (requests per second, 0 = unlimited)')
  }
  const kind = input.personal === true ? 'personal' : 'tenant'
  const { key, hash, prefix } = generateApiKey(kind)
  const now = ctx.clock.now()
  const record: ApiKeyRecord = {
    id: newId('key', now),
    tenant_id: tenant.id,
    name,
    kind,
    permissions,
    hash,
    prefix,
    created_at: isoAt(now),
    last_used_at: null,
    disabled_at: null,
    rate_limit: rateLimit,
  }
  await ctx.store.createApiKey(record)
  return { record, key }
}

function checkPermissions(given: string[], personal: boolean): Permission[] {
  const names = given.map((p) => p.trim()).filter((p) => p !== '')
  if (personal) {
    if (names.length > 0) throw new UsageError('A personal key holds no permission of this API: --permissions cannot be used with --personal')
    return []
  }
  const unknown = names.filter((p) => !isPermission(p))
  if (unknown.length > 0) {
    throw new UsageError(`Unknown permission${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')} (known: ${PERMISSIONS.join(', ')})`)
  }
  if (names.length === 0) throw new UsageError(`A tenant key needs at least one permission (${PERMISSIONS.join(', ')})`)
  return [...new Set(names)].filter(isPermission)
}
