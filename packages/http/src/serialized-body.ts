import { createHash } from 'node:crypto'

/** A reply body as sent: its JSON bytes and a strong ETag of exactly those bytes. */
export interface SerializedBody {
  bytes: Buffer
  etag: string
}

// Core returns the same body object for every hit of a cached reply, so a hit costs no JSON work.
const serialized = new WeakMap<object, SerializedBody>()

/** The bytes and ETag of a reply body, computed once per body object. */
export function serializeBody(body: unknown): SerializedBody {
  if (typeof body !== 'object' || body === null) return serialize(body)
  let entry = serialized.get(body)
  if (entry === undefined) {
    entry = serialize(body)
    serialized.set(body, entry)
  }
  return entry
}

function serialize(body: unknown): SerializedBody {
  const bytes = Buffer.from(JSON.stringify(body) ?? 'null')
  return { bytes, etag: `"${createHash('sha256').update(bytes).digest('base64url')}"` }
}

/**
 * Whether an `If-None-Match` header value matches `etag` (RFC 9110 §13.1.2: weak comparison,
 * so `W/"x"` matches `"x"`; `*` matches any current representation).
 */
export function ifNoneMatchMatches(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false
  const wanted = etag.replace(/^W\//, '')
  return header.split(',').some((candidate) => {
    const tag = candidate.trim()
    return tag === '*' || tag.replace(/^W\//, '') === wanted
  })
}
