import type { Database, Statement } from 'better-sqlite3'

/** Most distinct statements one connection keeps prepared (list queries vary with their filters). */
const MAX_STATEMENTS = 500

/**
 * One SQLite connection with its prepared statements: each SQL text is prepared once and
 * reused, so the hot paths never re-parse SQL.
 */
export class Connection {
  readonly db: Database
  readonly #statements = new Map<string, Statement>()

  constructor(db: Database) {
    this.db = db
  }

  /** The prepared statement for `sql`, preparing it on first use. */
  prepare(sql: string): Statement {
    let statement = this.#statements.get(sql)
    if (statement === undefined) {
      statement = this.db.prepare(sql)
      // Hint: dynamic list queries have a bounded number of shapes; the cap only guards memory.
      if (this.#statements.size >= MAX_STATEMENTS) this.#statements.clear()
      this.#statements.set(sql, statement)
    }
    return statement
  }

  /**
   * Runs several reads on one snapshot: inside an open transaction as they are, otherwise in
   * a read transaction of their own, so that no commit lands between them.
   */
  snapshot<T>(read: () => T): T {
    if (this.db.inTransaction) return read()
    this.prepare('BEGIN').run()
    try {
      return read()
    } finally {
      this.#endRead()
    }
  }

  /**
   * Ends a read transaction. Should COMMIT fail (an I/O error), it is rolled back instead:
   * a read transaction left open would pin this connection to its snapshot for good (later
   * commits invisible) and keep the WAL from being checkpointed.
   */
  #endRead(): void {
    try {
      this.prepare('COMMIT').run()
    } catch (error) {
      if (this.db.inTransaction) this.db.exec('ROLLBACK')
      throw error
    }
  }
}
