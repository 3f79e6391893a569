import type { JsonValue } from './json.ts'

/** The response stored for an `Idempotency-Key`, replayed on a repeat. */
export interface StoredResponse {
  status: number
  body: JsonValue
}

/**
 * The terms of a claim on an idempotency key (see `InquiryStore.claimIdempotencyKey`): who
 * claims, when, and the times before which a record no longer counts.
 */
export interface IdempotencyClaimTerms {
  /** A token of the claiming request, unique to it: only its holder renews, completes or releases a claim. */
  holder: string
  now: string
  /** A record claimed (or last renewed) before this is past the 24 h window and counts as absent. */
  expiredBefore: string
  /** An in-flight claim last renewed before this has lost its lease (its holder died) and is taken over. */
  staleBefore: string
}

/** What claiming an idempotency key found. */
export type IdempotencyClaim =
  /** Nobody held the key (or it had expired): the caller now holds it. */
  | { state: 'claimed' }
  /** An earlier request holds it and has not finished; `renewed_at`: when it claimed or last renewed it. */
  | { state: 'in_flight'; renewed_at: string }
  /** An earlier request finished with this request hash and response. */
  | { state: 'completed'; request_hash: string; response: StoredResponse }
