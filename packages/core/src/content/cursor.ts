import { sha256Hex } from '../util/sha256.ts'

/** Where a page ended: the sort value and id of its last item. */
export interface CursorPosition {
  /** The last item's sort value (`null` when it lacks a custom sort field). */
  value: string | number | boolean | null
  id: string
}

/** A decoded cursor, or why it is refused (always reported on the field `cursor`). */
export type CursorResult = { ok: true; position: CursorPosition } | { ok: false; message: string }

const VERSION = 1
/** Longer strings are refused before any decoding work. */
export const MAX_CURSOR_LENGTH = 1_024
const BASE64URL = /^[A-Za-z0-9_-]+$/
const ID = /^[A-Za-z0-9_-]{1,64}$/

/*
 * A cursor is base64url (no padding) of the JSON array
 *   [version, fingerprint, value, id, checksum]
 * where `fingerprint` identifies the normalised filters and sort it was made for (so it cannot
 * be replayed against another query) and `checksum` is a SHA-256 prefix of the rest. Nothing
 * is kept on the server, so a cursor survives restarts and works on every process. The
 * checksum catches damage, not forgery: a forged cursor can only move the keyset position
 * (which is harmless, visibility is applied by the query itself), never widen what is seen.
 */

/** The opaque `next_cursor` for a page that ended at `position`, for the query `fingerprint`. */
export function encodeCursor(fingerprint: string, position: CursorPosition): string {
  const head = [VERSION, fingerprint, position.value, position.id]
  return Buffer.from(JSON.stringify([...head, checksum(head)]), 'utf8').toString('base64url')
}

/**
 * Reads a cursor made by `encodeCursor`. With a `fingerprint`, a cursor made for another
 * query is refused too. Never throws: garbage, damaged or forged input is `{ ok: false }`.
 */
export function decodeCursor(token: string, fingerprint: string | null): CursorResult {
  if (token.length > MAX_CURSOR_LENGTH || !BASE64URL.test(token)) return invalid()
  const bytes = Buffer.from(token, 'base64url')
  // Hint: Node ignores stray trailing bits; only the canonical spelling of the bytes is ours.
  if (bytes.toString('base64url') !== token) return invalid()
  let parsed: unknown
  let text: string
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes)
    parsed = JSON.parse(text)
  } catch {
    return invalid()
  }
  // Hint: only the spelling `encodeCursor` writes is accepted; another spelling of the same
  // values (`1E+21` for `1e+21`, spaces) would otherwise pass the checksum, which covers values.
  if (!Array.isArray(parsed) || parsed.length !== 5 || JSON.stringify(parsed) !== text) return invalid()
  const [version, print, value, id, sum] = parsed as unknown[]
  if (version !== VERSION || typeof print !== 'string' || typeof id !== 'string' || !ID.test(id)) return invalid()
  if (!isSortValue(value) || typeof sum !== 'string' || sum !== checksum([version, print, value, id])) return invalid()
  if (fingerprint !== null && print !== fingerprint) {
    return { ok: false, message: 'cursor belongs to a query with other filters or sort' }
  }
  return { ok: true, position: { value, id } }
}

/** A short, stable fingerprint of a normalised query text (see `canonicalListQuery`). */
export function queryFingerprint(canonical: string): string {
  return sha256Hex(canonical).slice(0, 16)
}

function isSortValue(value: unknown): value is CursorPosition['value'] {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true
  return typeof value === 'number' && Number.isFinite(value)
}

function checksum(head: unknown[]): string {
  return sha256Hex(JSON.stringify(head)).slice(0, 12)
}

function invalid(): CursorResult {
  return { ok: false, message: 'is not a valid cursor' }
}
