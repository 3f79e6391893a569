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
  /**
   * Awaited before each attempt is sent: lets the host hold deliveries back while it is busy
   * answering requests (serve's `DeliveryPacer`). Absent: every attempt is sent at once.
   */
  pace?: () => Promise<void> | undefined
}

/** An endpoint's secrets opened once (per lease: opening one is a decryption), and those that sign at a moment. */
interface OpenedSecrets {
  at: (now: number) => string[]
}

function openedSecrets(sealingKey: Buffer, endpoint: WebhookEndpointRecord): OpenedSecrets {
  const current = [openSecret(sealingKey, endpoint.id, endpoint.secret)]
  if (endpoint.previous_secret === null || endpoint.previous_secret_until === null) return { at: () => current }
  const both = [...current, openSecret(sealingKey, endpoint.id, endpoint.previous_secret)]
  const until = Date.parse(endpoint.previous_secret_until)
  return { at: (now) => (until > now ? both : current) }
}

/** Events read per lease. */
const LEASE_EVENTS = 100
/** A lease's attempts are written together, this many at most… */
const RECORD_EVERY = 100
/** …or once this long has passed since the last write (what a crash may send again). */
const RECORD_EVERY_MS = 1_000

/** What became of one request. */
interface Sent {
  started: number
  ended: number
  response: WebhookResponse
  ok: boolean
  error: string | null
}

/** What an attempt leaves to write. */
interface Outcome {
  record: WebhookAttemptRecord
  patch: WebhookEndpointPatch
  disabled: boolean
  next: boolean
}

/** Attempts made and not yet written, with the endpoint's columns after them. */
interface Batch {
  attempts: Outcome[]
  patch: WebhookEndpointPatch
  since: number
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
 * Replays the operator queued (`replayWebhookEvent`) are leased and retried the same way, each
 * on its own. Beside the workers, it prunes the history past the retention every `pruneEveryMs`
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

  /**
   * Lets an idle worker look again at once (e.g. after this process committed an event). One,
   * not all: each look is a read, and a worker that finds an endpoint wakes the next.
   */
  poke(): void {
    this.#wake.shift()?.()
  }

