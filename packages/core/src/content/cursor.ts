import { createHmac, timingSafeEqual } from 'node:crypto'
import { sha256Hex } from '../util/sha256.ts'

/** Where a page ended: the sort value and id of its last item. */
export interface CursorPosition {
  /** The last item's sort value (`null` when it lacks a custom sort field). */
  value: string | number | boolean | null
  id: string
}

/** A decoded cursor, or why it is refused (always reported on the field `cursor`). */
export type CursorResult = { ok: true; position: CursorPosition } | { ok: false; message: string }

/** What a cursor is bound to: the installation's cursor secret and the tenant it was made for. */
export interface CursorBinding {
  /** The HMAC key (the instance secret `cursor-hmac`, the same in every process and after restarts). */
  secret: string
  /** The id of the tenant whose list the cursor walks. */
  tenantId: string
}

const VERSION = 2
/** Longer strings are refused before any decoding work. */
export const MAX_CURSOR_LENGTH = 1_024
const BASE64URL = /^[A-Za-z0-9_-]+$/
const ID = /^[A-Za-z0-9_-]{1,64}$/
/** Characters of the base64url tag kept: 22 of 43, 132 bits of HMAC-SHA256. */
const TAG_LENGTH = 22

/*
 * A cursor is `<payload>.<tag>`: the payload is base64url (no padding) of the JSON array
 *   [version, fingerprint, value, id]
 * where `fingerprint` identifies the normalised filters and sort it was made for (so it cannot
 * be replayed against another query), and the tag is an HMAC-SHA256 of the tenant's id and the
 * payload under the installation's cursor secret, kept in the database. So a cursor works on
 * every process and after restarts, is refused for any other tenant, and cannot be forged or
 * altered by anyone without the secret. (Cursors of version 1, before the tag, are refused.)
 */

/** The opaque `next_cursor` for a page that ended at `position`, for the query `fingerprint`. */
export function encodeCursor(binding: CursorBinding, fingerprint: string, position: CursorPosition): string {
  const payload = Buffer.from(JSON.stringify([VERSION, fingerprint, position.value, position.id]), 'utf8').toString('base64url')
  return `${payload}.${tag(binding, payload)}`
}

/**
 * Reads a cursor made by `encodeCursor` for the same tenant under the same secret. With a
 * `fingerprint`, a cursor made for another query is refused too. Never throws: garbage,
 * damaged, forged, old or foreign input is `{ ok: false }`.
 */
export function decodeCursor(binding: CursorBinding, token: string, fingerprint: string | null): CursorResult {
  if (token.length > MAX_CURSOR_LENGTH) return invalid()
  const dot = token.lastIndexOf('.')
  const payload = token.slice(0, dot)
  const sent = Buffer.from(token.slice(dot + 1))
  if (dot < 1 || !BASE64URL.test(payload)) return invalid()
  const expected = Buffer.from(tag(binding, payload))
  if (sent.length !== expected.length || !timingSafeEqual(sent, expected)) return invalid()
  let parsed: unknown
  try {
    parsed = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(payload, 'base64url')))
  } catch {
    return invalid()
  }
  // Hint: the tag proves the payload is ours, but a cursor of a future version must not be misread.
  if (!Array.isArray(parsed) || parsed.length !== 4) return invalid()
  const [version, print, value, id] = parsed as unknown[]
  if (version !== VERSION || typeof print !== 'string' || typeof id !== 'string' || !ID.test(id) || !isSortValue(value)) return invalid()
  if (fingerprint !== null && print !== fingerprint) {
    return { ok: false, message: 'cursor belongs to a query with other filters or sort' }
  }
  return { ok: true, position: { value, id } }
}

/** A short, stable fingerprint of a normalised query text (see `canonicalListQuery`). */
export function queryFingerprint(canonical: string): string {
  return sha256Hex(canonical).slice(0, 16)
}

function tag(binding: CursorBinding, payload: string): string {
  return createHmac('sha256', binding.secret).update(`${binding.tenantId}\n${payload}`).digest('base64url').slice(0, TAG_LENGTH)
}

function isSortValue(value: unknown): value is CursorPosition['value'] {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true
  return typeof value === 'number' && Number.isFinite(value)
}

function invalid(): CursorResult {
  return { ok: false, message: 'is not a valid cursor' }
}
