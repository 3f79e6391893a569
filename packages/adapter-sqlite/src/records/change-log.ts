import type { Connection } from '../connection/statement-cache.ts'

/** Deletes all but the newest `keep` rows of `change_log` (a range delete on its primary key). */
export function pruneChangeLog(conn: Connection, keep: number): void {
  conn.prepare('DELETE FROM change_log WHERE seq <= (SELECT max(seq) FROM change_log) - ?').run(keep)
}
