import type { Context } from '../app/context.ts'
import type { CachePolicy, Reply } from '../app/reply.ts'
import { jsonSizeOf } from './json-size.ts'

/** How long a public content reply may be cached, here and by the client (SPEC.md "Limits"). */
export const CONTENT_CACHE_SECONDS = 60

/** The cache policy of public content-area replies. */
export const PUBLIC_CACHE: CachePolicy = { kind: 'private', maxAge: CONTENT_CACHE_SECONDS }

/** The cache policy of preview replies: never stored (CONTRACT §7). */
export const NO_STORE: CachePolicy = { kind: 'no-store' }

/**
 * A public reply of the content area through `ctx.cache` (CONTRACT §4). The key holds the
 * tenant, the tenant's storage revision (read *before* the data, so a change committed by any
 * process makes the entry unreachable), the operation and the normalised request. A hit
 * returns the very same `Reply` object. Entries live at most 60 s whatever the cache's own
 * TTL, which also bounds how long a cached list can hide an item whose scheduled time came.
 * Failures (`NotFoundError`, `ValidationError`) are never cached. With `ctx.memo` false,
 * nothing is cached: every reply is computed.
 */
export async function cachedReply<T>(
  ctx: Context,
  tenantId: string,
  operation: string,
  request: string,
  compute: () => Promise<T>,
): Promise<Reply<T>> {
  if (!ctx.memo) return { status: 200, body: await compute(), cache: PUBLIC_CACHE }
  const revision = await ctx.store.revision(tenantId)
  const key = `${tenantId}\u0000${revision}\u0000${operation}\u0000${request}`
  const hit = ctx.cache.get(key)
  // Hint: the operation is part of the key, so an entry always holds this operation's reply type.
  if (hit !== null) return hit as Reply<T>
  const reply: Reply<T> = { status: 200, body: await compute(), cache: PUBLIC_CACHE }
  // Hint: sized by its JSON (what it costs to hold, roughly), so long lists and bodies count for
  // what they are; estimated, since the edge serialises the body anyway and twice costs a miss dearly.
  ctx.cache.set(key, reply, ctx.clock.now() + CONTENT_CACHE_SECONDS * 1_000, jsonSizeOf(reply.body))
  return reply
}
