import type { Sql } from '../connection/sql.ts'
import { CHANNEL } from '../connection/state-watch.ts'
import type { StoreState } from '../connection/state-watch.ts'

/** Feed rows written per statement. */
const FEED_ROWS_PER_STATEMENT = 10_000

/** What `change_feed.entity` names; `null` for records that only move the revision (inquiry categories). */
export type ChangedEntity = 'content' | 'category' | 'tag' | null

/**
 * The changes of one write transaction, recorded as they are written and turned into the
 * store's bookkeeping once, just before COMMIT (`flush`): the revision of every changed tenant
 * grows by one, `change_feed` gets one row per distinct item, category or tag changed (in the
 * order they were first changed), `frontdesk_state` moves (feed head, generation) and the
 * other processes are notified — all committed with the change itself.
 */
export class ChangeSet {
  readonly #tenants = new Set<string>()
  readonly #entries = new Map<string, { tenantId: string; entity: Exclude<ChangedEntity, null>; id: string }>()

  /** Records that `id` of `entity` changed in the tenant (`null`: the revision only). */
  add(tenantId: string, entity: ChangedEntity, id: string): void {
    this.#tenants.add(tenantId)
    if (entity === null) return
    const key = `${tenantId}\u0000${entity}\u0000${id}`
    if (!this.#entries.has(key)) this.#entries.set(key, { tenantId, entity, id })
  }

  /**
   * Writes the bookkeeping inside the still-open transaction and returns the state it will
   * commit (`null` when nothing was recorded). The `frontdesk_state` row lock it takes orders
   * feed positions by commit (see `change-feed.ts`): call it last before COMMIT.
   */
  async flush(sql: Sql, retention: number): Promise<StoreState | null> {
    if (this.#tenants.size === 0) return null
    await sql.run('UPDATE tenants SET revision = revision + 1 WHERE id = ANY($1::text[])', [[...this.#tenants]])
    const entries = [...this.#entries.values()]
    const row = (
      await sql.rows<{ feed_pos: string; generation: string; pruned_through: string }>(
        `UPDATE frontdesk_state SET feed_pos = feed_pos + $1, generation = generation + 1,
           pruned_through = GREATEST(pruned_through, feed_pos + $1 - $2)
         RETURNING feed_pos, generation, pruned_through, pg_notify('${CHANNEL}', '')`,
        [entries.length, retention],
      )
    )[0]
    if (row === undefined) throw new Error('frontdesk_state has no row')
    const head = Number(row.feed_pos)
    const pruned = Number(row.pruned_through)
    // Hint: entry i takes position first + i + 1; those at or below `pruned` would be deleted at once, so a transaction of
    // more changes than the feed keeps (a large import) writes only the newest `retention`, and no statement grows past
    // FEED_ROWS_PER_STATEMENT rows (one of a million rows outran the statement timeout).
    const first = head - entries.length
    for (let from = Math.max(0, Math.min(entries.length, pruned - first)); from < entries.length; from += FEED_ROWS_PER_STATEMENT) {
      const part = entries.slice(from, from + FEED_ROWS_PER_STATEMENT)
      await sql.run(
        `INSERT INTO change_feed (pos, tenant_id, entity, entity_id)
         SELECT $1::bigint + u.n, u.tenant_id, u.entity, u.entity_id
           FROM unnest($2::text[], $3::text[], $4::text[]) WITH ORDINALITY AS u(tenant_id, entity, entity_id, n)`,
        [first + from, part.map((e) => e.tenantId), part.map((e) => e.entity), part.map((e) => e.id)],
      )
    }
    if (pruned > 0) await sql.run('DELETE FROM change_feed WHERE pos <= $1', [pruned])
    this.#tenants.clear()
    this.#entries.clear()
    return { feedPos: head, generation: Number(row.generation) }
  }
}
