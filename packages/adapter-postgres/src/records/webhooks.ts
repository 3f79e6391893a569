import type { WebhookAttemptRecord, WebhookEndpointPatch, WebhookEndpointRecord, WebhookLease, WebhookStore } from '@frontdesk/core'
import type { Database } from '../connection/database.ts'
import { clientSql } from '../connection/database.ts'
import type { Sql } from '../connection/sql.ts'
import { selectEvents } from './events.ts'

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
 * Webhook endpoints over PostgreSQL (see `WebhookStore`). A lease is taken with
 * `FOR UPDATE SKIP LOCKED`, so processes looking at once take different endpoints instead of
 * waiting for each other, and an attempt is logged under the lease's row lock. An endpoint is
 * created under `writerLock`, the content writers' lock (see `EventWriter.eventSubscriptions`).
 */
export function postgresWebhooks(db: Database, writerLock: string): WebhookStore {
  return {
    createWebhookEndpoint(r) {
      return db.connect(async (client) => {
        const sql = clientSql(client)
        await sql.run('BEGIN')
        try {
          await sql.run('SELECT pg_advisory_xact_lock($1)', [writerLock])
          await sql.run(`INSERT INTO webhook_endpoints (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)`, [
            r.id, r.tenant_id, r.url, JSON.stringify(r.events), r.secret, r.previous_secret, r.previous_secret_until, r.created_at, r.disabled_at,
            r.disabled_reason, r.cursor, r.attempts, r.next_attempt_at, r.failing_since,
          ])
          await sql.run('COMMIT')
        } catch (error) {
          await client.query('ROLLBACK').catch(() => undefined)
          throw error
        }
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
    finishWebhookAttempt(endpointId, owner, attempt, patch, release) {
      return db.connect(async (client) => {
        const sql = clientSql(client)
        await sql.run('BEGIN')
        try {
          const held = (await sql.rows('SELECT 1 FROM webhook_endpoints WHERE id = $1 AND lease_owner = $2 FOR UPDATE', [endpointId, owner])).length > 0
          if (!held) {
            await sql.run('ROLLBACK')
            return false
          }
          if (attempt !== null) await insertAttempt(sql, attempt)
          await updateEndpoint(sql, endpointId, patch)
          if (release) await sql.run('UPDATE webhook_endpoints SET lease_owner = NULL, lease_until = NULL WHERE id = $1', [endpointId])
          await sql.run('COMMIT')
          return true
        } catch (error) {
          await client.query('ROLLBACK').catch(() => undefined)
          throw error
        }
      })
    },
    recordWebhookAttempt: (attempt) => insertAttempt(db, attempt),
    async pruneWebhookHistory(tenantId, before, limit) {
      const rows = await db.rows<{ pruned: string }>(
        `WITH events_gone AS (
           DELETE FROM events WHERE seq IN (
             SELECT seq FROM (
               SELECT seq, created_at FROM events
                WHERE tenant_id = $1 AND seq <= coalesce((SELECT min(cursor) FROM webhook_endpoints WHERE tenant_id = $1), seq)
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

async function insertAttempt(sql: Sql, a: WebhookAttemptRecord): Promise<void> {
  await sql.run(
    'INSERT INTO webhook_attempts (tenant_id, endpoint_id, event_id, event_type, attempt, at, status, ok, duration_ms, error, next_attempt_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)',
    [a.tenant_id, a.endpoint_id, a.event_id, a.event_type, a.attempt, a.at, a.status, a.ok, Math.round(a.duration_ms), a.error, a.next_attempt_at],
  )
}
