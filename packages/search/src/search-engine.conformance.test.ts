import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openPostgresStore } from '@frontdesk/adapter-postgres'
import { openTestStore, postgresUnavailable } from '@frontdesk/adapter-postgres/testing'
import type { PostgresStore } from '@frontdesk/adapter-postgres'
import { openSqliteStore } from '@frontdesk/adapter-sqlite'
import type { SqliteStore } from '@frontdesk/adapter-sqlite'
import { testSearch } from '@frontdesk/core/testing'
import { directorySnapshots } from './snapshots/directory-snapshots.ts'
import { createSearchEngine } from './search-engine.ts'

// The search-port conformance suite: this engine over each store of the repository. A second
// store on the same database is another process's connection; snapshots go to a directory of
// the test's own.

const snapshotDirs = new WeakMap<object, string>()

function snapshotDir(store: object): string {
  let dir = snapshotDirs.get(store)
  if (dir === undefined) {
    dir = mkdtempSync(join(tmpdir(), 'frontdesk-search-snapshots-'))
    snapshotDirs.set(store, dir)
  }
  return dir
}

testSearch<SqliteStore>('sqlite', {
  openStore: async () => {
    const dir = mkdtempSync(join(tmpdir(), 'frontdesk-search-sqlite-'))
    const store = openSqliteStore({ path: join(dir, 'test.db') })
    return { store, cleanup: async () => rmSync(dir, { recursive: true, force: true }) }
  },
  openSearch: (store) => createSearchEngine({ store }),
  otherProcess: (store) => openSqliteStore({ path: store.path }),
  openSearchWithSnapshots: (store, restored) =>
    createSearchEngine({ store, snapshots: directorySnapshots(`${store.path}.search`), onBuild: (info) => void (info.source === 'snapshot' && restored(info.tenantId)) }),
})

const urls = new WeakMap<PostgresStore, string>()

testSearch<PostgresStore>('postgres', {
  openStore: async () => {
    const opened = await openTestStore()
    urls.set(opened.store, opened.url)
    return { store: opened.store, cleanup: opened.cleanup }
  },
  openSearch: (store) => createSearchEngine({ store }),
  otherProcess: (store) => openPostgresStore({ url: urls.get(store) ?? '' }),
  openSearchWithSnapshots: (store, restored) =>
    createSearchEngine({ store, snapshots: directorySnapshots(snapshotDir(store)), onBuild: (info) => void (info.source === 'snapshot' && restored(info.tenantId)) }),
  unavailable: await postgresUnavailable(),
})
