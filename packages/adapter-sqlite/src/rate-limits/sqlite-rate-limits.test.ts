import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { testRateLimitStore } from '@frontdesk/core/testing'
import { openSqliteStore } from '../sqlite-store.ts'
import { SqliteRateLimits } from './sqlite-rate-limits.ts'

testRateLimitStore('sqlite file', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'frontdesk-limits-'))
  const path = join(dir, 'db.rate-limits')
  return {
    store: new SqliteRateLimits({ path }),
    another: async () => new SqliteRateLimits({ path }),
    cleanup: async () => rmSync(dir, { recursive: true, force: true }),
  }
})

test('a store keeps its buckets beside the database, private, and a step never waits behind a transaction holding the database', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'frontdesk-limits-'))
  const store = openSqliteStore({ path: join(dir, 'db') })
  const other = openSqliteStore({ path: join(dir, 'db') })
  try {
    assert.ok(store.rateLimits)
    assert.is(store.rateLimits.path, join(dir, 'db.rate-limits'))
    let release = () => {}
    const held = new Promise<void>((resolve) => (release = resolve))
    let inside: () => void = () => {}
    const begun = new Promise<void>((resolve) => (inside = resolve))
    // Another store's content transaction holds the database's write lock, as an import does.
    const transaction = other.transaction(async () => {
      inside()
      await held
    })
    await begun
    const started = performance.now()
    assert.equal(await store.rateLimits.take('key:k', { rate: 10, capacity: 20 }, 3, 1_000), { taken: 3, tokens: 17 })
    assert.ok(performance.now() - started < 50, `${performance.now() - started} ms`)
    assert.equal(await other.rateLimits?.take('key:k', { rate: 10, capacity: 20 }, 1, 1_000), { taken: 1, tokens: 16 })
    release()
    await transaction
    assert.is(statSync(join(dir, 'db.rate-limits')).mode & 0o777, 0o600)
  } finally {
    await store.close()
    await other.close()
    rmSync(dir, { recursive: true, force: true })
  }
  const memory = openSqliteStore({ path: ':memory:' })
  assert.is(memory.rateLimits, undefined)
  await memory.close()
})

test.run()
