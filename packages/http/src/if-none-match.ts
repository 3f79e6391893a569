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
