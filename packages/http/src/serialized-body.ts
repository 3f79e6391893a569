import { createHash } from 'node:crypto'
import { serializedReply } from '@frontdesk/core'

/** A reply body as sent: its JSON bytes and a strong ETag of exactly those bytes (and their scope). */
export interface SerializedBody {
  bytes: Buffer
  etag: string
  /** What the ETag was computed for, besides the bytes (see `serializeBody`). */
  scope: string
}

// Core returns the same body object for every hit of a cached reply, so a hit costs no JSON work.
const serialized = new WeakMap<object, SerializedBody>()

/**
 * The bytes and ETag of a reply body, computed once per body object. The ETag also covers
 * `scope` (the tenant id): two tenants' identical bodies (an empty list, say) get different
 * ETags, so an ETag seen by one tenant never earns a 304 from another — a 304 would tell
 * that the other tenant's reply is the same.
 */
export function serializeBody(body: unknown, scope = ''): SerializedBody {
  if (typeof body !== 'object' || body === null) return serialize(body, scope)
  let entry = serialized.get(body)
  if (entry === undefined || entry.scope !== scope) {
    entry = serialize(body, scope)
    serialized.set(body, entry)
  }
  return entry
}

/**
 * The JSON bytes of a reply body that is never cached nor validated (`no-store`: search,
 * inquiries, previews, errors): no ETag (a SHA-256 of 12–18 KB for a search reply was ~5 %
 * of its CPU) and nothing remembered. A search reply's bytes are core's (`serializedReply`):
 * copied from its items' remembered JSON, where `JSON.stringify` and the UTF-8 encoding of
 * 12–18 KB were ~20 % of a search's CPU.
 */
export function bodyBytes(body: unknown): Buffer {
  const known = typeof body === 'object' && body !== null ? serializedReply(body) : undefined
  if (known !== undefined) return Buffer.from(known.buffer, known.byteOffset, known.byteLength)
  return Buffer.from(JSON.stringify(body) ?? 'null')
}

function serialize(body: unknown, scope: string): SerializedBody {
  const bytes = bodyBytes(body)
  const etag = `"${createHash('sha256').update(scope).update('\0').update(bytes).digest('base64url')}"`
  return { bytes, etag, scope }
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
