import type { EventType, OutboxEvent, StoredEvent } from '@frontdesk/core'
import { decodeEventData, encodeEventData } from '@frontdesk/core'
import type { Connection } from '../connection/statement-cache.ts'

type EventRow = [seq: number, tenant_id: string, id: string, type: EventType, created_at: string, data: string]

const COLUMNS = 'seq, tenant_id, id, type, created_at, data'

function toEvent([seq, tenant_id, id, type, created_at, data]: EventRow): StoredEvent {
  return { seq, tenant_id, id, type, created_at, data: decodeEventData(data) }
}

/** Rows per `INSERT` of many events (an import's): one statement run instead of 64. */
const ROWS = 64
const insertSql = (rows: number) => `INSERT INTO events (tenant_id, id, type, created_at, data) VALUES ${Array(rows).fill('(?, ?, ?, ?, ?)').join(', ')}`
// Hint: built once: the statement cache is keyed by the text, hashed and compared whole on every lookup.
const INSERT_MANY = insertSql(ROWS)
const INSERT_ONE = insertSql(1)

/** Appends events in order (inside the open write transaction: `seq` order is commit order). */
export function insertEvents(conn: Connection, events: readonly OutboxEvent[]): void {
  let start = 0
  for (; start + ROWS <= events.length; start += ROWS) conn.prepare(INSERT_MANY).run(eventParams(events, start, ROWS))
  if (start < events.length) {
    const one = conn.prepare(INSERT_ONE)
    for (; start < events.length; start++) one.run(eventParams(events, start, 1))
  }
}

function eventParams(events: readonly OutboxEvent[], start: number, count: number): unknown[] {
  const params: unknown[] = []
  for (let i = start; i < start + count; i++) {
    const event = events[i] as OutboxEvent
    params.push(event.tenant_id, event.id, event.type, event.created_at, encodeEventData(event.data))
  }
  return params
}

/** Events after `after` in commit order (see `EventOutbox.readEvents`). */
export function selectEvents(conn: Connection, after: number, limit: number, tenantId?: string): StoredEvent[] {
  const take = Math.max(1, Math.floor(limit))
  const rows = (
    tenantId === undefined
      ? conn.prepare(`SELECT ${COLUMNS} FROM events WHERE seq > ? ORDER BY seq LIMIT ?`).raw(true).all(after, take)
      : conn.prepare(`SELECT ${COLUMNS} FROM events WHERE tenant_id = ? AND seq > ? ORDER BY seq LIMIT ?`).raw(true).all(tenantId, after, take)
  ) as EventRow[]
  return rows.map(toEvent)
}

/** The tenant's event with this id, or `null`. */
export function selectEvent(conn: Connection, tenantId: string, id: string): StoredEvent | null {
  const row = conn.prepare(`SELECT ${COLUMNS} FROM events WHERE tenant_id = ? AND id = ?`).raw(true).get(tenantId, id) as EventRow | undefined
  return row === undefined ? null : toEvent(row)
}

/** The event at `seq`, or `null`. */
export function selectEventAt(conn: Connection, seq: number): StoredEvent | null {
  const row = conn.prepare(`SELECT ${COLUMNS} FROM events WHERE seq = ?`).raw(true).get(seq) as EventRow | undefined
  return row === undefined ? null : toEvent(row)
}

/** The greatest `seq` ever given (0 when none). */
export function selectLastEventSeq(conn: Connection): number {
  return conn.prepare(`SELECT coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'events'), 0)`).pluck().get() as number
}

/** See `EventOutbox.newestPublications`: one index seek per tenant (`contents_by_published`), in one statement. */
export function selectNewestPublications(conn: Connection, now: string): Map<string, string> {
  const rows = conn
    .prepare(
      `SELECT id, (SELECT max(published_at) FROM contents c WHERE c.tenant_id = t.id AND c.status = 'published' AND c.published_at <= ?) AS newest
         FROM tenants t`,
    )
    .raw(true)
    .all(now) as [string, string | null][]
  return new Map(rows.filter((row): row is [string, string] => row[1] !== null))
}

/** The tenant's `scheduled_through`, or `null`. */
export function selectScheduledThrough(conn: Connection, tenantId: string): string | null {
  return (conn.prepare('SELECT scheduled_through FROM event_schedule WHERE tenant_id = ?').pluck().get(tenantId) as string | undefined) ?? null
}

/** The event type patterns of the tenant's endpoints, enabled or not (see `EventWriter.eventSubscriptions`). */
export function selectEventSubscriptions(conn: Connection, tenantId: string): string[] {
  const lists = conn.prepare('SELECT events FROM webhook_endpoints WHERE tenant_id = ?').pluck().all(tenantId) as string[]
  return lists.flatMap((list) => JSON.parse(list) as string[])
}

/** Sets the tenant's `scheduled_through`. */
export function upsertScheduledThrough(conn: Connection, tenantId: string, at: string): void {
  conn
    .prepare('INSERT INTO event_schedule (tenant_id, scheduled_through) VALUES (?, ?) ON CONFLICT (tenant_id) DO UPDATE SET scheduled_through = excluded.scheduled_through')
    .run(tenantId, at)
}
