import type { Context } from '../app/context.ts'
import type { CachePolicy, Reply } from '../app/reply.ts'
import { strongEtag } from '../cache/strong-etag.ts'

/** How long a public content reply may be cached, here and by the client (README "API reference"). */
export const CONTENT_CACHE_SECONDS = 60

/** The cache policy of preview replies: never stored (README "Preview flow"). */
export const NO_STORE: CachePolicy = { kind: 'no-store' }

/**
 * A public reply of the content area through `ctx.cache` (README "Content list"). The key holds the
 * tenant, the tenant's storage revision (read *before* the data, so a change committed by any
 * process makes the entry unreachable), the operation and the normalised request. The reply
 * is made with its JSON bytes and ETag; every hit returns the very same `Reply` object (see
 * `CachedReply`), so a hit costs no JSON or hashing work. Entries live at most 60 s whatever the cache's own TTL,
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
  const reply = replyOf(tenantId, await compute())
  // Hint: kept as its bytes only, charged against the cache's byte budget: the body's objects
  // would hold about 1.5 times as much again, outside the budget.
  ctx.cache.set(key, new CachedReply<T>(reply.bytes, reply.cache), ctx.clock.now() + CONTENT_CACHE_SECONDS * 1_000, reply.bytes.length)
  return reply
}

/**
 * A reply as the response cache keeps it and hands it to every hit: its JSON bytes and cache
 * policy; the body is parsed from the bytes when first asked for (the edge never asks: it sends
 * the bytes), then kept with it. `body` is an own enumerable accessor, set before `bytes` and
 * `cache`, so that the reply spreads, copies and serialises as `{ status, body, bytes, cache }`,
 * as the reply made without the cache does.
 */
class CachedReply<T> implements Reply<T> {
  // Hint: declared only and set in the constructor, in the order of the plain reply's keys.
  declare readonly status: 200
  declare readonly body: T
  declare readonly bytes: Buffer
  declare readonly cache: CachePolicy
  #body: { value: T } | null = null

  constructor(bytes: Buffer, cache: CachePolicy) {
    this.status = 200
    Object.defineProperty(this, 'body', BODY)
    this.bytes = bytes
    this.cache = cache
  }

  /** The body, parsed from the bytes once. */
  parsedBody(): T {
    this.#body ??= { value: JSON.parse(this.bytes.toString('utf8')) as T }
    return this.#body.value
  }
}

// Hint: one descriptor for every reply (a closure per reply would cost an allocation per miss).
const BODY: PropertyDescriptor = {
  enumerable: true,
  get(this: CachedReply<unknown>) {
    return this.parsedBody()
  },
}

/** A public content reply with its JSON bytes and strong ETag. */
function replyOf<T>(tenantId: string, body: T): Reply<T> & { bytes: Buffer; cache: CachePolicy } {
  const json = JSON.stringify(body)
  // Hint: a Buffer (a Uint8Array to the type), so that a Node edge sends it as it is instead
  // of making a Buffer view of it on every hit: an allocation per request on the hottest path.
  const bytes = Buffer.from(json)
  return { status: 200, body, bytes, cache: { kind: 'private', maxAge: CONTENT_CACHE_SECONDS, etag: strongEtag(tenantId, json) } }
}
