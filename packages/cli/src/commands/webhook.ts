import type { Command } from 'commander'
import { InvalidArgumentError } from 'commander'
import type { Context, WebhookAttemptRecord, WebhookEndpointRecord } from '@frontdesk/core'
import {
  addWebhookEndpoint, checkWebhookUrl, deleteWebhookEndpoint, listWebhookDeliveries, listWebhookEndpoints, replayWebhookEvent, rotateWebhookSecret,
  setWebhookEndpointDisabled, UsageError,
} from '@frontdesk/core'
import type { CliEnv, CliOutput } from '../env.ts'
import { printJson, printTable } from '../output.ts'
import { runWithSession } from '../session.ts'
import { webhookSealingKey } from '../webhooks/sealing-key.ts'
import { checkTargetResolves } from '../webhooks/check-target.ts'

/** An endpoint as commands show it: everything but its sealed secrets and delivery state. */
export function publicEndpoint(record: WebhookEndpointRecord) {
  return {
    id: record.id, url: record.url, events: record.events, status: record.disabled_at === null ? 'enabled' : 'disabled',
    created_at: record.created_at, disabled_at: record.disabled_at, disabled_reason: record.disabled_reason,
  }
}

/** Options of `webhook add`. */
export interface WebhookAddOptions {
  tenant: string
  url: string
  events: string
  allowPrivateWebhookTargets?: boolean
  json?: boolean
}

/**
 * `frontdesk webhook add`: checks the URL (https, and, unless private targets are allowed,
 * that its name resolves to public addresses only), then adds the endpoint and prints its
 * signing secret once.
 */
export async function webhookAdd(ctx: Context, db: string, env: CliEnv, options: WebhookAddOptions, out: CliOutput) {
  const url = checkWebhookUrl(options.url)
  if (options.allowPrivateWebhookTargets !== true) await checkTargetResolves(url)
  const key = webhookSealingKey(db, env.vars, true)
  if (key === null) throw new UsageError('No webhook sealing key')
  const { record, secret } = await addWebhookEndpoint(ctx, key, { tenantCode: options.tenant, url, events: options.events })
  if (options.json) {
    printJson(out, { ...publicEndpoint(record), secret })
  } else {
    out.write(`Added webhook endpoint ${record.id} for tenant ${options.tenant}: ${record.url} (${record.events.join(', ')})\n\n  ${secret}\n\n`)
    out.write('Warning: this signing secret is shown only once. Give it to the receiver now (it verifies webhook-signature with it).\n')
  }
  return { record, secret }
}

/** `frontdesk webhook list --tenant CODE`. */
export async function webhookList(ctx: Context, options: { tenant: string; json?: boolean }, out: CliOutput) {
  const endpoints = await listWebhookEndpoints(ctx, options.tenant)
  if (options.json) {
    printJson(out, endpoints)
  } else {
    printTable(
      out,
      ['ID', 'URL', 'EVENTS', 'STATUS', 'PENDING', 'FAILED', 'NEXT ATTEMPT', 'FAILING SINCE'],
      endpoints.map((e) => [
        e.id, e.url, e.events.join(','), e.status === 'disabled' ? `disabled (${e.disabled_reason ?? ''})` : 'enabled', String(e.pending),
        String(e.failed), e.next_attempt_at ?? '-', e.failing_since ?? '-',
      ]),
      '(no webhook endpoints)',
    )
  }
  return endpoints
}

/** What `webhook disable|enable|delete` do. */
export type WebhookAction = 'disable' | 'enable' | 'delete'

/** `frontdesk webhook disable|enable|delete <endpoint-id>`. */
export async function webhookChange(ctx: Context, action: WebhookAction, id: string, options: { json?: boolean }, out: CliOutput) {
  const record = action === 'delete' ? await deleteWebhookEndpoint(ctx, id) : await setWebhookEndpointDisabled(ctx, id, action === 'disable')
  if (options.json) printJson(out, action === 'delete' ? { ...publicEndpoint(record), deleted: true } : publicEndpoint(record))
  else out.write(`${action === 'delete' ? 'Deleted' : action === 'disable' ? 'Disabled' : 'Enabled'} webhook endpoint ${record.id} (${record.url})\n`)
  return record
}

/** `frontdesk webhook rotate-secret <endpoint-id>`: prints the new secret once; the old one signs too for 24 h. */
export async function webhookRotate(ctx: Context, db: string, env: CliEnv, id: string, options: { json?: boolean }, out: CliOutput) {
  const key = webhookSealingKey(db, env.vars, true)
  if (key === null) throw new UsageError('No webhook sealing key')
  const { record, secret } = await rotateWebhookSecret(ctx, key, id)
  if (options.json) {
    printJson(out, { ...publicEndpoint(record), secret, previous_secret_until: record.previous_secret_until })
  } else {
    out.write(`New signing secret of webhook endpoint ${record.id}:\n\n  ${secret}\n\n`)
    out.write(`The previous secret keeps signing too until ${record.previous_secret_until ?? '-'}. This secret is shown only once.\n`)
  }
  return { record, secret }
}

