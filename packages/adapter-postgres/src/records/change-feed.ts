import type { ChangeBatch, EntityChange, FeedPosition } from '@frontdesk/core'
import type { Sql } from '../connection/sql.ts'

/*
 * The change feed over `change_feed`. A position is `<pos>.<epoch>`: `pos` numbers the rows,
 * `epoch` is the database's own random id (made by the first migration), so a position of
 * another database is recognised and answered with `null`.
 *
 * Commit order: a writer numbers its rows from `frontdesk_state.feed_pos`, which it moves with
 * `UPDATE … RETURNING` as the last statement before COMMIT (see `ChangeSet.flush`). That row
 * lock is held until the writer has committed, and PostgreSQL releases it only after the commit
 * is visible, so the next writer numbers its rows after it: numbers are handed out in commit
 * order, and a reader that saw `pos` has seen every row below it. (A sequence value taken before
 * COMMIT is not: a writer that took 5 could commit after one that took 6 was read.)
 */

const POSITION = /^(0|[1-9][0-9]{0,15})\.([0-9a-f]{12})$/

/** The position of feed row `pos` of the database with `epoch`. */
export function positionOf(pos: number, epoch: string): FeedPosition {
  return `${pos}.${epoch}`
}

/** Changes after `after` (see `ChangeFeed.readChanges`). */
export async function readChanges(sql: Sql, epoch: string, after: FeedPosition, limit: number, tenantId?: string): Promise<ChangeBatch | null> {
  const match = POSITION.exec(after)
  if (match === null || match[2] !== epoch) return null
  const pos = Number(match[1])
  const state = (await sql.rows<{ feed_pos: string; pruned_through: string }>('SELECT feed_pos, pruned_through FROM frontdesk_state'))[0]
  // Hint: past the head is a position this database never made; below what was pruned, the feed no longer reaches.
  if (state === undefined || pos > Number(state.feed_pos) || pos < Number(state.pruned_through)) return null
  const take = Math.max(1, Math.floor(limit))
  const rows = await sql.rows<{ pos: string; tenant_id: string; entity: EntityChange['entity']; entity_id: string }>(
    tenantId === undefined
      ? 'SELECT pos, tenant_id, entity, entity_id FROM change_feed WHERE pos > $1 ORDER BY pos LIMIT $2'
      : 'SELECT pos, tenant_id, entity, entity_id FROM change_feed WHERE pos > $1 AND tenant_id = $3 ORDER BY pos LIMIT $2',
    tenantId === undefined ? [pos, take] : [pos, take, tenantId],
  )
  const last = rows[rows.length - 1]
  return {
    changes: rows.map((row) => ({ tenantId: row.tenant_id, entity: row.entity, id: row.entity_id })),
    position: last === undefined ? after : positionOf(Number(last.pos), epoch),
    more: rows.length === take,
  }
}
