import { isoAt } from '../app/clock.ts'
import type { Context } from '../app/context.ts'
import { requireTenant } from '../admin/require-tenant.ts'
import { UsageError } from '../errors/frontdesk-error.ts'
import { EVENT_TYPES, parseEventPatterns, subscribesTo } from '../events/event-types.ts'
import type { WebhookAttemptRecord, WebhookEndpointRecord, WebhookStore } from '../port/webhook-store.ts'
import { newId } from '../util/ids.ts'
import { RETRY_PAUSES_MS } from './retry-schedule.ts'
import { newWebhookSecret, sealSecret } from './secret-box.ts'

/** How long the secret before a rotation keeps signing beside the new one. */
export const ROTATION_OVERLAP_MS = 86_400_000

/** The store's webhook endpoints; a `UsageError` when the store keeps none. */
export function webhookStore(ctx: Context): WebhookStore {
  const webhooks = ctx.store.webhooks
  if (webhooks === undefined) throw new UsageError('This store keeps no webhook endpoints')
  return webhooks
}

/**
 * Checks a webhook URL: absolute `https://` with a host, no user name or password (they would
 * be sent in the clear in logs and listings), at most 2,000 characters. Whether its address is
 * allowed is checked when connecting (see the delivery's address guard). Returns it normalised.
 */
export function checkWebhookUrl(text: string): string {
  let url: URL
  try {
    url = new URL(text)
  } catch {
    throw new UsageError(`Invalid webhook URL: ${text} (give an absolute https:// URL)`)
  }
  if (url.protocol !== 'https:') throw new UsageError(`Invalid webhook URL: ${text} (only https:// URLs are allowed)`)
  if (url.hostname === '') throw new UsageError(`Invalid webhook URL: ${text} (no host)`)
  if (url.username !== '' || url.password !== '') throw new UsageError(`Invalid webhook URL: ${text} (no user name or password in the URL)`)
  if (text.length > 2000) throw new UsageError('Invalid webhook URL: longer than 2,000 characters')
  url.hash = ''
  return url.href
}

/** Checks `--events`: a comma-separated list of types or groups (`content.*`, `*`). */
export function checkEventPatterns(list: string): string[] {
  const parsed = parseEventPatterns(list.split(','))
  if (!parsed.ok) throw new UsageError(`Unknown event type: ${parsed.bad === '' ? '(none)' : parsed.bad.trim()} (known: ${EVENT_TYPES.join(', ')}, content.*, *)`)
  return parsed.value
}

/**
 * Adds an endpoint to a tenant; returns it with its signing secret, which is shown this once
 * (the store keeps it sealed under `sealingKey`). The endpoint receives the events committed
 * from now on.
 */
export async function addWebhookEndpoint(
  ctx: Context,
  sealingKey: Buffer,
  input: { tenantCode: string; url: string; events: string },
): Promise<{ record: WebhookEndpointRecord; secret: string }> {
  const url = checkWebhookUrl(input.url)
  const events = checkEventPatterns(input.events)
  const tenant = await requireTenant(ctx, input.tenantCode)
  const webhooks = webhookStore(ctx)
  const now = ctx.clock.now()
  const id = newId('whe', now)
  const secret = newWebhookSecret()
  const record: WebhookEndpointRecord = {
    id, tenant_id: tenant.id, url, events, secret: sealSecret(sealingKey, id, secret), previous_secret: null, previous_secret_until: null,
    created_at: isoAt(now), disabled_at: null, disabled_reason: null, cursor: await ctx.store.lastEventSeq(), attempts: 0,
    next_attempt_at: null, failing_since: null,
  }
  await webhooks.createWebhookEndpoint(record)
  return { record, secret }
}

/** The endpoint with this id; a `UsageError` when there is none. */
export async function requireWebhookEndpoint(ctx: Context, id: string): Promise<WebhookEndpointRecord> {
  const endpoint = await webhookStore(ctx).getWebhookEndpoint(id)
  if (endpoint === null) throw new UsageError(`Unknown webhook endpoint: ${id}`)
  return endpoint
}

/** What `webhook list` shows of an endpoint: its record (no secrets) and its counts. */
export interface WebhookEndpointSummary {
  id: string
  url: string
  events: string[]
  status: 'enabled' | 'disabled'
  disabled_reason: string | null
  created_at: string
  /** Events committed and not yet delivered or given up (counted up to 10,000). */
  pending: number
  /** Events given up after the last retry, among the newest 1,000 attempts. */
  failed: number
  next_attempt_at: string | null
  failing_since: string | null
}

/** The tenant's endpoints with their counts. */
export async function listWebhookEndpoints(ctx: Context, tenantCode: string): Promise<WebhookEndpointSummary[]> {
  const tenant = await requireTenant(ctx, tenantCode)
  const webhooks = webhookStore(ctx)
  const summaries: WebhookEndpointSummary[] = []
  for (const endpoint of await webhooks.listWebhookEndpoints(tenant.id)) {
    let pending = 0
    let after = endpoint.cursor
    while (pending < 10_000) {
      const events = await ctx.store.readEvents(after, 1000, tenant.id)
      pending += events.filter((event) => subscribesTo(endpoint.events, event.type)).length
      const last = events.at(-1)
      if (events.length < 1000 || last === undefined) break
      after = last.seq
    }
    const attempts = await webhooks.listWebhookAttempts(tenant.id, { endpointId: endpoint.id, limit: 1000 })
    summaries.push({
      id: endpoint.id, url: endpoint.url, events: endpoint.events, status: endpoint.disabled_at === null ? 'enabled' : 'disabled',
      disabled_reason: endpoint.disabled_reason, created_at: endpoint.created_at, pending,
      failed: attempts.filter((a) => !a.ok && a.attempt > RETRY_PAUSES_MS.length).length,
      next_attempt_at: endpoint.next_attempt_at, failing_since: endpoint.failing_since,
    })
  }
  return summaries
}

