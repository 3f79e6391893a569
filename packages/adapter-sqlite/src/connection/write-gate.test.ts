import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { tempDbPath } from '../../test/util/temp-store.ts'
import { openConnection, WRITER_CACHE_KIB } from './open-connection.ts'
import { WriteGate } from './write-gate.ts'

test('a transaction given cacheKib runs with that page cache and gives it back afterwards, also when it fails', async () => {
  const { path, remove } = tempDbPath()
  const conn = openConnection(path, 'writer')
  const gate = new WriteGate(conn, 1000)
  const cacheSize = () => conn.db.pragma('cache_size', { simple: true })
  assert.is(cacheSize(), -WRITER_CACHE_KIB)
  assert.is(await gate.run(async () => cacheSize(), 'full', 1000, 100_000), -100_000)
  assert.is(cacheSize(), -WRITER_CACHE_KIB)
  const failed = await gate.run(async () => {
    throw new Error('work failed')
  }, 'full', 1000, 100_000).catch((e: unknown) => e)
  assert.match(String(failed), /work failed/)
  assert.is(cacheSize(), -WRITER_CACHE_KIB)
  assert.is(await gate.run(async () => cacheSize()), -WRITER_CACHE_KIB, 'other transactions keep the default')
  await gate.close()
  conn.db.close()
  remove()
})

test('a nested run is refused in every transaction: queued ones, and new ones after the gate went idle', async () => {
  const { path, remove } = tempDbPath()
  const conn = openConnection(path, 'writer')
  const gate = new WriteGate(conn, 1000)
  const nested = async (): Promise<string> => {
    await new Promise((resolve) => setImmediate(resolve))
    assert.ok(gate.inside)
    return String(await gate.run(async () => 'ran').catch((e: unknown) => e))
  }
  // Hint: B and C queue behind A; the gate stops tracking its context only once all three settled.
  const queued = await Promise.all([gate.run(nested), gate.run(nested), gate.run(nested)])
  for (const outcome of queued) assert.match(outcome, /do not nest/)
  assert.not.ok(gate.inside)
  assert.match(await gate.run(nested), /do not nest/, 'after the gate went idle')
  assert.is(await gate.run(async () => 'ran'), 'ran')
  await gate.close()
  conn.db.close()
  remove()
})

test.run()
