import { isoAt } from '../app/clock.ts'
import type { Context } from '../app/context.ts'
import { subscribesTo } from '../events/event-types.ts'
import type { StoredEvent } from '../port/event-outbox.ts'
import type { WebhookAttemptRecord, WebhookEndpointPatch, WebhookEndpointRecord, WebhookStore } from '../port/webhook-store.ts'
import { DEFAULT_WEBHOOK_RETENTION_DAYS, pruneWebhookHistory } from './prune-history.ts'
import { DISABLE_AFTER_MS, retryPause } from './retry-schedule.ts'
import { openSecret } from './secret-box.ts'
import { webhookHeaders } from './signature.ts'

/** One HTTP request of a delivery, as `WebhookDeliveryOptions.send` makes it. */
export interface WebhookRequest {
  url: string
  headers: Record<string, string>
  body: string
}

/** What became of a request: a status (any), or no response and why. */
export interface WebhookResponse {
  status: number | null
  error: string | null
}

/** Options of `WebhookDeliverer`. */
export interface WebhookDeliveryOptions {
  /** The key secrets are sealed under (see `secret-box.ts`). */
  sealingKey: Buffer
  /** Sends one request (HTTPS, address checks, timeout, no redirects: the caller's transport). Must not throw. */
  send: (request: WebhookRequest) => Promise<WebhookResponse>
  /** Names this process's leases (unique per process). */
  owner: string
  /** How long a lease lasts: a process that dies holding one delays its endpoint this long. Default 60 s. */
  leaseMs?: number
  /** Endpoints delivered to at once (one slow endpoint occupies one). Default 8. */
  concurrency?: number
  /** How often an idle worker looks for due endpoints. Default 200 ms. */
  pollMs?: number
  /** Each attempt, for the log. */
  onAttempt?: (attempt: WebhookAttemptRecord & { url: string; disabled: boolean }) => void
  /** A failure of the store (retried at the next poll). */
  onError?: (error: unknown) => void
  /** How long delivered events and attempts are kept (`pruneWebhookHistory`). Default 30 days. */
  retentionMs?: number
  /** How often the history is pruned. Default 10 minutes (the first time one minute after the start). */
  pruneEveryMs?: number
  /** Jitter's randomness (tests). */
  random?: () => number
}

/** The secrets that sign at `now`: the endpoint's current one, and the previous one during a rotation. */
export function signingSecrets(sealingKey: Buffer, endpoint: WebhookEndpointRecord, now: number): string[] {
  const secrets = [openSecret(sealingKey, endpoint.id, endpoint.secret)]
  if (endpoint.previous_secret !== null && endpoint.previous_secret_until !== null && Date.parse(endpoint.previous_secret_until) > now) {
    secrets.push(openSecret(sealingKey, endpoint.id, endpoint.previous_secret))
  }
  return secrets
}

/**
 * Sends `event` to `endpoint` once, as a delivery would (same `webhook-id`, body and
 * signatures), and returns the attempt (`attempt` 0) for the log; never throws.
 */
export async function sendWebhookEvent(
  sealingKey: Buffer,
  endpoint: WebhookEndpointRecord,
  event: StoredEvent,
  send: (request: WebhookRequest) => Promise<WebhookResponse>,
  clock: () => number,
): Promise<WebhookAttemptRecord> {
  const started = clock()
  const body = webhookBody(event)
  let response: WebhookResponse
  try {
    response = await send({ url: endpoint.url, headers: webhookHeaders(signingSecrets(sealingKey, endpoint, started), event.id, Math.floor(Date.now() / 1000), body), body })
  } catch (error) {
    response = { status: null, error: error instanceof Error ? error.message : String(error) }
  }
  const ok = response.status !== null && response.status >= 200 && response.status < 300
  return {
    tenant_id: endpoint.tenant_id, endpoint_id: endpoint.id, event_id: event.id, event_type: event.type, attempt: 0, at: isoAt(started),
    status: response.status, ok, duration_ms: clock() - started, error: ok ? null : (response.error ?? `HTTP ${response.status ?? '-'}`), next_attempt_at: null,
  }
}

