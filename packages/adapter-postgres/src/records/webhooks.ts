import type { WebhookAttemptRecord, WebhookEndpointPatch, WebhookEndpointRecord, WebhookLease, WebhookReplayLease, WebhookStore } from '@frontdesk/core'
import type { Database } from '../connection/database.ts'
import { clientSql } from '../connection/database.ts'
import type { Sql } from '../connection/sql.ts'
import { selectEventAt, selectEvents } from './events.ts'

const COLUMNS =
  'id, tenant_id, url, events, secret, previous_secret, previous_secret_until, created_at, disabled_at, disabled_reason, cursor, attempts, next_attempt_at, failing_since'

type EndpointRow = Omit<WebhookEndpointRecord, 'events' | 'cursor'> & { events: string; cursor: string }

function toEndpoint(row: EndpointRow): WebhookEndpointRecord {
  return { ...row, events: JSON.parse(row.events) as string[], cursor: Number(row.cursor) }
}

/** The columns `WebhookEndpointPatch` may set. */
const PATCHABLE = ['secret', 'previous_secret', 'previous_secret_until', 'disabled_at', 'disabled_reason', 'cursor', 'attempts', 'next_attempt_at', 'failing_since']

async function updateEndpoint(sql: Sql, id: string, patch: WebhookEndpointPatch): Promise<boolean> {
  const entries = Object.entries(patch).filter(([column]) => PATCHABLE.includes(column))
  if (entries.length === 0) return (await sql.rows('SELECT 1 FROM webhook_endpoints WHERE id = $1', [id])).length > 0
  const sets = entries.map(([column], i) => `${column} = $${i + 2}`)
  return (await sql.run(`UPDATE webhook_endpoints SET ${sets.join(', ')} WHERE id = $1`, [id, ...entries.map(([, value]) => value as string | number | null)])) > 0
}

/**
 * Runs `work` in a transaction on a connection of its own: committed when it returns `true`,
 * rolled back when it returns `false` (a lease no longer held) or throws.
 */
function inTransaction(db: Database, work: (sql: Sql) => Promise<boolean>): Promise<boolean> {
  return db.connect(async (client) => {
    const sql = clientSql(client)
    await sql.run('BEGIN')
    try {
      const commit = await work(sql)
      await sql.run(commit ? 'COMMIT' : 'ROLLBACK')
      return commit
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined)
      throw error
    }
  })
}

/**
 * Webhook endpoints over PostgreSQL (see `WebhookStore`). A lease is taken with
 * `FOR UPDATE SKIP LOCKED`, so processes looking at once take different endpoints instead of
 * waiting for each other, and an attempt is logged under the lease's row lock. An endpoint is
 * created under `writerLock`, the content writers' lock (see `EventWriter.eventSubscriptions`).
 */
