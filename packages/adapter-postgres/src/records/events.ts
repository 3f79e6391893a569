import type { EventType, OutboxEvent, StoredEvent } from '@frontdesk/core'
import { decodeEventData, encodeEventData } from '@frontdesk/core'
import type { Sql } from '../connection/sql.ts'

/*
 * The event outbox. Numbers (`seq`) come from `event_state.last_seq`, moved by
 * `UPDATE … RETURNING` in the writer's last statement before COMMIT: that row lock is held
 * until the writer has committed, so the next writer numbers after it, and `seq` order is
 * commit order (a sequence value taken earlier is not: see `change-feed.ts`).
 */

/** Events written per statement. */
const BATCH = 1_000

interface EventRow {
  seq: string
  tenant_id: string
  id: string
  type: EventType
  created_at: string
  data: string
}

const COLUMNS = 'seq, tenant_id, id, type, created_at, data'

function toEvent(row: EventRow): StoredEvent {
  return { seq: Number(row.seq), tenant_id: row.tenant_id, id: row.id, type: row.type, created_at: row.created_at, data: decodeEventData(row.data) }
}

/** Appends events, numbered after every committed one; call last before COMMIT (see above). */
export async function insertEvents(sql: Sql, events: readonly OutboxEvent[]): Promise<void> {
  for (let start = 0; start < events.length; start += BATCH) {
    const batch = events.slice(start, start + BATCH)
    const written = await sql.run(
      `WITH st AS (UPDATE event_state SET last_seq = last_seq + $1 RETURNING last_seq)
       INSERT INTO events (${COLUMNS})
       SELECT st.last_seq - $1 + e.n, e.tenant_id, e.id, e.type, e.created_at, e.data
         FROM st, unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[]) WITH ORDINALITY AS e(tenant_id, id, type, created_at, data, n)`,
      [batch.length, ...eventColumns(batch)],
    )
    if (written !== batch.length) throw new Error('event_state has no row: the outbox cannot number events')
  }
}

/** The columns of `events` as arrays, for `unnest`. */
export function eventColumns(events: readonly OutboxEvent[]): [string[], string[], string[], string[], string[]] {
  return [
    events.map((e) => e.tenant_id),
    events.map((e) => e.id),
    events.map((e) => e.type),
    events.map((e) => e.created_at),
    events.map((e) => encodeEventData(e.data)),
  ]
}

/** Events after `after` in commit order (see `EventOutbox.readEvents`). */
export async function selectEvents(sql: Sql, after: number, limit: number, tenantId?: string): Promise<StoredEvent[]> {
  const take = Math.max(1, Math.floor(limit))
  const rows = await sql.rows<EventRow>(
    tenantId === undefined
      ? `SELECT ${COLUMNS} FROM events WHERE seq > $1 ORDER BY seq LIMIT $2`
      : `SELECT ${COLUMNS} FROM events WHERE tenant_id = $3 AND seq > $1 ORDER BY seq LIMIT $2`,
    tenantId === undefined ? [after, take] : [after, take, tenantId],
  )
  return rows.map(toEvent)
}

/** The tenant's event with this id, or `null`. */
export async function selectEvent(sql: Sql, tenantId: string, id: string): Promise<StoredEvent | null> {
  const row = (await sql.rows<EventRow>(`SELECT ${COLUMNS} FROM events WHERE tenant_id = $1 AND id = $2`, [tenantId, id]))[0]
  return row === undefined ? null : toEvent(row)
}

/** The event at `seq`, or `null`. */
export async function selectEventAt(sql: Sql, seq: number): Promise<StoredEvent | null> {
  const row = (await sql.rows<EventRow>(`SELECT ${COLUMNS} FROM events WHERE seq = $1`, [seq]))[0]
  return row === undefined ? null : toEvent(row)
}

/** The greatest `seq` handed out (0 when none). */
export async function selectLastEventSeq(sql: Sql): Promise<number> {
  return Number((await sql.rows<{ last_seq: string }>('SELECT last_seq FROM event_state'))[0]?.last_seq ?? 0)
}

/** See `EventOutbox.newestPublications`: one index seek per tenant (`contents_by_published`), in one statement. */
export async function selectNewestPublications(sql: Sql, now: string): Promise<Map<string, string>> {
  const rows = await sql.rows<{ id: string; newest: string | null }>(
    `SELECT id, (SELECT max(published_at) FROM contents c WHERE c.tenant_id = t.id AND c.status = 'published' AND c.published_at <= $1) AS newest
       FROM tenants t`,
    [now],
  )
  return new Map(rows.flatMap((row) => (row.newest === null ? [] : [[row.id, row.newest] as const])))
}

/** The tenant's `scheduled_through`, or `null`. */
export async function selectScheduledThrough(sql: Sql, tenantId: string): Promise<string | null> {
  return (await sql.rows<{ scheduled_through: string }>('SELECT scheduled_through FROM event_schedule WHERE tenant_id = $1', [tenantId]))[0]?.scheduled_through ?? null
}

/**
 * The event type patterns of the tenant's endpoints, enabled or not (see
 * `EventWriter.eventSubscriptions`). Read under `WRITER_LOCK`, which `createWebhookEndpoint`
 * takes too, in a statement of its own after the lock was granted (READ COMMITTED: it sees
 * every endpoint committed before).
 */
export async function selectEventSubscriptions(sql: Sql, tenantId: string): Promise<string[]> {
  const rows = await sql.rows<{ events: string }>('SELECT events FROM webhook_endpoints WHERE tenant_id = $1', [tenantId])
  return rows.flatMap((row) => JSON.parse(row.events) as string[])
}

/** Sets the tenant's `scheduled_through`. */
export async function upsertScheduledThrough(sql: Sql, tenantId: string, at: string): Promise<void> {
  await sql.run(
    'INSERT INTO event_schedule (tenant_id, scheduled_through) VALUES ($1, $2) ON CONFLICT (tenant_id) DO UPDATE SET scheduled_through = excluded.scheduled_through',
    [tenantId, at],
  )
}