/** The body of a delivery (Standard Webhooks): `{ type, timestamp, data }`. */
export function webhookBody(event: StoredEvent): string {
  return JSON.stringify({ type: event.type, timestamp: event.created_at, data: event.data })
}

/**
 * Delivers the outbox's events to the endpoints: `concurrency` workers each lease a due
 * endpoint (`WebhookStore.leaseWebhookEndpoint`: one holder per endpoint, whichever process),
 * send its events after its cursor in commit order, each until it succeeds (a 2xx) or is given
 * up after the retry schedule (`retry-schedule.ts`), then release it. A failed attempt releases
 * the endpoint until its next attempt is due; an endpoint failing for 5 days is disabled. Every
 * attempt of an event carries the event's id as `webhook-id`; a process that dies mid-attempt
 * leaves the event to whoever leases the endpoint after its lease ran out: at least once.
 * Beside the workers, it prunes the history past the retention every `pruneEveryMs`
 * (`pruneWebhookHistory`).
 */
export class WebhookDeliverer {
  readonly #ctx: Context
  readonly #webhooks: WebhookStore
  readonly #options: WebhookDeliveryOptions
  readonly #leaseMs: number
  #workers: Promise<void>[] = []
  #stopped = false
  #wake: (() => void)[] = []
  #sleepers: (() => void)[] = []

  constructor(ctx: Context, webhooks: WebhookStore, options: WebhookDeliveryOptions) {
    this.#ctx = ctx
    this.#webhooks = webhooks
    this.#options = options
    this.#leaseMs = options.leaseMs ?? 60_000
  }

