import type { Connection } from '../connection/statement-cache.ts'

/** What `change_log.entity` names; `null` for records that only bump the revision (inquiry categories). */
export type ChangedEntity = 'content' | 'category' | 'tag' | null

/**
 * The changes of one write transaction, recorded as they are written and turned into the
 * store's bookkeeping once, just before COMMIT (`flush`): the revision of every changed tenant
 * grows by one, and `change_log` gets one row per distinct content item, category or tag
 * changed, in the order they were first changed. Readers (caches, the search index of any
 * process) see both in the same commit as the change itself.
 */
export class ChangeSet {
  readonly #tenants = new Set<string>()
  // Hint: keyed per tenant, then by `entity:id`; a Map keeps first-change order.
  readonly #entries = new Map<string, Map<string, { entity: Exclude<ChangedEntity, null>; id: string }>>()

  /** Records that `id` of `entity` changed in the tenant (`null`: the revision only). */
  add(tenantId: string, entity: ChangedEntity, id: string): void {
    this.#tenants.add(tenantId)
    if (entity === null) return
    let entries = this.#entries.get(tenantId)
    if (entries === undefined) {
      entries = new Map()
      this.#entries.set(tenantId, entries)
    }
    const key = `${entity}:${id}`
    if (!entries.has(key)) entries.set(key, { entity, id })
  }

  /** Whether nothing was recorded. */
  get empty(): boolean {
    return this.#tenants.size === 0
  }

  /** Writes the bookkeeping of what was recorded, inside the still-open transaction, and forgets it. */
  flush(conn: Connection): void {
    if (this.empty) return
    const bump = conn.prepare('UPDATE tenants SET revision = revision + 1 WHERE id = ?')
    const log = conn.prepare('INSERT INTO change_log (tenant_id, entity, entity_id) VALUES (?, ?, ?)')
    for (const tenantId of this.#tenants) {
      bump.run(tenantId)
      for (const { entity, id } of this.#entries.get(tenantId)?.values() ?? []) log.run(tenantId, entity, id)
    }
    this.#tenants.clear()
    this.#entries.clear()
  }
}
