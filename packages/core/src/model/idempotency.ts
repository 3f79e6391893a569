import type { JsonValue } from './json.ts'

/** The response stored for an `Idempotency-Key`, replayed on a repeat. */
export interface StoredResponse {
  status: number
  body: JsonValue
}

/** What claiming an idempotency key found. */
export type IdempotencyClaim =
  /** Nobody held the key (or it had expired): the caller now holds it. */
  | { state: 'claimed' }
  /** An earlier request holds it and has not finished. */
  | { state: 'in_flight' }
  /** An earlier request finished with this request hash and response. */
  | { state: 'completed'; request_hash: string; response: StoredResponse }
