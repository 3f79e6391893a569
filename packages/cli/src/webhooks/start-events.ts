import { randomBytes } from 'node:crypto'
import { hostname } from 'node:os'
import type { Context, WebhookAttemptRecord } from '@frontdesk/core'
import { DueContentAnnouncer, WebhookDeliverer } from '@frontdesk/core'
import { isPostgresUrl } from '../session.ts'
import { DeliveryPacer } from './delivery-pacer.ts'
import { webhookSealingKey } from './sealing-key.ts'
import { sendWebhook } from './send-webhook.ts'

/** How often a process without the webhook key looks for endpoints it cannot deliver to, and how often it says so. */
const UNKEYED_CHECK_MS = 60_000
const UNKEYED_REMINDER_MS = 3_600_000
/** How often a SQLite process started before the database's webhook key file existed looks for it. */
const KEY_FILE_CHECK_MS = 1_000

/** What `serve` runs for events, per process (see `startEvents`). */
export interface EventOptions {
  /** Allow loopback and private webhook targets (`--allow-private-webhook-targets`). */
  allowPrivate: boolean
  /** Days delivered events and attempts are kept (`--webhook-retention-days`); default `DEFAULT_WEBHOOK_RETENTION_DAYS`. */
  retentionDays?: number
  /** Environment variables: `FRONTDESK_WEBHOOK_KEY`, `FRONTDESK_WEBHOOK_LEASE_MS`. */
  vars: Readonly<Record<string, string | undefined>>
  /** A JSON line per delivery attempt (the access log's sibling). */
  onLine: (line: string) => void
  /** A trouble worth telling the operator (stderr). */
  onTrouble: (message: string) => void
}

/**
 * Starts, in a serving process, the announcer of scheduled publications and the webhook
 * delivery workers (when the store keeps webhook endpoints). Every process of a database may
 * run them at once: the store's transactions and leases make each announcement and each
 * attempt happen once. `poke` wakes the deliverer at once (after this process committed an
 * event, unless the API is busy; other processes' events are found by polling, every 200 ms).
 * `noteRequest` counts an API request (its `answered` called when its response is done), so
 * that deliveries give way while the API is busy (`DeliveryPacer`).
 */
export function startEvents(ctx: Context, dbPath: string, options: EventOptions): { stop: () => Promise<void>; poke: () => void; noteRequest: () => { answered: () => void } | undefined } {
  let reported = 0
  const trouble = (what: string) => (error: unknown) => {
    if (Date.now() - reported < 60_000) return
    reported = Date.now()
    options.onTrouble(`frontdesk: ${what}: ${error instanceof Error ? error.message : String(error)}`)
  }
  const announcer = new DueContentAnnouncer(ctx, { onError: trouble('announcing scheduled publications failed (retrying)') })
  announcer.start()
  let deliverer: WebhookDeliverer | null = null
  const webhooks = ctx.store.webhooks
  const pacer = webhooks === undefined ? null : new DeliveryPacer()
  const key = webhooks === undefined ? null : webhookSealingKey(dbPath, options.vars, false)
  // Hint: without the key, a PostgreSQL process cannot open the secrets; that is worth saying
  // only once there is an enabled endpoint to deliver to (an operator without webhooks needs no
  // key), and again every hour while it lasts.
  let unkeyed: ReturnType<typeof setInterval> | null = null
  if (webhooks !== undefined && key === null && isPostgresUrl(dbPath)) {
    let said = 0
    const check = async () => {
      if (Date.now() - said < UNKEYED_REMINDER_MS) return
      for (const tenant of await ctx.store.listTenants()) {
        if (!(await webhooks.listWebhookEndpoints(tenant.id)).some((endpoint) => endpoint.disabled_at === null)) continue
        said = Date.now()
        options.onTrouble('frontdesk: webhooks are not delivered by this process: set FRONTDESK_WEBHOOK_KEY (the key their secrets are sealed under)')
        return
      }
    }
    void check().catch(() => undefined)
    unkeyed = setInterval(() => void check().catch(() => undefined), UNKEYED_CHECK_MS)
    unkeyed.unref()
  }
  const deliver = (sealingKey: Buffer, store: NonNullable<typeof webhooks>) => {
    const lease = Number(options.vars['FRONTDESK_WEBHOOK_LEASE_MS'] ?? '')
    deliverer = new WebhookDeliverer(ctx, store, {
      sealingKey,
      owner: `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`,
      ...(Number.isSafeInteger(lease) && lease > 0 ? { leaseMs: lease } : {}),
      ...(options.retentionDays === undefined ? {} : { retentionMs: options.retentionDays * 86_400_000 }),
      send: (request) => sendWebhook(request, { allowPrivate: options.allowPrivate }),
      ...(pacer === null ? {} : { pace: () => pacer.pace() }),
      onAttempt: (attempt) => options.onLine(webhookLogLine(attempt)),
      onError: trouble('webhook delivery failed (retrying)'),
    })
    deliverer.start()
  }
  if (webhooks !== undefined && key !== null) deliver(key, webhooks)
  // Hint: a SQLite database's key file is made by the first `webhook add`, often after serve started: delivery starts once it exists.
  let keyless: ReturnType<typeof setInterval> | null = null
  if (webhooks !== undefined && key === null && !isPostgresUrl(dbPath)) {
    keyless = setInterval(() => {
      let found: Buffer | null = null
      try {
        found = webhookSealingKey(dbPath, options.vars, false)
      } catch {
        // Hint: a file being written right now reads short; the next look finds it whole.
      }
      if (found === null || keyless === null) return
      clearInterval(keyless)
      keyless = null
      deliver(found, webhooks)
    }, KEY_FILE_CHECK_MS)
    keyless.unref()
  }
  return {
    async stop() {
      if (keyless !== null) clearInterval(keyless)
      keyless = null
      if (unkeyed !== null) clearInterval(unkeyed)
      await announcer.stop()
      await deliverer?.stop()
      pacer?.close()
    },
    // Hint: a busy API's commits do not each send a worker looking for due endpoints (a lease is a write beside the
    // API's own): the events are found by the next poll, within 200 ms, or read by the endpoint's holder.
    poke: () => {
      if (pacer?.busy !== true) deliverer?.poke()
    },
    noteRequest: () => pacer?.noteRequest(),
  }
}

/** The log line of one delivery attempt: JSON, `"log":"webhook"` telling it from access-log lines. */
export function webhookLogLine(attempt: WebhookAttemptRecord & { url: string; disabled: boolean }): string {
  return `${JSON.stringify({
    time: new Date().toISOString(), log: 'webhook', tenant_id: attempt.tenant_id, endpoint_id: attempt.endpoint_id, url: attempt.url,
    event_id: attempt.event_id, event_type: attempt.event_type, attempt: attempt.attempt, status: attempt.status, ok: attempt.ok,
    duration_ms: attempt.duration_ms, error: attempt.error, next_attempt_at: attempt.next_attempt_at,
    ...(attempt.disabled ? { disabled: true } : {}),
  })}\n`
}