export function postgresWebhooks(db: Database, writerLock: string): WebhookStore {
  return {
    async createWebhookEndpoint(r) {
      await inTransaction(db, async (sql) => {
        await sql.run('SELECT pg_advisory_xact_lock($1)', [writerLock])
        await sql.run(`INSERT INTO webhook_endpoints (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)`, [
          r.id, r.tenant_id, r.url, JSON.stringify(r.events), r.secret, r.previous_secret, r.previous_secret_until, r.created_at, r.disabled_at,
          r.disabled_reason, r.cursor, r.attempts, r.next_attempt_at, r.failing_since,
        ])
        return true
      })
    },
    async getWebhookEndpoint(id) {
      const row = (await db.rows<EndpointRow>(`SELECT ${COLUMNS} FROM webhook_endpoints WHERE id = $1`, [id]))[0]
      return row === undefined ? null : toEndpoint(row)
    },
    async listWebhookEndpoints(tenantId) {
      return (await db.rows<EndpointRow>(`SELECT ${COLUMNS} FROM webhook_endpoints WHERE tenant_id = $1 ORDER BY id`, [tenantId])).map(toEndpoint)
    },
    updateWebhookEndpoint: (id, patch) => updateEndpoint(db, id, patch),
    async deleteWebhookEndpoint(id) {
      return (await db.run('DELETE FROM webhook_endpoints WHERE id = $1', [id])) > 0
    },
    async leaseWebhookEndpoint(owner, now, until, limit): Promise<WebhookLease | null> {
      const row = (
        await db.rows<EndpointRow>(
          `UPDATE webhook_endpoints SET lease_owner = $1, lease_until = $3
            WHERE id = (
              SELECT e.id FROM webhook_endpoints e
               WHERE e.disabled_at IS NULL AND (e.lease_until IS NULL OR e.lease_until <= $2) AND (e.next_attempt_at IS NULL OR e.next_attempt_at <= $2)
                 AND EXISTS (SELECT 1 FROM events v WHERE v.tenant_id = e.tenant_id AND v.seq > e.cursor)
               ORDER BY e.next_attempt_at NULLS FIRST, e.id
               LIMIT 1
               FOR UPDATE SKIP LOCKED)
          RETURNING ${COLUMNS}`,
          [owner, now, until],
        )
      )[0]
      if (row === undefined) return null
      const endpoint = toEndpoint(row)
      return { endpoint, events: await selectEvents(db, endpoint.cursor, limit, endpoint.tenant_id) }
    },
    finishWebhookAttempts(endpointId, owner, attempts, patch, release) {
      return inTransaction(db, async (sql) => {
        const held = (await sql.rows('SELECT 1 FROM webhook_endpoints WHERE id = $1 AND lease_owner = $2 FOR UPDATE', [endpointId, owner])).length > 0
        if (!held) return false
        if (attempts.length > 0) await insertAttempts(sql, attempts)
        await updateEndpoint(sql, endpointId, patch)
        if (release) await sql.run('UPDATE webhook_endpoints SET lease_owner = NULL, lease_until = NULL WHERE id = $1', [endpointId])
        return true
      })
    },
    async queueWebhookReplays(replays) {
      await db.run(
        `INSERT INTO webhook_replays (tenant_id, endpoint_id, event_seq, event_id, created_at)
         SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[], $4::text[], $5::text[])`,
        [replays.map((r) => r.tenant_id), replays.map((r) => r.endpoint_id), replays.map((r) => r.event_seq), replays.map((r) => r.event_id), replays.map((r) => r.created_at)],
      )
    },
    async leaseWebhookReplay(owner, now, until): Promise<WebhookReplayLease | null> {
      const row = (
        await db.rows<{ seq: string; tenant_id: string; endpoint_id: string; event_seq: string; event_id: string; created_at: string; attempts: number }>(
          `UPDATE webhook_replays SET lease_owner = $1, lease_until = $3
            WHERE seq = (
              SELECT r.seq FROM webhook_replays r
               WHERE (r.lease_until IS NULL OR r.lease_until <= $2) AND (r.next_attempt_at IS NULL OR r.next_attempt_at <= $2)
                 AND EXISTS (SELECT 1 FROM webhook_endpoints e WHERE e.id = r.endpoint_id AND e.disabled_at IS NULL)
               ORDER BY r.next_attempt_at NULLS FIRST, r.seq
               LIMIT 1
               FOR UPDATE SKIP LOCKED)
          RETURNING seq, tenant_id, endpoint_id, event_seq, event_id, created_at, attempts`,
          [owner, now, until],
        )
      )[0]
      if (row === undefined) return null
      const endpointRow = (await db.rows<EndpointRow>(`SELECT ${COLUMNS} FROM webhook_endpoints WHERE id = $1`, [row.endpoint_id]))[0]
      if (endpointRow === undefined) return null
      const event = await selectEventAt(db, Number(row.event_seq))
      return {
        id: Number(row.seq),
        replay: { tenant_id: row.tenant_id, endpoint_id: row.endpoint_id, event_seq: Number(row.event_seq), event_id: row.event_id, created_at: row.created_at },
        attempts: row.attempts,
        endpoint: toEndpoint(endpointRow),
        event: event?.tenant_id === row.tenant_id ? event : null,
      }
    },
    finishWebhookReplay(id, owner, attempt, next) {
      return inTransaction(db, async (sql) => {
        const held = (await sql.rows('SELECT 1 FROM webhook_replays WHERE seq = $1 AND lease_owner = $2 FOR UPDATE', [id, owner])).length > 0
        if (!held) return false
        if (attempt !== null) await insertAttempts(sql, [attempt])
        if (next === null) await sql.run('DELETE FROM webhook_replays WHERE seq = $1', [id])
        else await sql.run('UPDATE webhook_replays SET attempts = $2, next_attempt_at = $3, lease_owner = NULL, lease_until = NULL WHERE seq = $1', [id, next.attempts, next.next_attempt_at])
        return true
      })
    },
    async pruneWebhookHistory(tenantId, before, limit) {
      const rows = await db.rows<{ pruned: string }>(
        `WITH events_gone AS (
           DELETE FROM events WHERE seq IN (
             SELECT seq FROM (
               SELECT seq, created_at FROM events
                WHERE tenant_id = $1 AND seq <= coalesce((SELECT min(cursor) FROM webhook_endpoints WHERE tenant_id = $1), seq)
                  AND seq NOT IN (SELECT event_seq FROM webhook_replays WHERE tenant_id = $1)
                ORDER BY seq LIMIT $3) oldest
              WHERE created_at < $2)
           RETURNING 1),
         attempts_gone AS (
           DELETE FROM webhook_attempts WHERE seq IN (
             SELECT seq FROM (SELECT seq, at FROM webhook_attempts WHERE tenant_id = $1 ORDER BY seq LIMIT $3) oldest WHERE at < $2)
           RETURNING 1)
         SELECT (SELECT count(*) FROM events_gone) + (SELECT count(*) FROM attempts_gone) AS pruned`,
        [tenantId, before, Math.max(1, Math.floor(limit))],
      )
      return Number(rows[0]?.pruned ?? 0)
    },
    async listWebhookAttempts(tenantId, options) {
      const columns = 'tenant_id, endpoint_id, event_id, event_type, attempt, at, status, ok, duration_ms, error, next_attempt_at'
      const limit = Math.max(0, Math.floor(options.limit))
      return options.endpointId === undefined
        ? db.rows<WebhookAttemptRecord>(`SELECT ${columns} FROM webhook_attempts WHERE tenant_id = $1 ORDER BY seq DESC LIMIT $2`, [tenantId, limit])
        : db.rows<WebhookAttemptRecord>(`SELECT ${columns} FROM webhook_attempts WHERE tenant_id = $1 AND endpoint_id = $3 ORDER BY seq DESC LIMIT $2`, [tenantId, limit, options.endpointId])
    },
  }
}

