import type { Sql, TransactionSql } from '../connection/sql.ts'

/** Secondary indexes dropped by `deferIndexes`, to create again with `restoreIndexes`. */
export interface DeferredIndexes {
  /** Their `CREATE INDEX` statements, as the database gives them (`pg_get_indexdef`). */
  statements: string[]
}

/** How much memory building the indexes again may take (the session's `maintenance_work_mem`, for this transaction only). */
const BUILD_MEMORY = '256MB'

/**
 * Inside a content transaction (holding the writer lock), when no tenant has any item yet (a
 * first import into a new database): drops the secondary indexes of `contents` (the list
 * orders, the tag and field GIN indexes; not the primary key nor the slug constraint, which
 * keep checking every row), so that the transaction's inserts update none of them.
 * `restoreIndexes` creates them again, in the same transaction, just before it commits:
 * PostgreSQL then sorts the rows once per index instead of inserting each row into seven
 * indexes. A rollback restores them with the rows. Dropping takes the table's ACCESS EXCLUSIVE
 * lock until the commit: readers of `contents` in other sessions wait for the import (a new
 * database has nothing to show them). Returns `null` (nothing dropped) when there are items
 * already: rebuilding indexes over a large table for a small import would cost more than it
 * saves, and readers would wait; and when the session's user does not own the table (only its
 * owner may drop and create its indexes).
 */
export async function deferIndexes(sql: Sql): Promise<DeferredIndexes | null> {
  if ((await sql.rows('SELECT 1 FROM contents LIMIT 1')).length > 0) return null
  // Hint: only the table's owner may drop and create its indexes; another user imports row by row.
  const owner = await sql.rows<{ owns: boolean }>(`SELECT pg_has_role(c.relowner, 'USAGE') AS owns FROM pg_class c WHERE c.oid = 'contents'::regclass`)
  if (owner[0]?.owns !== true) return null
  const rows = await sql.rows<{ name: string; statement: string }>(
    `SELECT i.relname AS name, pg_get_indexdef(x.indexrelid) AS statement
       FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid
      WHERE x.indrelid = 'contents'::regclass AND NOT x.indisunique
        AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = x.indexrelid)
      ORDER BY i.relname`,
  )
  if (rows.length === 0) return null
  await sql.run(`DROP INDEX ${rows.map((row) => `"${row.name.replaceAll('"', '""')}"`).join(', ')}`)
  return { statements: rows.map((row) => row.statement) }
}

/**
 * Creates the indexes `deferIndexes` dropped, in the still-open transaction, and gathers the
 * statistics of the tables an import fills: the planner would otherwise know nothing of the
 * rows until autovacuum comes by (up to a minute later), and takes every filter for a match of
 * one row — 20,000 items: a category + tag + field filter read 12,000 items of the list order
 * (55 ms) instead of the GIN indexes (2-12 ms). Both take time that grows with the import, so
 * they run free of the statement timeout (`maintain`): at 1,000,000 items a GIN index alone
 * outran the 15 s default and the import failed at its end.
 */
export async function restoreIndexes(sql: TransactionSql, deferred: DeferredIndexes): Promise<void> {
  await sql.run(`SET LOCAL maintenance_work_mem = '${BUILD_MEMORY}'`)
  for (const statement of deferred.statements) await sql.maintain(statement)
  await sql.maintain('ANALYZE contents, categories, tags')
}
