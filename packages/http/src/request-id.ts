import { randomUUID } from 'node:crypto'
import { looksSecret } from './secret-shape.ts'

// Short enough for log lines, and no character that could split a header or a log record.
const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{8,128}$/

/**
 * The id of a request, sent back as `X-Request-Id`: the caller's own `X-Request-Id` when it
 * is sane (8 to 128 of `A-Z a-z 0-9 . _ : -`, so a proxy's or client's id carries through the
 * logs) and holds nothing shaped like a key or token (see `looksSecret`: a client that put its
 * key there by mistake must not see it echoed or logged), otherwise a new random UUID.
 */
export function requestIdOf(incoming: string | string[] | undefined): string {
  return typeof incoming === 'string' && SANE_REQUEST_ID.test(incoming) && !looksSecret(incoming) ? incoming : randomUUID()
}
