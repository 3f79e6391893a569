/*
 * The change feed: how whatever keeps a copy of a tenant's content (the search engine, a
 * cache) learns what changed, from any process, through the port rather than from a
 * database's own bookkeeping.
 *
 * Rules every store follows (the conformance suite in `@frontdesk/core/testing` checks them):
 * - Every transaction that writes a tenant's content, categories or tags adds one change per
 *   entity it wrote (an entity written twice may appear twice), committed with it: a
 *   rolled-back transaction adds none.
 * - The feed is in **commit order**: once a reader has seen a change at some position, every
 *   change it has not seen yet is after that position. Several writers committing at once
 *   must not break this (a sequence value taken before COMMIT is not an order of commits: a
 *   store orders its writers, or reads only what no open transaction can still precede).
 * - Positions are opaque strings, meaningful only to the store that made them. A position of
 *   another database, or one the feed no longer reaches back to (old changes pruned), is
 *   answered with `null` by `readChanges`, so that a reader starts again from a full read.
 */

/** One changed entity of a tenant. */
export interface EntityChange {
  tenantId: string
  entity: 'content' | 'category' | 'tag'
  id: string
}

/** A place in the change feed (opaque; see above). */
export type FeedPosition = string

/** Changes after a position, as `readChanges` returns them. */
export interface ChangeBatch {
  /** In commit order; an entity changed several times may appear several times. */
  changes: EntityChange[]
  /** The position after the last change returned (the position asked for when there was none). */
  position: FeedPosition
  /** `true` when the limit cut the batch short: read again from `position`. */
  more: boolean
}

/** The change feed of a store. */
export interface ChangeFeed {
  /**
   * The position of the newest committed change this process can see: every change committed
   * before the call by this process is at or before it, and one committed by another process
   * is within 1 second. Cheap (a store may answer from memory while nothing was committed):
   * the search engine calls it before every search.
   */
  feedPosition(): Promise<FeedPosition>
  /**
   * At most `limit` changes committed after `after`, in commit order; only the tenant's with
   * `tenantId`. `null` when the feed does not reach back to `after` (see above).
   */
  readChanges(after: FeedPosition, limit: number, tenantId?: string): Promise<ChangeBatch | null>
  /**
   * Optional: calls `listener` soon after a change may have been committed, by any process
   * (e.g. PostgreSQL's LISTEN/NOTIFY), so that a reader need not wait for its next poll.
   * A lost wake-up costs latency only: readers still call `feedPosition`. Returns a function
   * that stops the calls.
   */
  watchChanges?(listener: () => void): () => void
}
