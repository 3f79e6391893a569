import type { StoredEvent } from './event-outbox.ts'

/** A webhook endpoint of a tenant, as stored. */
export interface WebhookEndpointRecord {
  /** `whe_…`, globally unique. */
  id: string
  tenant_id: string
  /** `https://…`. */
  url: string
  /** Event type patterns it subscribes to (`inquiry.created`, `content.*`, `*`). */
  events: string[]
  /** The signing secret, sealed (`secret-box.ts`): the store never holds it in the clear. */
  secret: string
  /** The secret before the last rotation, sealed; it signs too until `previous_secret_until`. */
  previous_secret: string | null
  previous_secret_until: string | null
  created_at: string
  disabled_at: string | null
  /** Why it was disabled (by the operator, or after failing for 5 days). */
  disabled_reason: string | null
  /** The `seq` of the last event handled (delivered, given up, or not subscribed). */
  cursor: number
  /** Attempts made at the event after `cursor` (0: none yet). */
  attempts: number
  /** When the next attempt is due; `null`: at once. */
  next_attempt_at: string | null
  /** Since when every attempt has failed; `null` after a success. */
  failing_since: string | null
}

/** One delivery attempt, as the log keeps it. */
export interface WebhookAttemptRecord {
  tenant_id: string
  endpoint_id: string
  event_id: string
  event_type: string
  /** 1 for the first attempt at the event (or at a replay of it), 2 for its first retry, and so on. */
  attempt: number
  /** When the attempt started. */
  at: string
  /** The HTTP status received, `null` when none (refused, timed out, reset, bad certificate). */
  status: number | null
  ok: boolean
  duration_ms: number
  /** Why it failed, `null` when it did not. */
  error: string | null
  /** When the event is tried again; `null` when it will not be (delivered or given up). */
  next_attempt_at: string | null
}

/** What a delivering process gets with a lease: the endpoint and the next events after its cursor. */
export interface WebhookLease {
  endpoint: WebhookEndpointRecord
  events: StoredEvent[]
}

/** A replay asked by the operator: one event again to one endpoint, retried on the delivery schedule. */
export interface WebhookReplayRecord {
  tenant_id: string
  endpoint_id: string
  /** The event's place in the outbox (it is kept from pruning while the replay waits) and its id. */
  event_seq: number
  event_id: string
  created_at: string
}

/** What a delivering process gets with a replay's lease: the replay, its endpoint and its event (`null` when it is gone). */
export interface WebhookReplayLease {
  /** The replay's number (its queue position). */
  id: number
  replay: WebhookReplayRecord
  /** Attempts made at it so far. */
  attempts: number
  endpoint: WebhookEndpointRecord
  event: StoredEvent | null
}

/** The columns of an endpoint that `updateWebhookEndpoint` and `finishWebhookAttempts` set. */
export type WebhookEndpointPatch = Partial<Pick<WebhookEndpointRecord,
  'secret' | 'previous_secret' | 'previous_secret_until' | 'disabled_at' | 'disabled_reason' | 'cursor' | 'attempts' | 'next_attempt_at' | 'failing_since'>>

/**
 * Webhook endpoints and their delivery state (`Store.webhooks`; a store without it cannot
 * deliver webhooks). Rules (checked by `testWebhookStore`):
 * - Endpoints are tenant-scoped; ids are globally unique.
 * - `leaseWebhookEndpoint` gives each endpoint to one holder at a time: an endpoint leased
 *   until some moment is given to nobody else before it, whichever process asks.
 * - `finishWebhookAttempts` logs the attempts and sets the endpoint's columns only while the
 *   lease is the caller's; a lease that ran out (its holder was too slow or died) is another's.
 */
export interface WebhookStore {
  createWebhookEndpoint(record: WebhookEndpointRecord): Promise<void>
  getWebhookEndpoint(id: string): Promise<WebhookEndpointRecord | null>
  /** Ordered by creation (id). */
  listWebhookEndpoints(tenantId: string): Promise<WebhookEndpointRecord[]>
  /** `false` when there is no such endpoint. */
  updateWebhookEndpoint(id: string, patch: WebhookEndpointPatch): Promise<boolean>
  /** Deletes the endpoint and its log; `false` when there was none. */
  deleteWebhookEndpoint(id: string): Promise<boolean>
  /**
   * Leases to `owner` until `until` one enabled endpoint that is not leased at `now`, whose next
   * attempt is due at `now`, and that has events of its tenant after its cursor; returns it with
   * up to `limit` of those events (in commit order), or `null` when none is due.
   */
  leaseWebhookEndpoint(owner: string, now: string, until: string, limit: number): Promise<WebhookLease | null>
  /**
   * Logs `attempts` (in this order: a lease's, made one after another) and sets `patch` on the
   * endpoint, in one transaction, if `owner` still holds its lease; `release` ends the lease.
   * `false` (nothing written) when it does not.
   */
  finishWebhookAttempts(endpointId: string, owner: string, attempts: readonly WebhookAttemptRecord[], patch: WebhookEndpointPatch, release: boolean): Promise<boolean>
  /** Queues replays, each due at once (one row each: see `WebhookReplayRecord`). */
  queueWebhookReplays(replays: readonly WebhookReplayRecord[]): Promise<void>
  /**
   * Leases to `owner` until `until` one replay that is not leased at `now`, whose next attempt
   * is due at `now` and whose endpoint is enabled, the longest-waiting first; `null` when none is.
   */
  leaseWebhookReplay(owner: string, now: string, until: string): Promise<WebhookReplayLease | null>
  /**
   * Logs `attempt` (when given) and, in the same transaction, ends the replay (`next` `null`:
   * delivered, given up or its event gone) or sets its next attempt and releases it, if
   * `owner` still holds its lease. `false` (nothing written) when it does not.
   */
  finishWebhookReplay(id: number, owner: string, attempt: WebhookAttemptRecord | null, next: { attempts: number; next_attempt_at: string } | null): Promise<boolean>
  /**
   * Deletes, in one short write, the tenant's events created before `before` that every
   * endpoint of the tenant has handled (`seq` ≤ its cursor; all of them when it has none) and
   * no queued replay waits for, and
   * its attempts made before `before`, looking only at its oldest `limit` rows of each (rows
   * come roughly in time order), so that a call costs at most that. Returns how many rows
   * went: 0 when nothing is left to prune.
   */
  pruneWebhookHistory(tenantId: string, before: string, limit: number): Promise<number>
  /** The newest `limit` attempts of the tenant (of one endpoint when given), newest first. */
  listWebhookAttempts(tenantId: string, options: { endpointId?: string; limit: number }): Promise<WebhookAttemptRecord[]>
}
