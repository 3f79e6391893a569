import { randomUUID } from 'node:crypto'
import { looksSecret } from './secret-shape.ts'

// Short enough for log lines, and no character that could split a header or a log record.
const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{8,64}$/
// Runs of letters and digits that could be a secret without its prefix: a key or token body
// is 38 base62 characters (32 random, 6 of checksum), mixing both letter cases.
const LONG_RUN = /[A-Za-z0-9]{33,}/
const MIXED_RUN = /[A-Za-z0-9]{20,}/g

/**
 * The id of a request, sent back as `X-Request-Id`: the caller's own `X-Request-Id` when it
 * is sane (8 to 64 of `A-Z a-z 0-9 . _ : -`, so a proxy's or client's id carries through the
 * logs) and looks like no key or token (see `looksLikeSecret`: a client that put its key
 * there by mistake, with or without its prefix, must not see it echoed or logged), otherwise a
 * new random UUID.
 */
export function requestIdOf(incoming: string | string[] | undefined): string {
  return typeof incoming === 'string' && SANE_REQUEST_ID.test(incoming) && !looksLikeSecret(incoming) ? incoming : randomUUID()
}

/**
 * Whether an id could hold a secret: something shaped like a prefixed key or token
 * (`looksSecret`), a run of more than 32 letters and digits (longer than a hex UUID without
 * its dashes), or a run of 20 or more mixing lower- and upper-case letters (random base62, as
 * the body of a key). UUIDs, hex trace ids, ULIDs and numbers pass.
 */
export function looksLikeSecret(id: string): boolean {
  if (looksSecret(id) || LONG_RUN.test(id)) return true
  for (const [run] of id.matchAll(MIXED_RUN)) if (/[a-z]/.test(run) && /[A-Z]/.test(run)) return true
  return false
}
