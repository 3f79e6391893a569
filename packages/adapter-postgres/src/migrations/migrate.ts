import type pg from 'pg'
import { UsageError } from '@frontdesk/core'
import { V1_CORE_TABLES } from './v1-core-tables.ts'
import { V2_INSTANCE_SECRETS } from './v2-instance-secrets.ts'
import { V3_CATEGORY_FIELDS_INDEX } from './v3-category-fields-index.ts'
import { V4_RATE_LIMIT_BUCKETS } from './v4-rate-limit-buckets.ts'
import { V5_IDEMPOTENCY_HOLDERS } from './v5-idempotency-holders.ts'
import { V6_EVENT_OUTBOX } from './v6-event-outbox.ts'
import { V7_SYNONYMS } from './v7-synonyms.ts'
import { V8_WEBHOOK_REPLAYS } from './v8-webhook-replays.ts'
import { V9_COMPACT_EVENT_DATA } from './v9-compact-event-data.ts'

/** The schema versions, in order: index + 1 is the version (`frontdesk_state.schema_version`) each one reaches. */
export const MIGRATIONS: readonly string[] = [
  V1_CORE_TABLES, V2_INSTANCE_SECRETS, V3_CATEGORY_FIELDS_INDEX, V4_RATE_LIMIT_BUCKETS, V5_IDEMPOTENCY_HOLDERS, V6_EVENT_OUTBOX, V7_SYNONYMS, V8_WEBHOOK_REPLAYS,
  V9_COMPACT_EVENT_DATA,
]

/** The schema version this code writes and reads. */
export const SCHEMA_VERSION = MIGRATIONS.length

/** The session advisory lock every process takes around migrations ("fdmigrat" as a number). */
export const MIGRATION_LOCK = 0x66646d6967726174n

/**
 * Brings the database to `target` (default: the latest version), forward only, in one
 * transaction, holding a session advisory lock: processes starting at once take turns, and
 * the later ones find the schema done. A failure leaves the database at its earlier version.
 * Refuses a database whose version is newer than this code knows, as an old program would
 * misread it.
 */
export async function migrate(client: pg.ClientBase, target: number = SCHEMA_VERSION): Promise<void> {
  await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK.toString()])
  try {
    const current = await schemaVersion(client)
    if (current > SCHEMA_VERSION) {
      throw new UsageError(`The database has schema version ${current}, newer than this frontdesk knows (${SCHEMA_VERSION}); upgrade frontdesk to open it`)
    }
    if (target <= current) return
    await client.query('BEGIN')
    try {
      for (let version = current + 1; version <= target; version++) {
        const sql = MIGRATIONS[version - 1]
        if (sql === undefined) throw new Error(`No migration to schema version ${version}`)
        await client.query(sql)
      }
      await client.query('UPDATE frontdesk_state SET schema_version = $1', [target])
      await client.query('COMMIT')
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined)
      throw error
    }
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK.toString()]).catch(() => undefined)
  }
}

/** The database's schema version (0 for a database without frontdesk's tables). */
export async function schemaVersion(client: pg.ClientBase): Promise<number> {
  const { rows } = await client.query<{ exists: boolean }>(`SELECT to_regclass('frontdesk_state') IS NOT NULL AS exists`)
  if (rows[0]?.exists !== true) return 0
  const state = await client.query<{ schema_version: number }>('SELECT schema_version FROM frontdesk_state')
  return state.rows[0]?.schema_version ?? 0
}
