import type { EntityChange } from '../../port/change-feed.ts'
import type { TransactionObserver } from '../../port/store.ts'
import type { MemoryTables } from './memory-tables.ts'
import { copyTables } from './memory-tables.ts'

/**
 * One write in progress: its own copy of the tables (what it reads and writes), what it
 * changed, and whether it may still write. The commit swaps its tables in whole; a write that
 * fails is simply dropped, so that nothing of it is ever seen.
 */
export class Draft {
  readonly tables: MemoryTables
  readonly observer: TransactionObserver | null
  /** `open`: reads and writes; `committing`: reads only (the observer's last look); `ended`: nothing. */
  state: 'open' | 'committing' | 'ended' = 'open'
  readonly #tenants = new Set<string>()
  readonly #changes = new Map<string, EntityChange>()

  constructor(committed: MemoryTables, observer: TransactionObserver | null = null) {
    this.tables = copyTables(committed)
    this.observer = observer
  }

  /**
   * Records that the tenant's content model changed: its revision grows at commit, and the
   * entity (`null`: none, e.g. an inquiry category) joins the change feed, once per write
   * however often it changed, in the order first changed.
   */
  changed(tenantId: string, entity: EntityChange['entity'] | null, id: string): void {
    this.#tenants.add(tenantId)
    if (entity === null) return
    const key = `${tenantId}\u0000${entity}\u0000${id}`
    if (!this.#changes.has(key)) this.#changes.set(key, { tenantId, entity, id })
  }

  /** The feed entries this write adds. */
  get changes(): EntityChange[] {
    return [...this.#changes.values()]
  }

  /** The tables to commit: with the revision of every changed tenant grown by one. */
  finish(): MemoryTables {
    for (const tenantId of this.#tenants) this.tables.revisions.set(tenantId, (this.tables.revisions.get(tenantId) ?? 0) + 1)
    this.state = 'ended'
    return this.tables
  }
}
