import type { WebhookAttemptRecord, WebhookEndpointPatch, WebhookEndpointRecord, WebhookLease, WebhookReplayLease, WebhookReplayRecord } from '@frontdesk/core'
import type { Connection } from '../connection/statement-cache.ts'
import { selectEventAt, selectEvents } from './events.ts'

const COLUMNS =
  'id, tenant_id, url, events, secret, previous_secret, previous_secret_until, created_at, disabled_at, disabled_reason, cursor, attempts, next_attempt_at, failing_since'

type EndpointRow = Omit<WebhookEndpointRecord, 'events'> & { events: string }

function toEndpoint(row: EndpointRow): WebhookEndpointRecord {
  return { ...row, events: JSON.parse(row.events) as string[] }
}

/** The columns `WebhookEndpointPatch` may set. */
const PATCHABLE = new Set(['secret', 'previous_secret', 'previous_secret_until', 'disabled_at', 'disabled_reason', 'cursor', 'attempts', 'next_attempt_at', 'failing_since'])

export function insertEndpoint(conn: Connection, r: WebhookEndpointRecord): void {
  conn
    .prepare(`INSERT INTO webhook_endpoints (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
    .run(r.id, r.tenant_id, r.url, JSON.stringify(r.events), r.secret, r.previous_secret, r.previous_secret_until, r.created_at, r.disabled_at, r.disabled_reason, r.cursor, r.attempts, r.next_attempt_at, r.failing_since)
}

export function selectEndpoint(conn: Connection, id: string): WebhookEndpointRecord | null {
  const row = conn.prepare(`SELECT ${COLUMNS} FROM webhook_endpoints WHERE id = ?`).get(id) as EndpointRow | undefined
  return row === undefined ? null : toEndpoint(row)
}

export function selectEndpoints(conn: Connection, tenantId: string): WebhookEndpointRecord[] {
  return (conn.prepare(`SELECT ${COLUMNS} FROM webhook_endpoints WHERE tenant_id = ? ORDER BY id`).all(tenantId) as EndpointRow[]).map(toEndpoint)
}

/** Sets the patch's columns (where `extra` holds too); `true` when a row was changed. */
export function updateEndpoint(conn: Connection, id: string, patch: WebhookEndpointPatch, extra = '', extraParams: unknown[] = []): boolean {
  const entries = Object.entries(patch).filter(([column]) => PATCHABLE.has(column))
  const sets = entries.map(([column]) => `${column} = ?`)
  if (sets.length === 0) sets.push('id = id')
  return conn.prepare(`UPDATE webhook_endpoints SET ${sets.join(', ')} WHERE id = ?${extra}`).run(...entries.map(([, value]) => value), id, ...extraParams).changes > 0
}

export function deleteEndpoint(conn: Connection, id: string): boolean {
  return conn.prepare('DELETE FROM webhook_endpoints WHERE id = ?').run(id).changes > 0
}

const DUE = `disabled_at IS NULL AND (lease_until IS NULL OR lease_until <= ?) AND (next_attempt_at IS NULL OR next_attempt_at <= ?)
  AND EXISTS (SELECT 1 FROM events v WHERE v.tenant_id = webhook_endpoints.tenant_id AND v.seq > webhook_endpoints.cursor)`

/** The id of an endpoint due at `now` (see `WebhookStore.leaseWebhookEndpoint`), the longest-waiting first. */
export function selectDueEndpoint(conn: Connection, now: string): string | null {
  return (conn.prepare(`SELECT id FROM webhook_endpoints WHERE ${DUE} ORDER BY coalesce(next_attempt_at, ''), id LIMIT 1`).pluck().get(now, now) as string | undefined) ?? null
}

/** Leases the endpoint `id` if it is still due (run under the write lock). */
export function leaseEndpoint(conn: Connection, id: string, owner: string, now: string, until: string, limit: number): WebhookLease | null {
  const changed = conn.prepare(`UPDATE webhook_endpoints SET lease_owner = ?, lease_until = ? WHERE id = ? AND ${DUE}`).run(owner, until, id, now, now).changes
  if (changed === 0) return null
  const endpoint = selectEndpoint(conn, id)
  if (endpoint === null) return null
  return { endpoint, events: selectEvents(conn, endpoint.cursor, limit, endpoint.tenant_id) }
}

/** See `WebhookStore.finishWebhookAttempts` (run under the write lock). */
export function finishAttempts(conn: Connection, endpointId: string, owner: string, attempts: readonly WebhookAttemptRecord[], patch: WebhookEndpointPatch, release: boolean): boolean {
  const held = conn.prepare('SELECT 1 FROM webhook_endpoints WHERE id = ? AND lease_owner = ?').get(endpointId, owner) !== undefined
  if (!held) return false
  for (const attempt of attempts) insertAttempt(conn, attempt)
  updateEndpoint(conn, endpointId, patch)
  if (release) conn.prepare('UPDATE webhook_endpoints SET lease_owner = NULL, lease_until = NULL WHERE id = ?').run(endpointId)
  return true
}

/** The tenant's events every endpoint of it has handled (see `WebhookStore.pruneWebhookHistory`): their oldest `limit`, of which those from before `before`. */
const PRUNABLE_EVENTS = `SELECT seq FROM (
    SELECT seq, created_at FROM events
     WHERE tenant_id = @tenant AND seq <= coalesce((SELECT min(cursor) FROM webhook_endpoints WHERE tenant_id = @tenant), seq)
       AND seq NOT IN (SELECT event_seq FROM webhook_replays WHERE tenant_id = @tenant)
     ORDER BY seq LIMIT @limit)
  WHERE created_at < @before`
const PRUNABLE_ATTEMPTS = 'SELECT seq FROM (SELECT seq, at FROM webhook_attempts WHERE tenant_id = @tenant ORDER BY seq LIMIT @limit) WHERE at < @before'

/** Whether `pruneHistory` would delete anything (a read, so that a pass with nothing to prune takes no write lock). */
export function hasHistoryToPrune(conn: Connection, tenantId: string, before: string, limit: number): boolean {
  return conn.prepare(`SELECT EXISTS (${PRUNABLE_EVENTS}) OR EXISTS (${PRUNABLE_ATTEMPTS})`).pluck().get({ tenant: tenantId, before, limit }) === 1
}

/** See `WebhookStore.pruneWebhookHistory` (run under the write lock). */
export function pruneHistory(conn: Connection, tenantId: string, before: string, limit: number): number {
  const events = conn.prepare(`DELETE FROM events WHERE seq IN (${PRUNABLE_EVENTS})`).run({ tenant: tenantId, before, limit }).changes
  return events + conn.prepare(`DELETE FROM webhook_attempts WHERE seq IN (${PRUNABLE_ATTEMPTS})`).run({ tenant: tenantId, before, limit }).changes
}

/** Queues replays (see `WebhookStore.queueWebhookReplays`; run under the write lock). */
export function insertReplays(conn: Connection, replays: readonly WebhookReplayRecord[]): void {
  const insert = conn.prepare('INSERT INTO webhook_replays (tenant_id, endpoint_id, event_seq, event_id, created_at) VALUES (?, ?, ?, ?, ?)')
  for (const r of replays) insert.run(r.tenant_id, r.endpoint_id, r.event_seq, r.event_id, r.created_at)
}

const REPLAY_DUE = `(r.lease_until IS NULL OR r.lease_until <= @now) AND (r.next_attempt_at IS NULL OR r.next_attempt_at <= @now)
  AND EXISTS (SELECT 1 FROM webhook_endpoints e WHERE e.id = r.endpoint_id AND e.disabled_at IS NULL)`

/** The number of a replay due at `now` (see `WebhookStore.leaseWebhookReplay`), the longest-waiting first. */
export function selectDueReplay(conn: Connection, now: string): number | null {
  return (conn.prepare(`SELECT seq FROM webhook_replays r WHERE ${REPLAY_DUE} ORDER BY coalesce(r.next_attempt_at, ''), r.seq LIMIT 1`).pluck().get({ now }) as number | undefined) ?? null
}

type ReplayRow = WebhookReplayRecord & { seq: number; attempts: number }

/** Leases the replay `seq` if it is still due (run under the write lock). */
export function leaseReplay(conn: Connection, seq: number, owner: string, now: string, until: string): WebhookReplayLease | null {
  const changed = conn.prepare(`UPDATE webhook_replays AS r SET lease_owner = @owner, lease_until = @until WHERE seq = @seq AND ${REPLAY_DUE}`).run({ owner, until, seq, now }).changes
  if (changed === 0) return null
  const row = conn.prepare('SELECT seq, tenant_id, endpoint_id, event_seq, event_id, created_at, attempts FROM webhook_replays WHERE seq = ?').get(seq) as ReplayRow | undefined
  const endpoint = row === undefined ? null : selectEndpoint(conn, row.endpoint_id)
  if (row === undefined || endpoint === null) return null
  const { seq: id, attempts, ...replay } = row
  const event = selectEventAt(conn, row.event_seq)
  return { id, replay, attempts, endpoint, event: event?.tenant_id === row.tenant_id ? event : null }
}

/** See `WebhookStore.finishWebhookReplay` (run under the write lock). */
export function finishReplay(conn: Connection, seq: number, owner: string, attempt: WebhookAttemptRecord | null, next: { attempts: number; next_attempt_at: string } | null): boolean {
  const held = conn.prepare('SELECT 1 FROM webhook_replays WHERE seq = ? AND lease_owner = ?').get(seq, owner) !== undefined
  if (!held) return false
  if (attempt !== null) insertAttempt(conn, attempt)
  if (next === null) conn.prepare('DELETE FROM webhook_replays WHERE seq = ?').run(seq)
  else conn.prepare('UPDATE webhook_replays SET attempts = ?, next_attempt_at = ?, lease_owner = NULL, lease_until = NULL WHERE seq = ?').run(next.attempts, next.next_attempt_at, seq)
  return true
}

/** Logs an attempt. */
export function insertAttempt(conn: Connection, a: WebhookAttemptRecord): void {
  conn
    .prepare('INSERT INTO webhook_attempts (tenant_id, endpoint_id, event_id, event_type, attempt, at, status, ok, duration_ms, error, next_attempt_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)')
    .run(a.tenant_id, a.endpoint_id, a.event_id, a.event_type, a.attempt, a.at, a.status, a.ok ? 1 : 0, Math.round(a.duration_ms), a.error, a.next_attempt_at)
}

type AttemptRow = Omit<WebhookAttemptRecord, 'ok'> & { ok: number }

export function selectAttempts(conn: Connection, tenantId: string, options: { endpointId?: string; limit: number }): WebhookAttemptRecord[] {
  const columns = 'tenant_id, endpoint_id, event_id, event_type, attempt, at, status, ok, duration_ms, error, next_attempt_at'
  const limit = Math.max(0, Math.floor(options.limit))
  const rows = (
    options.endpointId === undefined
      ? conn.prepare(`SELECT ${columns} FROM webhook_attempts WHERE tenant_id = ? ORDER BY seq DESC LIMIT ?`).all(tenantId, limit)
      : conn.prepare(`SELECT ${columns} FROM webhook_attempts WHERE tenant_id = ? AND endpoint_id = ? ORDER BY seq DESC LIMIT ?`).all(tenantId, options.endpointId, limit)
  ) as AttemptRow[]
  return rows.map((row) => ({ ...row, ok: row.ok !== 0 }))
}
