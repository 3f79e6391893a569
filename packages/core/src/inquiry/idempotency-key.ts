import type { ErrorDetail } from '../errors/frontdesk-error.ts'
import { IdempotencyError } from '../errors/frontdesk-error.ts'
import { sha256Hex } from '../util/sha256.ts'
import type { InquiryInput } from './inquiry-input.ts'

/** The longest `Idempotency-Key` accepted (README "Inquiries"). */
export const IDEMPOTENCY_KEY_MAX_LENGTH = 255

/** How long a completed key replays its response: 24 hours (README "Inquiries"). */
export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000

/**
 * The lease of an in-flight claim. A request holds its claim for milliseconds, and renews it
 * every `IDEMPOTENCY_RENEW_MS` while it runs longer (a write waiting for a lock); a claim not
 * renewed for this long belongs to a process that died mid-request (`kill -9`, a crash, a lost
 * machine) and is taken over by the next request with the key. Its holder, should it be alive
 * after all (stalled for longer than the lease), can no longer complete it: its inquiry is not
 * stored and it answers `IDEMPOTENCY_IN_PROGRESS`, so a key never creates two inquiries.
 */
export const IDEMPOTENCY_LEASE_MS = 5_000

/** How often a running request renews its claim: several renewals fit in one lease. */
export const IDEMPOTENCY_RENEW_MS = 1_000

/**
 * The error of a request whose key is held by another request: one in flight, or one that took
 * the claim over after this request's lease ran out (what `InquiryStore.insertInquiry` rejects
 * with then). `retryAfter`: whole seconds until a retry may find the key free or completed.
 */
export function idempotencyInProgress(retryAfter = 1): IdempotencyError {
  return new IdempotencyError('IDEMPOTENCY_IN_PROGRESS', 'A request with this Idempotency-Key is still being processed', { retryAfter })
}

/**
 * Whole seconds until a claim last renewed at `renewedAt` loses its lease, as of `now` (ms):
 * when a retry can take it over should its holder have died. At least 1, at most the lease
 * (however far another machine's clock is off).
 */
export function leaseLeftSeconds(renewedAt: string, now: number): number {
  const left = Date.parse(renewedAt) + IDEMPOTENCY_LEASE_MS - now
  return Math.min(IDEMPOTENCY_LEASE_MS / 1000, Math.max(1, Math.ceil(left / 1000)))
}

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
