import type { Connection } from '../connection/statement-cache.ts'

/** The tables of items and their links, whose secondary indexes a bulk load builds once at its end. */
const ITEM_TABLES = ['contents', 'content_tags', 'content_fields']

/** Secondary indexes dropped by `deferIndexes`, to create again with `restoreIndexes`. */
export interface DeferredIndexes {
  /** Their `CREATE INDEX` statements, as the schema holds them. */
  statements: string[]
}

/**
 * Inside a write transaction, when no tenant has any item yet (a first import into a new
 * database): drops the secondary indexes of the item tables (those created with `CREATE
 * INDEX`, not the primary keys and unique constraints, which keep checking every row), so
 * that the transaction's inserts update none of them. `restoreIndexes` creates them again,
 * in the same transaction, just before it commits: SQLite then builds each from the sorted rows in
 * one pass instead of inserting every row into nine B-trees in random order. A rollback restores the schema with the rows. Returns
 * `null` (nothing dropped) when there are items already: recreating indexes over a large
 * table for a small import would cost more than it saves.
 */
export function deferIndexes(conn: Connection): DeferredIndexes | null {
  if (conn.prepare('SELECT 1 FROM contents LIMIT 1').get() !== undefined) return null
  const rows = conn
    .prepare(`SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL AND tbl_name IN (${ITEM_TABLES.map(() => '?').join(', ')}) ORDER BY name`)
    .all(...ITEM_TABLES) as { name: string; sql: string }[]
  // Hint: a unique index enforces a constraint while rows are inserted: kept (none today).
  const deferred = rows.filter((row) => !/^\s*CREATE\s+UNIQUE\b/i.test(row.sql))
  for (const { name } of deferred) conn.db.exec(`DROP INDEX "${name.replaceAll('"', '""')}"`)
  return { statements: deferred.map((row) => row.sql) }
}

/** Creates the indexes `deferIndexes` dropped, in the still-open transaction. */
export function restoreIndexes(conn: Connection, deferred: DeferredIndexes): void {
  for (const statement of deferred.statements) conn.db.exec(statement)
}
