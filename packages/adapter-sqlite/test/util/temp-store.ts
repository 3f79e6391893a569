import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openSqliteStore } from '../../src/sqlite-store.ts'
import type { SqliteStore, SqliteStoreOptions } from '../../src/sqlite-store.ts'

/** A fresh temp directory and the path of a database file inside it; `remove` deletes both. */
export function tempDbPath(): { dir: string; path: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'frontdesk-sqlite-'))
  return { dir, path: join(dir, 'frontdesk.db'), remove: () => rmSync(dir, { recursive: true, force: true }) }
}

/** A store over a new file in a temp dir; `cleanup` closes it (if still open) and deletes the dir. */
export function openTempStore(options: Partial<SqliteStoreOptions> = {}): { store: SqliteStore; dir: string; path: string; cleanup: () => Promise<void> } {
  const { dir, path, remove } = tempDbPath()
  const store = openSqliteStore({ ...options, path })
  return {
    store,
    dir,
    path,
    cleanup: async () => {
      await store.close()
      remove()
    },
  }
}