/** `frontdesk webhook deliveries --tenant CODE [--endpoint ID] [--limit N]`: the attempt log, newest first. */
export async function webhookDeliveries(ctx: Context, options: { tenant: string; endpoint?: string; limit?: number; json?: boolean }, out: CliOutput) {
  const attempts = await listWebhookDeliveries(ctx, options.tenant, {
    ...(options.endpoint === undefined ? {} : { endpointId: options.endpoint }),
    ...(options.limit === undefined ? {} : { limit: options.limit }),
  })
  if (options.json) {
    printJson(out, attempts)
  } else {
    printTable(
      out,
      ['AT', 'ENDPOINT', 'EVENT', 'TYPE', 'ATTEMPT', 'STATUS', 'DURATION', 'RESULT', 'NEXT ATTEMPT'],
      attempts.map((a: WebhookAttemptRecord) => [
        a.at, a.endpoint_id, a.event_id, a.event_type, String(a.attempt), a.status === null ? '-' : String(a.status), `${a.duration_ms} ms`,
        a.ok ? 'delivered' : (a.error ?? 'failed'), a.next_attempt_at ?? '-',
      ]),
      '(no deliveries)',
    )
  }
  return attempts
}

/** Options of `webhook replay`. */
export interface WebhookReplayOptions {
  tenant: string
  endpoint?: string
  json?: boolean
}

/**
 * `frontdesk webhook replay <event-id> --tenant CODE [--endpoint ID]`: queues the event to be
 * sent again by `serve`'s delivery loop (retried on the schedule) and prints each replay queued.
 */
export async function webhookReplay(ctx: Context, eventId: string, options: WebhookReplayOptions, out: CliOutput) {
  const queued = await replayWebhookEvent(ctx, { tenantCode: options.tenant, eventId, ...(options.endpoint === undefined ? {} : { endpointId: options.endpoint }) })
  if (options.json) printJson(out, queued)
  else for (const q of queued) out.write(`Queued ${q.event_id} (${q.event_type}) for ${q.endpoint_id}: ${q.url}\n`)
  return queued
}

function parseLimit(text: string): number {
  if (!/^\d+$/.test(text) || Number(text) < 1 || Number(text) > 1000) throw new InvalidArgumentError('must be an integer from 1 to 1000')
  return Number(text)
}

/** Registers `webhook add|list|disable|enable|delete|rotate-secret|deliveries|replay`. */
export function register(program: Command, env: CliEnv): void {
  const webhook = program.command('webhook').description('manage the webhook endpoints events are delivered to')
  webhook
    .command('add')
    .description('add an endpoint and print its signing secret once')
    .requiredOption('--tenant <code>', 'tenant code')
    .requiredOption('--url <url>', 'https:// URL the events are POSTed to')
    .requiredOption('--events <list>', 'comma-separated event types: inquiry.created, content.published, content.updated, content.unpublished, content.deleted, content.*, *')
    .option('--allow-private-webhook-targets', 'allow a URL whose name resolves to a loopback or private address (serve must allow it too)')
    .option('--json', 'print the endpoint with its secret as JSON')
    .action((options: WebhookAddOptions, command: Command) => runWithSession(command, env, (s) => webhookAdd(s.ctx, s.path, env, options, env.stdout)))
  webhook
    .command('list')
    .description("list a tenant's endpoints with their pending and failed counts")
    .requiredOption('--tenant <code>', 'tenant code')
    .option('--json', 'print the endpoints as a JSON array')
    .action((options: { tenant: string; json?: boolean }, command: Command) => runWithSession(command, env, (s) => webhookList(s.ctx, options, env.stdout)))
  for (const action of ['disable', 'enable', 'delete'] as const) {
    webhook
      .command(`${action} <endpoint-id>`)
      .description(`${action} an endpoint`)
      .option('--json', 'print the endpoint as JSON')
      .action((id: string, options: { json?: boolean }, command: Command) => runWithSession(command, env, (s) => webhookChange(s.ctx, action, id, options, env.stdout)))
  }
  webhook
    .command('rotate-secret <endpoint-id>')
    .description('give an endpoint a new signing secret (printed once); the old one signs too for 24 h')
    .option('--json', 'print the endpoint with its new secret as JSON')
    .action((id: string, options: { json?: boolean }, command: Command) => runWithSession(command, env, (s) => webhookRotate(s.ctx, s.path, env, id, options, env.stdout)))
  webhook
    .command('deliveries')
    .description('the delivery log: event, attempt, status, duration, next attempt (newest first)')
    .requiredOption('--tenant <code>', 'tenant code')
    .option('--endpoint <id>', 'only this endpoint')
    .option('--limit <n>', 'at most this many attempts (default 50)', parseLimit)
    .option('--json', 'print the attempts as a JSON array')
    .action((options: { tenant: string; endpoint?: string; limit?: number; json?: boolean }, command: Command) =>
      runWithSession(command, env, (s) => webhookDeliveries(s.ctx, options, env.stdout)))
  webhook
    .command('replay <event-id>')
    .description('send an event again (same webhook-id), to one endpoint or every enabled one subscribed to it: serve delivers it, retried on the schedule')
    .requiredOption('--tenant <code>', 'tenant code')
    .option('--endpoint <id>', 'only this endpoint')
    .option('--json', 'print the replays queued as a JSON array')
    .action((eventId: string, options: WebhookReplayOptions, command: Command) =>
      runWithSession(command, env, (s) => webhookReplay(s.ctx, eventId, options, env.stdout)))
}
