import type { Context } from '../app/context.ts'
import { isoAt } from '../app/clock.ts'
import type { RecognisedCaller } from '../errors/frontdesk-error.ts'
import { AuthError, ForbiddenError, RateLimitedError, StorageUnavailableError } from '../errors/frontdesk-error.ts'
import { parseApiKey } from './api-key.ts'
import type { RequiredPermission } from './permissions.ts'
import { hasPermission } from './permissions.ts'
import type { Credentials, Principal } from './principal.ts'

/** `last_used_at` is written at most this often per key (README "Security"). */
const TOUCH_INTERVAL_MS = 60_000

/** Keys whose last-use stamp each process remembers at most (then it starts again). */
const MAX_REMEMBERED_STAMPS = 10_000

const stamps = new WeakMap<Context, Map<string, number>>()

/** When this process last stamped each key (clock ms), per application. */
function stampsOf(ctx: Context): Map<string, number> {
  let map = stamps.get(ctx)
  if (map === undefined) stamps.set(ctx, (map = new Map()))
  return map
}

/**
 * Checks a request's credentials and the permission its endpoint needs, in the README\'s "Errors"
 * order: credential (401/403) first, then permission (403). Throws `AuthError`,
 * `ForbiddenError` or `RateLimitedError` (carrying the `caller` once the key was recognised);
 * returns the caller otherwise.
 *
 * Rate limits: a valid key takes one token from its own bucket (its own limit, else the
 * default: 100/s with burst 200 unless configured) before the permission check, so a key
 * cannot hammer 403s either. A key nobody holds (unknown, or malformed) takes a token from its
 * client address's bucket of failed authentications; once that is empty such requests get 429
 * instead of 401 until it refills. A valid key is never refused for what others at the same
 * address (a shared NAT) did, and a refused request takes nothing from either bucket.
 */
export async function authenticate(ctx: Context, credentials: Credentials, required: RequiredPermission): Promise<Principal> {
  const { apiKey } = credentials
  if (apiKey === null) {
    if (credentials.authorization) throw credentialNotAllowed()
    throw new AuthError('UNAUTHORIZED', credentials.keyElsewhere === true ? 'API key required: send it in the X-API-Key header (a key in the URL is never accepted)' : 'API key required')
  }
  // A key with a bad shape or checksum is refused without touching storage.
  const parsed = parseApiKey(apiKey, ctx.memo)
  const found = parsed === null ? null : await ctx.store.findApiKeyByHash(parsed.hash)
  if (parsed === null || found === null) throw await failedAuthentication(ctx, credentials.clientAddress)
  const { key, tenant } = found
  const caller = { tenant: tenant.code, keyId: key.id }
  if (key.kind !== 'tenant' || parsed.kind !== 'tenant') throw credentialNotAllowed(caller)
  if (key.disabled_at !== null) throw new AuthError('API_KEY_DISABLED', 'API key is disabled', { caller })
  const rateLimit = await ctx.rateLimiter.take(`key:${key.id}`, key.rate_limit ?? ctx.defaultRateLimit)
  if (!rateLimit.allowed) throw new RateLimitedError(rateLimit.retryAfter, rateLimit, { caller })
  if (!hasPermission(key.permissions, required)) throw new ForbiddenError({ caller, required, granted: key.permissions })
  await touch(ctx, key.id, key.last_used_at)
  return { tenant, key, rateLimit }
}

/** The error for a key nobody holds: 401, or 429 once `address` has failed too often. */
async function failedAuthentication(ctx: Context, address: string | undefined): Promise<AuthError | RateLimitedError> {
  if (address !== undefined) {
    const bucket = await ctx.rateLimiter.take(`address:${address}`, ctx.failedAuthRate)
    if (!bucket.allowed) return new RateLimitedError(bucket.retryAfter)
  }
  return new AuthError('UNAUTHORIZED', 'Invalid API key')
}

/**
 * Records `last_used_at`, at most once a minute. Best effort: it is bookkeeping, so storage
 * that is busy (a long import holding the write lock) or failing never fails the request.
 */
async function touch(ctx: Context, keyId: string, lastUsedAt: string | null): Promise<void> {
  const now = ctx.clock.now()
  if (lastUsedAt !== null && now - parsedStamp(lastUsedAt) < TOUCH_INTERVAL_MS) return
  if (!ctx.memo) {
    await stamp(ctx, keyId, now)
    return
  }
  // Hint: requests that read the key before this process's stamp committed (a burst on a store
  // over the network) would each stamp it again; the process remembers what it wrote.
  const stamped = stampsOf(ctx)
  const last = stamped.get(keyId)
  if (last !== undefined && now - last < TOUCH_INTERVAL_MS && now >= last) return
  if (stamped.size >= MAX_REMEMBERED_STAMPS) stamped.clear()
  stamped.set(keyId, now)
  // Not written after all: the next request tries again.
  if (!(await stamp(ctx, keyId, now)) && stamped.get(keyId) === now) stamped.delete(keyId)
}

// Hint: every request of a key brings the same stamp for a minute; it is parsed once.
let lastStamp = ''
let lastStampMs = Number.NaN

/** `Date.parse(stamp)`, remembered for the last stamp parsed. */
function parsedStamp(stamp: string): number {
  if (stamp !== lastStamp) {
    lastStampMs = Date.parse(stamp)
    lastStamp = stamp
  }
  return lastStampMs
}

/** Writes the key's last-use stamp; `false` when storage was unavailable (not an error of the request). */
async function stamp(ctx: Context, keyId: string, now: number): Promise<boolean> {
  try {
    await ctx.store.updateApiKey(keyId, { last_used_at: isoAt(now) })
    return true
  } catch (error) {
    if (!(error instanceof StorageUnavailableError)) throw error
    return false
  }
}

function credentialNotAllowed(caller?: RecognisedCaller): AuthError {
  return new AuthError('CREDENTIAL_NOT_ALLOWED', 'This credential type cannot access this API', caller === undefined ? undefined : { caller })
}
