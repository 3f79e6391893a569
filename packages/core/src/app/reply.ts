/** How the edge may cache a reply (CONTRACT §4, §7). */
export type CachePolicy =
  /** May be cached privately for `maxAge` seconds; the ETag/304 dance applies. */
  | { kind: 'private'; maxAge: number }
  /** Never stored (search, preview, inquiries). */
  | { kind: 'no-store' }

/**
 * What a public use case returns to the edge: a status (200, or 201 for a created inquiry),
 * the JSON body and how it may be cached. The same `body` object is returned for every hit of
 * a cached reply, so an edge can keep its serialisation in a `WeakMap`.
 */
export interface Reply<T> {
  status: 200 | 201
  body: T
  cache: CachePolicy
  /** Set when the body is a stored idempotent response replayed. */
  replayed?: boolean
}
