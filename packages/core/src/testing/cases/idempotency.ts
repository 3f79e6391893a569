import * as assert from 'uvu/assert'
import { anInquiry, aTenant, at } from '../fixtures.ts'
import { storeSuite } from '../store-suite.ts'
import type { OpenStore } from '../store-suite.ts'

/** Claim times as core computes them: 24 h expiry, a few minutes until an in-flight claim is stale. */
function times(nowMinutes: number) {
  return { now: at(nowMinutes), expiredBefore: at(nowMinutes - 24 * 60), staleBefore: at(nowMinutes - 5) }
}

/** `claimIdempotencyKey`, `releaseIdempotencyKey` and `insertInquiry` with a key. */
export function idempotencyCases(name: string, open: OpenStore): void {
  const s = storeSuite(`${name}: idempotency keys`, open)
  const T = 'ten_a'
  const response = { status: 201, body: { data: { id: 'inq_1', message: 'Thanks', nested: [1, null, true] } } }

  s('the first claim holds the key; a second claim while it runs finds it in flight', async ({ store }) => {
    await store.createTenant(aTenant(T))
    assert.equal(await store.claimIdempotencyKey(T, 'k1', 'hash-a', times(0)), { state: 'claimed' })
    assert.equal(await store.claimIdempotencyKey(T, 'k1', 'hash-a', times(1)), { state: 'in_flight' })
    assert.equal(await store.claimIdempotencyKey(T, 'k1', 'hash-b', times(1)), { state: 'in_flight' })
  })

  s('concurrent claims of one key: exactly one is claimed', async ({ store }) => {
    await store.createTenant(aTenant(T))
    const claims = await Promise.all(Array.from({ length: 5 }, () => store.claimIdempotencyKey(T, 'k1', 'h', times(0))))
    assert.is(claims.filter((c) => c.state === 'claimed').length, 1)
    assert.is(claims.filter((c) => c.state === 'in_flight').length, 4)
  })

  s('insertInquiry with the key completes it: later claims find the hash and response', async ({ store }) => {
    await store.createTenant(aTenant(T))
    await store.claimIdempotencyKey(T, 'k1', 'hash-a', times(0))
    await store.insertInquiry(anInquiry(T, 'inq_1'), { key: 'k1', response })
    assert.equal(await store.getInquiry(T, 'inq_1'), anInquiry(T, 'inq_1'))
    const expected = { state: 'completed', request_hash: 'hash-a', response }
    assert.equal(await store.claimIdempotencyKey(T, 'k1', 'hash-a', times(10)), expected)
    assert.equal(await store.claimIdempotencyKey(T, 'k1', 'hash-b', times(60 * 23)), expected, 'also with another body')
  })

  s('a record claimed before expiredBefore counts as absent', async ({ store }) => {
    await store.createTenant(aTenant(T))
    await store.claimIdempotencyKey(T, 'k1', 'hash-a', times(0))
    await store.insertInquiry(anInquiry(T, 'inq_1'), { key: 'k1', response })
    assert.equal(await store.claimIdempotencyKey(T, 'k1', 'hash-b', times(24 * 60 + 1)), { state: 'claimed' })
    assert.equal(await store.claimIdempotencyKey(T, 'k1', 'hash-b', times(24 * 60 + 2)), { state: 'in_flight' })
  })

  s('an in-flight claim older than staleBefore is taken over', async ({ store }) => {
    await store.createTenant(aTenant(T))
    await store.claimIdempotencyKey(T, 'k1', 'hash-a', times(0))
    assert.equal(await store.claimIdempotencyKey(T, 'k1', 'hash-a', times(4)), { state: 'in_flight' })
    assert.equal(await store.claimIdempotencyKey(T, 'k1', 'hash-a', times(6)), { state: 'claimed' })
    assert.equal(await store.claimIdempotencyKey(T, 'k1', 'hash-a', times(7)), { state: 'in_flight' })
  })

  s('releasing an in-flight claim lets a retry claim; a completed record is not released', async ({ store }) => {
    await store.createTenant(aTenant(T))
    await store.claimIdempotencyKey(T, 'k1', 'hash-a', times(0))
    await store.releaseIdempotencyKey(T, 'k1')
    assert.equal(await store.claimIdempotencyKey(T, 'k1', 'hash-a', times(1)), { state: 'claimed' })
    await store.insertInquiry(anInquiry(T, 'inq_1'), { key: 'k1', response })
    await store.releaseIdempotencyKey(T, 'k1')
    assert.is((await store.claimIdempotencyKey(T, 'k1', 'hash-a', times(2))).state, 'completed')
    await store.releaseIdempotencyKey(T, 'unknown')
  })

  s('a failed insertInquiry stores neither the inquiry nor the completed key', async ({ store }) => {
    await store.createTenant(aTenant(T))
    await store.insertInquiry(anInquiry(T, 'inq_1'))
    await store.claimIdempotencyKey(T, 'k1', 'hash-a', times(0))
    let failed = false
    await store.insertInquiry(anInquiry(T, 'inq_1', { title: 'Duplicate id' }), { key: 'k1', response }).catch(() => (failed = true))
    assert.ok(failed, 'an inquiry id is unique within its tenant')
    assert.is((await store.getInquiry(T, 'inq_1'))?.title, 'Inquiry inq_1')
    assert.equal(await store.claimIdempotencyKey(T, 'k1', 'hash-a', times(1)), { state: 'in_flight' })
  })

  s.run()
}