/** Logs attempts in one statement, in order (`seq` follows the array's order: `WITH ORDINALITY`). */
async function insertAttempts(sql: Sql, attempts: readonly WebhookAttemptRecord[]): Promise<void> {
  await sql.run(
    `INSERT INTO webhook_attempts (tenant_id, endpoint_id, event_id, event_type, attempt, at, status, ok, duration_ms, error, next_attempt_at)
     SELECT tenant_id, endpoint_id, event_id, event_type, attempt, at, status, ok, duration_ms, error, next_attempt_at
       FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::int[], $6::text[], $7::int[], $8::boolean[], $9::int[], $10::text[], $11::text[])
            WITH ORDINALITY AS a(tenant_id, endpoint_id, event_id, event_type, attempt, at, status, ok, duration_ms, error, next_attempt_at, n)
      ORDER BY n`,
    [
      attempts.map((a) => a.tenant_id), attempts.map((a) => a.endpoint_id), attempts.map((a) => a.event_id), attempts.map((a) => a.event_type),
      attempts.map((a) => a.attempt), attempts.map((a) => a.at), attempts.map((a) => a.status), attempts.map((a) => a.ok),
      attempts.map((a) => Math.round(a.duration_ms)), attempts.map((a) => a.error), attempts.map((a) => a.next_attempt_at),
    ],
  )
}
