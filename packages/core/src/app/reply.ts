/** How the edge may cache a reply (README "Content list", "Preview flow"). */
export type CachePolicy =
  /**
   * May be cached privately for `maxAge` seconds; `etag` is a strong validator of the reply's
   * JSON for the tenant it was made for (see `strongEtag`), for the ETag/304 dance.
   */
  | { kind: 'private'; maxAge: number; etag: string }
  /** Never stored (search, preview, inquiries). */
  | { kind: 'no-store' }

/**
 * What a public use case returns to the edge: a status (200, or 201 for a created inquiry),
 * the JSON body and how it may be cached. A cached reply is handed out again as the same
 * object: never change one.
 */
export interface Reply<T> {
  status: 200 | 201
  body: T
  cache: CachePolicy
  /**
   * The UTF-8 JSON of `body` — exactly what `JSON.stringify(body)` gives — when core has it
   * without further work: a cached reply keeps the bytes it was made with (so a hit costs no
   * JSON work), a search reply copies them from its items' prepared JSON. Absent: the edge
   * serialises `body` itself.
   */
  bytes?: Uint8Array
  /** Set when the body is a stored idempotent response replayed. */
  replayed?: boolean
}
