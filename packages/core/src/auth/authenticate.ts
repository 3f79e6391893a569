import type { Context } from '../app/context.ts'
import { isoAt } from '../app/clock.ts'
import { AuthError, ForbiddenError } from '../errors/frontdesk-error.ts'
import { parseApiKey } from './api-key.ts'
import type { RequiredPermission } from './permissions.ts'
import { hasPermission } from './permissions.ts'
import type { Credentials, Principal } from './principal.ts'

/** `last_used_at` is written at most this often per key (CONTRACT §3). */
const TOUCH_INTERVAL_MS = 60_000

/**
 * Checks a request's credentials and the permission its endpoint needs, in CONTRACT §2's
 * order: credential (401/403) first, then permission (403). Throws `AuthError` or
 * `ForbiddenError`; returns the caller otherwise.
 */
export async function authenticate(ctx: Context, credentials: Credentials, required: RequiredPermission): Promise<Principal> {
  const { apiKey } = credentials
  if (apiKey === null) {
    if (credentials.authorization) throw credentialNotAllowed()
    throw new AuthError('UNAUTHORIZED', 'API key required')
  }
  // A key with a bad shape or checksum is refused without touching storage.
  const parsed = parseApiKey(apiKey)
  if (parsed === null) throw invalidKey()
  const found = await ctx.store.findApiKeyByHash(parsed.hash)
  if (found === null) throw invalidKey()
  const { key, tenant } = found
  if (key.kind !== 'tenant' || parsed.kind !== 'tenant') throw credentialNotAllowed()
  if (key.disabled_at !== null) throw new AuthError('API_KEY_DISABLED', 'API key is disabled')
  if (!hasPermission(key.permissions, required)) throw new ForbiddenError()
  await touch(ctx, key.id, key.last_used_at)
  return { tenant, key }
}

async function touch(ctx: Context, keyId: string, lastUsedAt: string | null): Promise<void> {
  const now = ctx.clock.now()
  if (lastUsedAt !== null && now - Date.parse(lastUsedAt) < TOUCH_INTERVAL_MS) return
  await ctx.store.updateApiKey(keyId, { last_used_at: isoAt(now) })
}

function invalidKey(): AuthError {
  return new AuthError('UNAUTHORIZED', 'Invalid API key')
}

function credentialNotAllowed(): AuthError {
  return new AuthError('CREDENTIAL_NOT_ALLOWED', 'This credential type cannot access this API')
}