  /** Stops after the attempts under way (each at most its send's timeout). */
  async stop(): Promise<void> {
    this.#stopped = true
    for (const wake of this.#wake.splice(0)) wake()
    for (const wake of this.#sleepers.splice(0)) wake()
    await Promise.all(this.#workers)
  }

  /** Deletes the history older than the retention (`pruneWebhookHistory`); how many rows went. */
  pruneOnce(): Promise<number> {
    const retentionMs = this.#options.retentionMs ?? DEFAULT_WEBHOOK_RETENTION_DAYS * 86_400_000
    return pruneWebhookHistory(this.#ctx, this.#webhooks, isoAt(this.#ctx.clock.now() - retentionMs), { stopped: () => this.#stopped })
  }

  /**
   * One pass of one worker: leases one due endpoint and delivers to it, or else makes the next
   * attempt of a due replay (`replayOnce`); `false` when neither was due. Events are sent one
   * after another (in order), but their attempts and the cursor's moves are written together,
   * once per `RECORD_EVERY` attempts or `RECORD_EVERY_MS`, at the first failure and at the
   * end: one store write per batch rather than per event. While the
   * lease lasts, the holder reads the events committed since (a read, not another lease), and
   * after each batch written it reads the endpoint again, so that a disable, a rotation or a
   * new subscription takes effect within a batch. A process that dies before a batch is
   * written has its events sent again by the next holder, with the same `webhook-id` (at least
   * once, as a death mid-attempt).
   */
  async deliverOnce(): Promise<boolean> {
    const now = this.#ctx.clock.now()
    const lease = await this.#webhooks.leaseWebhookEndpoint(this.#options.owner, isoAt(now), isoAt(now + this.#leaseMs), LEASE_EVENTS)
    if (lease === null) return this.replayOnce()
    let endpoint = lease.endpoint
    let secrets = openedSecrets(this.#options.sealingKey, endpoint)
    let state: WebhookEndpointRecord = endpoint
    const deadline = now + this.#leaseMs * 0.75
    let batch: Batch = { attempts: [], patch: {}, since: now }
    let events = lease.events
    while (events.length > 0) {
      for (const event of events) {
        if (this.#stopped || this.#ctx.clock.now() >= deadline) return this.#finish(endpoint, batch)
        if (!subscribesTo(endpoint.events, event.type)) {
          const skipped = { cursor: event.seq, attempts: 0, next_attempt_at: null }
          state = { ...state, ...skipped }
          batch.patch = { ...batch.patch, ...skipped }
          continue
        }
        const outcome = await this.#attempt(state, event, secrets)
        state = { ...state, ...outcome.patch }
        batch.attempts.push(outcome)
        batch.patch = { ...batch.patch, ...outcome.patch }
        if (!outcome.next) return this.#finish(endpoint, batch)
        if (batch.attempts.length >= RECORD_EVERY || this.#ctx.clock.now() - batch.since >= RECORD_EVERY_MS) {
          if (!(await this.#record(endpoint, batch, false))) return true
          batch = { attempts: [], patch: {}, since: this.#ctx.clock.now() }
          const fresh = await this.#webhooks.getWebhookEndpoint(endpoint.id)
          if (fresh === null || fresh.disabled_at !== null) return this.#finish(endpoint, batch)
          if (fresh.secret !== endpoint.secret || fresh.previous_secret !== endpoint.previous_secret) secrets = openedSecrets(this.#options.sealingKey, fresh)
          endpoint = fresh
          state = { ...fresh, cursor: state.cursor, attempts: state.attempts, next_attempt_at: state.next_attempt_at, failing_since: state.failing_since }
        }
      }
      if (this.#stopped) break
      events = await this.#ctx.store.readEvents(state.cursor, LEASE_EVENTS, endpoint.tenant_id)
    }
    return this.#finish(endpoint, batch)
  }

  /** Writes the last batch and releases the lease. */
  async #finish(endpoint: WebhookEndpointRecord, batch: Batch): Promise<true> {
    await this.#record(endpoint, batch, true)
    return true
  }

  /**
   * Writes a batch's attempts and the endpoint's state in one store write, then logs them;
   * `false` when the lease was lost (nothing written: another holder sends them again).
   */
  async #record(endpoint: WebhookEndpointRecord, batch: Batch, release: boolean): Promise<boolean> {
    const held = await this.#webhooks.finishWebhookAttempts(endpoint.id, this.#options.owner, batch.attempts.map((a) => a.record), batch.patch, release)
    if (!held) return false
    for (const { record, disabled } of batch.attempts) this.#options.onAttempt?.({ ...record, url: endpoint.url, disabled })
    return true
  }

  /** One attempt at `event`: what to log, the endpoint's columns after it, and whether to go on with the next event. */
  async #attempt(endpoint: WebhookEndpointRecord, event: StoredEvent, secrets: OpenedSecrets): Promise<Outcome> {
    const attempt = endpoint.attempts + 1
    const { started, ended, response, ok, error } = await this.#send(endpoint, event, secrets)
    let patch: WebhookEndpointPatch
    let nextAt: string | null = null
    let disabled = false
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
    return { record, patch, disabled, next: ok || (!disabled && nextAt === null) }
  }

  /** Sends `event` to `endpoint` once; never throws. */
  async #send(endpoint: WebhookEndpointRecord, event: StoredEvent, secrets: OpenedSecrets): Promise<Sent> {
    const paced = this.#options.pace?.()
    if (paced !== undefined) await paced
    const started = this.#ctx.clock.now()
    const body = webhookBody(event)
    let response: WebhookResponse
    try {
      // Hint: the timestamp is the wall clock's: receivers check it against theirs (replay protection).
      const headers = webhookHeaders(secrets.at(started), event.id, Math.floor(Date.now() / 1000), body)
      response = await this.#options.send({ url: endpoint.url, headers, body })
    } catch (error) {
      response = { status: null, error: error instanceof Error ? error.message : String(error) }
    }
    const ok = response.status !== null && response.status >= 200 && response.status < 300
    return { started, ended: this.#ctx.clock.now(), response, ok, error: ok ? null : (response.error ?? `HTTP ${response.status ?? '-'}`) }
  }

  /**
   * One replay asked by the operator (`replayWebhookEvent`), when no endpoint was due: leases a
   * due one, makes its next attempt and, in one write with the attempt's log, ends it
   * (delivered, given up after the retry schedule, or its event gone) or sets its next
   * attempt. Beside the endpoint's ordered stream: a replay waits for no event, and none waits
   * for it. `false` when none was due.
   */
  async replayOnce(): Promise<boolean> {
    const now = this.#ctx.clock.now()
    const lease = await this.#webhooks.leaseWebhookReplay(this.#options.owner, isoAt(now), isoAt(now + this.#leaseMs))
    if (lease === null) return false
    const { endpoint, event } = lease
    if (event === null) {
      await this.#webhooks.finishWebhookReplay(lease.id, this.#options.owner, null, null)
      return true
    }
    const attempt = lease.attempts + 1
    const { started, ended, response, ok, error } = await this.#send(endpoint, event, openedSecrets(this.#options.sealingKey, endpoint))
    const pause = ok ? null : retryPause(attempt, this.#options.random)
    const nextAt = pause === null ? null : isoAt(ended + pause)
    const record: WebhookAttemptRecord = {
      tenant_id: endpoint.tenant_id, endpoint_id: endpoint.id, event_id: event.id, event_type: event.type, attempt, at: isoAt(started),
      status: response.status, ok, duration_ms: ended - started, error, next_attempt_at: nextAt,
    }
    const held = await this.#webhooks.finishWebhookReplay(lease.id, this.#options.owner, record, nextAt === null ? null : { attempts: attempt, next_attempt_at: nextAt })
    if (held) this.#options.onAttempt?.({ ...record, url: endpoint.url, disabled: false })
    return true
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
      if (busy) this.poke()
      if (busy || this.#stopped) continue
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, this.#options.pollMs ?? 200)
        const wake = this.#wake
        function done(): void {
          clearTimeout(timer)
          const at = wake.indexOf(done)
          if (at >= 0) wake.splice(at, 1)
          resolve()
        }
        wake.push(done)
      })
    }
  }
}
