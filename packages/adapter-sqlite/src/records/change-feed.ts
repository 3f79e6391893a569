import type { ChangeBatch, EntityChange, FeedPosition } from '@frontdesk/core'
import { hash } from 'node:crypto'
import type { Connection } from '../connection/statement-cache.ts'

/*
 * The change feed over `change_log`. SQLite has one writer at a time and `seq` is taken inside
 * the writing transaction, so `seq` order is commit order. A position is `<seq>` for the empty
 * feed's start (`0`), else `<seq>.<anchor>`: the anchor is a hash of the row at `seq`, so a
 * position of another database (or of this one before it was replaced by a backup that reused
 * the numbers) is recognised and answered with `null` instead of changes that do not follow it.
 */

type ChangeRow = [seq: number, tenant_id: string, entity: EntityChange['entity'], entity_id: string]

const POSITION = /^(0|[1-9][0-9]{0,15})(?:\.([0-9a-f]{12}))?$/

/** The position of the newest row of `change_log` (or of its last, pruned one). */
export function currentPosition(conn: Connection): FeedPosition {
  // Hint: sqlite_sequence remembers the last seq even when every row has been pruned.
  const last = conn
    .prepare(`SELECT coalesce((SELECT max(seq) FROM change_log), (SELECT seq FROM sqlite_sequence WHERE name = 'change_log'), 0)`)
    .pluck()
    .get() as number
  return positionAt(conn, last)
}

/** The position of row `seq` (which must exist unless `seq` is 0 or every row up to it was pruned). */
export function positionAt(conn: Connection, seq: number): FeedPosition {
  if (seq === 0) return '0'
  const row = conn.prepare('SELECT seq, tenant_id, entity, entity_id FROM change_log WHERE seq = ?').raw(true).get(seq) as ChangeRow | undefined
  // A pruned last row: no later change can be checked against it, so the position says so.
  return row === undefined ? `${seq}.${'0'.repeat(12)}` : `${seq}.${anchor(row)}`
}

/** Changes after `after` (see `ChangeFeed.readChanges`). */
export function readChanges(conn: Connection, after: FeedPosition, limit: number, tenantId?: string): ChangeBatch | null {
  const match = POSITION.exec(after)
  if (match === null) return null
  const seq = Number(match[1])
  if (seq === 0) {
    // The feed's start is reachable only while nothing was ever pruned.
    const first = conn.prepare('SELECT min(seq) FROM change_log').pluck().get() as number | null
    const last = (conn.prepare("SELECT seq FROM sqlite_sequence WHERE name = 'change_log'").pluck().get() as number | undefined) ?? 0
    if (first !== 1 && last !== 0) return null
  } else {
    const row = conn.prepare('SELECT seq, tenant_id, entity, entity_id FROM change_log WHERE seq = ?').raw(true).get(seq) as ChangeRow | undefined
    if (row === undefined || anchor(row) !== match[2]) return null
  }
  const take = Math.max(1, Math.floor(limit))
  const rows = (
    tenantId === undefined
      ? conn.prepare('SELECT seq, tenant_id, entity, entity_id FROM change_log WHERE seq > ? ORDER BY seq LIMIT ?').raw(true).all(seq, take)
      : conn.prepare('SELECT seq, tenant_id, entity, entity_id FROM change_log WHERE seq > ? AND tenant_id = ? ORDER BY seq LIMIT ?').raw(true).all(seq, tenantId, take)
  ) as ChangeRow[]
  const lastRow = rows[rows.length - 1]
  return {
    changes: rows.map(([, tenant, entity, id]) => ({ tenantId: tenant, entity, id })),
    position: lastRow === undefined ? after : `${lastRow[0]}.${anchor(lastRow)}`,
    more: rows.length === take,
  }
}

function anchor([, tenantId, entity, id]: ChangeRow): string {
  return hash('sha256', `${tenantId}\u0000${entity}\u0000${id}`, 'hex').slice(0, 12)
}
