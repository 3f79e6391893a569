import Database from 'better-sqlite3'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { StorageUnavailableError } from '@frontdesk/core'
import { aTenant } from '@frontdesk/core/testing'
import type { InquiryRecord } from '@frontdesk/core'
import { openTempStore, tempDbPath } from '../../test/util/temp-store.ts'
import { openSqliteStore } from '../sqlite-store.ts'
import { GroupCommit } from './group-commit.ts'
import { openConnection } from './open-connection.ts'
import { WriteGate } from './write-gate.ts'

/** A write gate that counts its transactions. */
class CountingGate extends WriteGate {
  transactions = 0
  override run<T>(work: () => Promise<T>, durability?: 'full' | 'normal'): Promise<T> {
    this.transactions++
    return super.run(work, durability)
  }
}

/** A table `t(id PRIMARY KEY)` behind a group commit whose write inserts the id (and throws on `fail`). */
function setup(fail: (id: number) => Error | null = () => null) {
  const { path, remove } = tempDbPath()
  const conn = openConnection(path, 'writer')
  conn.db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY)')
  const gate = new CountingGate(conn, 1000)
  const group = new GroupCommit<number>(gate, conn, (id) => {
    conn.prepare('INSERT INTO t (id) VALUES (?)').run(id)
    const error = fail(id)
    if (error !== null) throw error
  })
  const ids = () => conn.db.prepare('SELECT id FROM t ORDER BY id').pluck().all() as number[]
  const close = async () => {
    await gate.close()
    conn.db.close()
    remove()
  }
  return { conn, gate, group, ids, close }
}

const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i)

test('concurrent writes all land, committed together in far fewer transactions than writes', async () => {
  const { gate, group, ids, close } = setup()
  await Promise.all(range(0, 300).map((id) => group.add(id)))
  assert.equal(ids(), range(0, 300))
  assert.ok(gate.transactions <= 3, `${gate.transactions} transactions for 300 writes`)
  await close()
})

test('writes queued while a batch commits go into the next one; each caller resolves after its own commit', async () => {
  const { gate, group, ids, close } = setup()
  const first = range(0, 5).map((id) => group.add(id))
  await new Promise((resolve) => setImmediate(resolve))
  // The first batch is under way (it took its writes); these wait for the next one.
  const second = range(5, 10).map((id) => group.add(id))
  await Promise.all(first)
  await Promise.all(second)
  assert.equal(ids(), range(0, 10))
  assert.is(gate.transactions, 2)
  await close()
})

test('a write failing by itself (a constraint) rejects only its caller; the rest of its batch commits', async () => {
  const { group, ids, close } = setup()
  await group.add(7)
  const results = await Promise.allSettled(range(5, 10).map((id) => group.add(id)))
  assert.equal(results.map((r) => r.status), ['fulfilled', 'fulfilled', 'rejected', 'fulfilled', 'fulfilled'])
  const reason = (results[2] as PromiseRejectedResult).reason as { code?: string }
  assert.match(String(reason.code), /^SQLITE_CONSTRAINT/)
  assert.equal(ids(), range(5, 10))
  await close()
})

test('a storage fault rolls the whole batch back and rejects exactly its callers; the next batch commits', async () => {
  const { gate, group, ids, close } = setup((id) => (id === 2 ? new Database.SqliteError('database or disk is full', 'SQLITE_FULL') : null))
  let release!: () => void
  const held = gate.run(() => new Promise<void>((resolve) => (release = resolve)))
  const doomed = range(0, 5).map((id) => group.add(id))
  await new Promise((resolve) => setImmediate(resolve))
  const next = range(10, 13).map((id) => group.add(id))
  release()
  await held
  const doomedResults = await Promise.allSettled(doomed)
  for (const result of doomedResults) {
    assert.is(result.status, 'rejected')
    assert.instance((result as PromiseRejectedResult).reason, StorageUnavailableError)
  }
  await Promise.all(next)
  assert.equal(ids(), [10, 11, 12], 'nothing of the failed batch was kept')
  await close()
})

test('a write requested inside a transaction is refused instead of waiting for itself', async () => {
  const { gate, group, ids, close } = setup()
  const error = await gate.run(() => group.add(1)).then(() => null, (e: unknown) => e)
  assert.match(String(error), /do not nest/)
  assert.equal(ids(), [])
  await close()
})

function inquiry(n: number): InquiryRecord {
  return {
    tenant_id: 'ten_1', id: `inq_${String(n).padStart(5, '0')}`, category_code: 'general', title: `Inquiry ${n}`, content: 'x',
    priority: 2, inquirer_name: 'Ina', inquirer_email: 'ina@example.com', inquirer_phone: null, inquirer_company: null,
    inquirer_department: null, status: 'open', api_key_id: null, created_at: '2025-06-20T12:00:00.000Z',
  }
}

test('the store: concurrent inquiries all land with their idempotency records, and close waits for queued ones', async () => {
  const { store, path, cleanup } = openTempStore()
  await store.createTenant(aTenant('ten_1'))
  const claimed = await store.claimIdempotencyKey('ten_1', 'key-1', 'hash', { holder: 'h', now: 'b', expiredBefore: 'a', staleBefore: 'a' })
  assert.is(claimed.state, 'claimed')
  await Promise.all([
    store.insertInquiry(inquiry(0), { key: 'key-1', holder: 'h', response: { status: 201, body: { id: 'inq_00000' } } }),
    ...range(1, 100).map((n) => store.insertInquiry(inquiry(n))),
  ])
  const late = range(100, 120).map((n) => store.insertInquiry(inquiry(n)))
  await store.close()
  await Promise.all(late)
  const reopened = openSqliteStore({ path })
  assert.is((await reopened.listInquiries('ten_1', { limit: 500 })).length, 120)
  const replay = await reopened.claimIdempotencyKey('ten_1', 'key-1', 'hash', { holder: 'h2', now: 'c', expiredBefore: 'a', staleBefore: 'a' })
  assert.equal(replay, { state: 'completed', request_hash: 'hash', response: { status: 201, body: { id: 'inq_00000' } } })
  assert.match(String(await reopened.transaction(() => reopened.insertInquiry(inquiry(500))).catch((e: unknown) => e)), /do not nest/)
  await reopened.close()
  assert.match(String(await reopened.insertInquiry(inquiry(501)).catch((e: unknown) => e)), /closed/)
  await cleanup()
})

test.run()