  /** Starts the workers. */
  start(): void {
    for (let i = 0; i < (this.#options.concurrency ?? 8); i++) this.#workers.push(this.#work())
    this.#workers.push(this.#prune())
  }

  /** Lets idle workers look again at once (e.g. after this process committed an event). */
  poke(): void {
    for (const wake of this.#wake.splice(0)) wake()
  }

  /** Stops after the attempts under way (each at most its send's timeout). */
  async stop(): Promise<void> {
    this.#stopped = true
    this.poke()
    for (const wake of this.#sleepers.splice(0)) wake()
    await Promise.all(this.#workers)
  }

  /** Deletes the history older than the retention (`pruneWebhookHistory`); how many rows went. */
  pruneOnce(): Promise<number> {
    const retentionMs = this.#options.retentionMs ?? DEFAULT_WEBHOOK_RETENTION_DAYS * 86_400_000
    return pruneWebhookHistory(this.#ctx, this.#webhooks, isoAt(this.#ctx.clock.now() - retentionMs), { stopped: () => this.#stopped })
  }

  /** One pass of one worker: leases one due endpoint and delivers to it; `false` when none was due. */
  async deliverOnce(): Promise<boolean> {
    const now = this.#ctx.clock.now()
    const lease = await this.#webhooks.leaseWebhookEndpoint(this.#options.owner, isoAt(now), isoAt(now + this.#leaseMs), 100)
    if (lease === null) return false
    const { endpoint } = lease
    let state: WebhookEndpointRecord = endpoint
    const deadline = now + this.#leaseMs * 0.75
    let skipped: WebhookEndpointPatch | null = null
    for (const event of lease.events) {
      if (this.#stopped || this.#ctx.clock.now() >= deadline) break
      if (!subscribesTo(endpoint.events, event.type)) {
        skipped = { cursor: event.seq, attempts: 0, next_attempt_at: null }
        state = { ...state, ...skipped }
        continue
      }
      const outcome = await this.#attempt(state, event)
      if (outcome === null) return true
      state = { ...state, ...outcome.patch }
      skipped = null
      if (!outcome.next) return true
    }
    await this.#webhooks.finishWebhookAttempt(endpoint.id, this.#options.owner, null, skipped ?? {}, true)
    return true
  }

  /** One attempt at `event`; the patch written, and whether to go on with the next event (`null`: the lease was lost). */
  async #attempt(endpoint: WebhookEndpointRecord, event: StoredEvent): Promise<{ patch: WebhookEndpointPatch; next: boolean } | null> {
    const started = this.#ctx.clock.now()
    const attempt = endpoint.attempts + 1
    const body = webhookBody(event)
    let response: WebhookResponse
    try {
      // Hint: the timestamp is the wall clock's: receivers check it against theirs (replay protection).
      const headers = webhookHeaders(this.#secrets(endpoint, started), event.id, Math.floor(Date.now() / 1000), body)
      response = await this.#options.send({ url: endpoint.url, headers, body })
    } catch (error) {
      response = { status: null, error: error instanceof Error ? error.message : String(error) }
    }
    const ended = this.#ctx.clock.now()
    const ok = response.status !== null && response.status >= 200 && response.status < 300
    let patch: WebhookEndpointPatch
    let nextAt: string | null = null
    let disabled = false
    const error = ok ? null : (response.error ?? `HTTP ${response.status ?? '-'}`)
    if (ok) {
      patch = { cursor: event.seq, attempts: 0, next_attempt_at: null, failing_since: null }
    } else {
      const failingSince = endpoint.failing_since ?? isoAt(started)
      const pause = retryPause(attempt, this.#options.random)
      if (ended - Date.parse(failingSince) >= DISABLE_AFTER_MS) {
        disabled = true
        patch = {
          failing_since: failingSince, attempts: attempt, next_attempt_at: null, disabled_at: isoAt(ended),
          disabled_reason: `every attempt failed since ${failingSince} (5 days); last: ${error}`,
        }
      } else if (pause === null) {
        // Given up: the next event is tried at once (it may succeed: the receiver may refuse one event only).
        patch = { cursor: event.seq, attempts: 0, next_attempt_at: null, failing_since: failingSince }
      } else {
        nextAt = isoAt(ended + pause)
        patch = { attempts: attempt, next_attempt_at: nextAt, failing_since: failingSince }
      }
    }
    const record: WebhookAttemptRecord = {
      tenant_id: endpoint.tenant_id, endpoint_id: endpoint.id, event_id: event.id, event_type: event.type, attempt, at: isoAt(started),
      status: response.status, ok, duration_ms: ended - started, error, next_attempt_at: nextAt,
    }
    const goOn = ok || (!disabled && nextAt === null)
    const held = await this.#webhooks.finishWebhookAttempt(endpoint.id, this.#options.owner, record, patch, !goOn)
    if (!held) return null
    this.#options.onAttempt?.({ ...record, url: endpoint.url, disabled })
    return { patch, next: goOn }
  }

  #secrets(endpoint: WebhookEndpointRecord, now: number): string[] {
    return signingSecrets(this.#options.sealingKey, endpoint, now)
  }

  async #prune(): Promise<void> {
    const every = this.#options.pruneEveryMs ?? 600_000
    await this.#sleep(Math.min(every, 60_000))
    while (!this.#stopped) {
      try {
        await this.pruneOnce()
      } catch (error) {
        this.#options.onError?.(error)
      }
      await this.#sleep(every)
    }
  }

  /** Waits `ms`, or until `stop`. */
  #sleep(ms: number): Promise<void> {
    if (this.#stopped) return Promise.resolve()
    return new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms)
      const sleepers = this.#sleepers
      function done(): void {
        clearTimeout(timer)
        const at = sleepers.indexOf(done)
        if (at >= 0) sleepers.splice(at, 1)
        resolve()
      }
      sleepers.push(done)
    })
  }

  async #work(): Promise<void> {
    while (!this.#stopped) {
      let busy = false
      try {
        busy = await this.deliverOnce()
      } catch (error) {
        this.#options.onError?.(error)
      }
      if (busy || this.#stopped) continue
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, this.#options.pollMs ?? 200)
        function done(): void {
          clearTimeout(timer)
          resolve()
        }
        this.#wake.push(done)
      })
    }
  }
}
