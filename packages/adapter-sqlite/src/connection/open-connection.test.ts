import { chmodSync, statSync, writeFileSync } from 'node:fs'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { openTempStore, tempDbPath } from '../../test/util/temp-store.ts'
import { openSqliteStore } from '../sqlite-store.ts'

const mode = (path: string) => statSync(path).mode & 0o777

test('a new database file and the -wal and -shm SQLite makes beside it are 0600 (inquirers’ personal data)', async () => {
  const { store, path, cleanup } = openTempStore()
  try {
    await store.createTenant({ id: 'ten_a', code: 'a', name: 'A', created_at: '2025-01-01T00:00:00.000Z' })
    assert.is(mode(path), 0o600)
    assert.is(mode(`${path}-wal`), 0o600)
    assert.is(mode(`${path}-shm`), 0o600)
  } finally {
    await cleanup()
  }
})

test('an existing database file keeps the permissions its operator gave it', async () => {
  const { path, remove } = tempDbPath()
  writeFileSync(path, '')
  chmodSync(path, 0o640)
  const store = openSqliteStore({ path })
  try {
    assert.is(mode(path), 0o640)
  } finally {
    await store.close()
    remove()
  }
})

test.run()
