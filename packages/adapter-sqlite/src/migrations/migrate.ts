import type { Database } from 'better-sqlite3'
import { UsageError } from '@frontdesk/core'
import { V1_CORE_TABLES } from './v1-core-tables.ts'
import { V2_CHANGE_LOG } from './v2-change-log.ts'
import { V3_ID_ORDER_INDEX } from './v3-id-order-index.ts'
import { V4_BOOKKEEPING_PER_TRANSACTION } from './v4-bookkeeping-per-transaction.ts'
import { V5_CONTENT_TAGS_KEYED_BY_TAG } from './v5-content-tags-keyed-by-tag.ts'
import { V6_ITEM_LINKS_ON_ROWS } from './v6-item-links-on-rows.ts'
import { V7_LIST_COVERING_INDEXES } from './v7-list-covering-indexes.ts'
import { V8_INSTANCE_SECRETS } from './v8-instance-secrets.ts'
import { V9_IDEMPOTENCY_HOLDERS } from './v9-idempotency-holders.ts'
import { V10_EVENT_OUTBOX } from './v10-event-outbox.ts'
import { V11_SYNONYMS } from './v11-synonyms.ts'
import { V12_WEBHOOK_REPLAYS } from './v12-webhook-replays.ts'
import { V13_COMPACT_EVENT_DATA } from './v13-compact-event-data.ts'

/** The schema versions, in order: index + 1 is the version (`PRAGMA user_version`) each one reaches. */
export const MIGRATIONS: readonly string[] = [
  V1_CORE_TABLES, V2_CHANGE_LOG, V3_ID_ORDER_INDEX, V4_BOOKKEEPING_PER_TRANSACTION, V5_CONTENT_TAGS_KEYED_BY_TAG,
  V6_ITEM_LINKS_ON_ROWS, V7_LIST_COVERING_INDEXES, V8_INSTANCE_SECRETS, V9_IDEMPOTENCY_HOLDERS, V10_EVENT_OUTBOX,
  V11_SYNONYMS, V12_WEBHOOK_REPLAYS, V13_COMPACT_EVENT_DATA,
]

/** The schema version this code writes and reads. */
export const SCHEMA_VERSION = MIGRATIONS.length

/**
 * Brings the database to `target` (default: the latest version), forward only, in one
 * transaction: a failure leaves the file at its earlier version. Refuses a database whose
 * version is newer than this code knows, as an old program would misread it.
 */
export function migrate(db: Database, target: number = SCHEMA_VERSION): void {
  db.exec('BEGIN IMMEDIATE')
  try {
    const current = schemaVersion(db)
    if (current > SCHEMA_VERSION) {
      throw new UsageError(
        `The database has schema version ${current}, newer than this frontdesk knows (${SCHEMA_VERSION}); upgrade frontdesk to open it`,
      )
    }
    for (let version = current + 1; version <= target; version++) {
      const sql = MIGRATIONS[version - 1]
      if (sql === undefined) throw new Error(`No migration to schema version ${version}`)
      db.exec(sql)
    }
    if (target > current) db.pragma(`user_version = ${target}`)
    db.exec('COMMIT')
  } catch (error) {
    if (db.inTransaction) db.exec('ROLLBACK')
    throw error
  }
}

/** The database's schema version (0 for a new file). */
export function schemaVersion(db: Database): number {
  const version = db.pragma('user_version', { simple: true })
  return typeof version === 'number' ? version : 0
}
