import Database from 'better-sqlite3'
import { setTimeout as sleep } from 'node:timers/promises'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { anApiKey, aTenant } from '@frontdesk/core/testing'
import { openSqliteStore } from '../sqlite-store.ts'
import { openTempStore } from '../../test/util/temp-store.ts'
import { DATA_VERSION_TRUST_MS } from './data-version-watch.ts'

const T = 'ten_watch'

test('a commit by another store of this process is seen by the very next read, within the trust window', async () => {
  const { store, path, cleanup } = openTempStore()
  const other = openSqliteStore({ path })
  try {
    await store.createTenant(aTenant(T))
    await store.createApiKey(anApiKey(T, 'key_1', { hash: 'h1' }))
    for (let round = 1; round <= 20; round++) {
      assert.is((await store.findApiKeyByHash('h1'))?.key.rate_limit, round === 1 ? null : round - 1)
      // A last-use stamp commits without fsync: well inside the trust window, so only the
      // writer's note (not the passing of time) can make the next read see it.
      await other.updateApiKey('key_1', { last_used_at: `2026-01-01T00:00:${String(round).padStart(2, '0')}.000Z` })
      assert.is((await store.findApiKeyByHash('h1'))?.key.last_used_at, `2026-01-01T00:00:${String(round).padStart(2, '0')}.000Z`)
      await other.updateApiKey('key_1', { rate_limit: round })
    }
  } finally {
    await other.close()
    await cleanup()
  }
})

test('a commit that bypasses frontdesk\u2019s writers (another process) is seen once the trust window has passed', async () => {
  const { store, path, cleanup } = openTempStore()
  const raw = new Database(path)
  try {
    await store.createTenant(aTenant(T))
    await store.createApiKey(anApiKey(T, 'key_1', { hash: 'h1' }))
    assert.is((await store.findApiKeyByHash('h1'))?.key.disabled_at, null)
    raw.prepare(`UPDATE api_keys SET disabled_at = '2026-02-02T00:00:00.000Z' WHERE id = 'key_1'`).run()
    await sleep(DATA_VERSION_TRUST_MS + 1)
    assert.is((await store.findApiKeyByHash('h1'))?.key.disabled_at, '2026-02-02T00:00:00.000Z')
  } finally {
    raw.close()
    await cleanup()
  }
})

test.run()
