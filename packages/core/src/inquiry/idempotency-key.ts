import type { ErrorDetail } from '../errors/frontdesk-error.ts'
import { sha256Hex } from '../util/sha256.ts'
import type { InquiryInput } from './inquiry-input.ts'

/** The longest `Idempotency-Key` accepted (CONTRACT §6). */
export const IDEMPOTENCY_KEY_MAX_LENGTH = 255

/** How long a completed key replays its response: 24 hours (CONTRACT §6). */
export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000

/**
 * How long an in-flight claim is honoured. A request holds its claim for milliseconds; a
 * claim older than this belongs to a process that died mid-request and is taken over.
 */
export const IDEMPOTENCY_STALE_MS = 60 * 1000

const PRINTABLE_ASCII = /^[\x20-\x7e]+$/

/**
 * Why an `Idempotency-Key` header value is refused, or `null` when it is fine: 1–255
 * characters of printable ASCII (space through `~`), e.g. a UUID.
 */
export function checkIdempotencyKey(key: string): ErrorDetail | null {
  const field = 'Idempotency-Key'
  if (key.length === 0) return { field, message: 'must not be empty' }
  if (key.length > IDEMPOTENCY_KEY_MAX_LENGTH) return { field, message: `must be at most ${IDEMPOTENCY_KEY_MAX_LENGTH} characters` }
  if (!PRINTABLE_ASCII.test(key)) return { field, message: 'must contain only printable ASCII characters' }
  return null
}

/**
 * The fingerprint a repeat of a request must match: SHA-256 of the *checked* body in a fixed
 * key order. Two bodies that create the same inquiry (keys in another order, extra
 * whitespace trimmed away, `priority` 2 given or defaulted, `null` or absent optionals) match;
 * any difference in what would be stored does not.
 */
export function inquiryRequestHash(input: InquiryInput): string {
  const canonical = [
    input.category_code,
    input.title,
    input.content,
    input.priority,
    input.inquirer_name,
    input.inquirer_email,
    input.inquirer_phone,
    input.inquirer_company,
    input.inquirer_department,
  ]
  return sha256Hex(`inquiry/v1 ${JSON.stringify(canonical)}`)
}