/**
 * Disables or enables an endpoint. Enabling resumes delivery where it stopped (the events
 * committed meanwhile come in order), with a fresh retry count.
 */
export async function setWebhookEndpointDisabled(ctx: Context, id: string, disabled: boolean): Promise<WebhookEndpointRecord> {
  const endpoint = await requireWebhookEndpoint(ctx, id)
  if ((endpoint.disabled_at !== null) === disabled) return endpoint
  const patch = disabled
    ? { disabled_at: isoAt(ctx.clock.now()), disabled_reason: 'disabled by the operator' }
    : { disabled_at: null, disabled_reason: null, attempts: 0, next_attempt_at: null, failing_since: null }
  if (!(await webhookStore(ctx).updateWebhookEndpoint(id, patch))) throw new UsageError(`Unknown webhook endpoint: ${id}`)
  return { ...endpoint, ...patch }
}

/** Deletes an endpoint and its log; returns what was deleted. */
export async function deleteWebhookEndpoint(ctx: Context, id: string): Promise<WebhookEndpointRecord> {
  const endpoint = await requireWebhookEndpoint(ctx, id)
  if (!(await webhookStore(ctx).deleteWebhookEndpoint(id))) throw new UsageError(`Unknown webhook endpoint: ${id}`)
  return endpoint
}

/**
 * Gives an endpoint a new signing secret, shown this once; the current one keeps signing
 * beside it for 24 hours (`ROTATION_OVERLAP_MS`), so that receivers can switch without losing
 * a delivery.
 */
export async function rotateWebhookSecret(ctx: Context, sealingKey: Buffer, id: string): Promise<{ record: WebhookEndpointRecord; secret: string }> {
  const endpoint = await requireWebhookEndpoint(ctx, id)
  const secret = newWebhookSecret()
  const patch = {
    secret: sealSecret(sealingKey, id, secret),
    previous_secret: endpoint.secret,
    previous_secret_until: isoAt(ctx.clock.now() + ROTATION_OVERLAP_MS),
  }
  if (!(await webhookStore(ctx).updateWebhookEndpoint(id, patch))) throw new UsageError(`Unknown webhook endpoint: ${id}`)
  return { record: { ...endpoint, ...patch }, secret }
}

/** A replay as `replayWebhookEvent` queued it. */
export interface QueuedReplay {
  endpoint_id: string
  url: string
  event_id: string
  event_type: string
  queued_at: string
}

/**
 * Queues one event of the tenant to be sent again, to one endpoint or to every enabled endpoint
 * of the tenant subscribed to its type, with the same `webhook-id` (receivers deduplicate on
 * it). The delivery loop of `serve` sends it within its poll and retries it on the delivery
 * schedule (`retry-schedule.ts`) until delivered or given up; each attempt is in the log. The
 * queue is in the store: a crash loses no replay. A disabled endpoint is refused (a replay
 * waits for an enabled one: enable it first).
 */
export async function replayWebhookEvent(ctx: Context, input: { tenantCode: string; eventId: string; endpointId?: string }): Promise<QueuedReplay[]> {
  const tenant = await requireTenant(ctx, input.tenantCode)
  const webhooks = webhookStore(ctx)
  const event = await ctx.store.getEvent(tenant.id, input.eventId)
  if (event === null) throw new UsageError(`Unknown event: ${input.eventId}`)
  let endpoints: WebhookEndpointRecord[]
  if (input.endpointId !== undefined) {
    const endpoint = await requireWebhookEndpoint(ctx, input.endpointId)
    if (endpoint.tenant_id !== tenant.id) throw new UsageError(`Unknown webhook endpoint: ${input.endpointId}`)
    if (endpoint.disabled_at !== null) throw new UsageError(`Webhook endpoint ${endpoint.id} is disabled: enable it before replaying to it`)
    endpoints = [endpoint]
  } else {
    endpoints = (await webhooks.listWebhookEndpoints(tenant.id)).filter((e) => e.disabled_at === null && subscribesTo(e.events, event.type))
    if (endpoints.length === 0) throw new UsageError(`No enabled endpoint of tenant ${input.tenantCode} subscribes to ${event.type}`)
  }
  const queuedAt = isoAt(ctx.clock.now())
  await webhooks.queueWebhookReplays(endpoints.map((e) => ({ tenant_id: tenant.id, endpoint_id: e.id, event_seq: event.seq, event_id: event.id, created_at: queuedAt })))
  return endpoints.map((e) => ({ endpoint_id: e.id, url: e.url, event_id: event.id, event_type: event.type, queued_at: queuedAt }))
}

/** The newest delivery attempts of a tenant (of one endpoint when given), newest first. */
export async function listWebhookDeliveries(ctx: Context, tenantCode: string, options: { endpointId?: string; limit?: number } = {}): Promise<WebhookAttemptRecord[]> {
  const tenant = await requireTenant(ctx, tenantCode)
  if (options.endpointId !== undefined) {
    const endpoint = await requireWebhookEndpoint(ctx, options.endpointId)
    if (endpoint.tenant_id !== tenant.id) throw new UsageError(`Unknown webhook endpoint: ${options.endpointId}`)
  }
  return webhookStore(ctx).listWebhookAttempts(tenant.id, { ...(options.endpointId === undefined ? {} : { endpointId: options.endpointId }), limit: options.limit ?? 50 })
}
