import type { Context } from '../app/context.ts'
import type { CachePolicy, Reply } from '../app/reply.ts'
import { strongEtag } from '../cache/strong-etag.ts'

/** How long a public content reply may be cached, here and by the client (SPEC.md "Limits"). */
export const CONTENT_CACHE_SECONDS = 60

/** The cache policy of preview replies: never stored (CONTRACT §7). */
export const NO_STORE: CachePolicy = { kind: 'no-store' }

/**
 * A public reply of the content area through `ctx.cache` (CONTRACT §4). The key holds the
 * tenant, the tenant's storage revision (read *before* the data, so a change committed by any
 * process makes the entry unreachable), the operation and the normalised request. The reply
 * is made with its JSON bytes and ETag, and every hit returns the very same `Reply` object
 * (see `CachedReply`), so a hit costs no JSON or hashing work. Entries live at most 60 s whatever the cache's own TTL,
 * which also bounds how long a cached list can hide an item whose scheduled time came.
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
  if (!ctx.memo) return replyOf(tenantId, await compute())
  const revision = await ctx.store.revision(tenantId)
  const key = `${tenantId}\u0000${revision}\u0000${operation}\u0000${request}`
  const hit = ctx.cache.get(key)
  // Hint: the operation is part of the key, so an entry always holds this operation's reply type.
  if (hit !== null) return hit as Reply<T>
  const made = replyOf(tenantId, await compute())
  const reply = new CachedReply<T>(made.body, made.bytes, made.cache)
  // Hint: charged its JSON's length against the cache's byte budget; the body's objects, which
  // would hold about 1.5 times as much again outside the budget, are not kept (see CachedReply).
  ctx.cache.set(key, reply, ctx.clock.now() + CONTENT_CACHE_SECONDS * 1_000, made.bytes.length)
  return reply
}

/**
 * A reply as the response cache keeps it: its JSON bytes and cache policy, and its body only
 * while something else holds it (a `WeakRef`); once dropped, the body is parsed again from the
 * bytes when next asked for. The edge never asks (it sends the bytes), and whoever compares two
 * hits' bodies holds the first: it is the same object as long as it can be told apart.
 */
class CachedReply<T> implements Reply<T> {
  // Hint: declared only, and set in the constructor in this order (see there).
  declare readonly status: 200
  declare readonly body: T
  declare readonly bytes: Buffer
  declare readonly cache: CachePolicy

  constructor(body: T, bytes: Buffer, cache: CachePolicy) {
    // Hint: an own enumerable accessor, before the other fields, so that the reply reads, spreads
    // and serialises as the plain `{ status, body, bytes, cache }` made without the cache.
    this.status = 200
    let held = holdWeakly(body)
    Object.defineProperty(this, 'body', {
      enumerable: true,
      get: (): T => {
        let value = held.deref()
        if (value === undefined) {
          value = JSON.parse(bytes.toString('utf8')) as T
          held = holdWeakly(value)
        }
        return value
      },
    })
    this.bytes = bytes
    this.cache = cache
  }
}

function holdWeakly<T>(value: T): { deref(): T | undefined } {
  return typeof value === 'object' && value !== null ? new WeakRef(value) : { deref: () => value }
}

/** A public content reply with its JSON bytes and strong ETag. */
function replyOf<T>(tenantId: string, body: T): Reply<T> & { bytes: Buffer; cache: CachePolicy } {
  const json = JSON.stringify(body)
  // Hint: a Buffer (a Uint8Array to the type), so that a Node edge sends it as it is instead
  // of making a Buffer view of it on every hit: an allocation per request on the hottest path.
  const bytes = Buffer.from(json)
  return { status: 200, body, bytes, cache: { kind: 'private', maxAge: CONTENT_CACHE_SECONDS, etag: strongEtag(tenantId, json) } }
}
