import type { CategoryRecord, ContentRecord, TagRecord } from '@frontdesk/core'
import type { Connection } from './statement-cache.ts'

/**
 * Sees the writes of one store transaction as they are made (see
 * `SqliteStore.observeNextTransaction`): what lets an import index its items for search on
 * another thread while it writes them, instead of reading them all back after the commit.
 * Its methods run synchronously inside the transaction, on the writer connection's thread,
 * and must not throw (a failing observer would fail the write).
 */
export interface TransactionObserver {
  /** The transaction has begun (the write lock is held): `conn` reads its state. */
  begun(conn: Connection): void
  /** An item was written (inserted or replaced) as `record`. */
  content(record: ContentRecord): void
  /** An item was deleted. */
  contentDeleted(tenantId: string, id: string): void
  /** A category was written. */
  category(record: CategoryRecord): void
  /** A tag was written. */
  tag(record: TagRecord): void
  /** Everything is written, the revision and `change_log` included; COMMIT comes next (after the indexes of a bulk load are built; it may still fail). */
  committing(conn: Connection): void
}

/** The part of an observer (this one, or the port's `TransactionObserver`) that sees each write. */
export type WriteObserver = Pick<TransactionObserver, 'content' | 'contentDeleted' | 'category' | 'tag'>
