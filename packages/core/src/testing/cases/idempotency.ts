import * as assert from 'uvu/assert'
import { FrontdeskError } from '../../errors/frontdesk-error.ts'
import { anInquiry, aTenant, at } from '../fixtures.ts'
import { storeSuite } from '../store-suite.ts'
import type { OpenStore } from '../store-suite.ts'

/**
 * Claim terms as core computes them: 24 h expiry, a lease of a few minutes (here) until an
 * in-flight claim not renewed is stale; `holder` names the claiming request.
 */
function times(nowMinutes: number, holder = 'holder-1') {
  return { holder, now: at(nowMinutes), expiredBefore: at(nowMinutes - 24 * 60), staleBefore: at(nowMinutes - 5) }
}

/** What a claim finds while another request holds the key, which it claimed or renewed at minute `renewed`. */
function inFlight(renewed: number) {
  return { state: 'in_flight', renewed_at: at(renewed) }
}

/** Whether `promise` rejects with `IDEMPOTENCY_IN_PROGRESS`. */
async function inProgress(promise: Promise<unknown>): Promise<boolean> {
  try {
    await promise
    return false
  } catch (error) {
    return error instanceof FrontdeskError && error.code === 'IDEMPOTENCY_IN_PROGRESS'
  }
}

/** `claimIdempotencyKey`, `renewIdempotencyKey`, `releaseIdempotencyKey` and `insertInquiry` with a key. */
export function idempotencyCases(name: string, open: OpenStore): void {
  const s = storeSuite(`${name}: idempotency keys`, open)
  const T = 'ten_a'
  const response = { status: 201, body: { data: { id: 'inq_1', message: 'Thanks', nested: [1, null, true] } } }
  const held = (holder = 'holder-1') => ({ key: 'k1', holder, response })

  s('the first claim holds the key; a second claim while it runs finds it in flight', async ({ store }) => {
    await store.createTenant(aTenant(T))
    assert.equal(await store.claimIdempotencyKey(T, 'k1', 'hash-a', times(0)), { state: 'claimed' })
    assert.equal(await store.claimIdempotencyKey(T, 'k1', 'hash-a', times(1, 'holder-2')), inFlight(0))
    assert.equal(await store.claimIdempotencyKey(T, 'k1', 'hash-b', times(1, 'holder-2')), inFlight(0))
    assert.equal(await store.claimIdempotencyKey(T, 'k1', 'hash-a', times(1)), inFlight(0), 'even for the same holder')
  })

  s('concurrent claims of one key: exactly one is claimed', async ({ store }) => {
    await store.createTenant(aTenant(T))
    const claims = await Promise.all(Array.from({ length: 5 }, (_, i) => store.claimIdempotencyKey(T, 'k1', 'h', times(0, `holder-${i}`))))
    assert.is(claims.filter((c) => c.state === 'claimed').length, 1)
    assert.is(claims.filter((c) => c.state === 'in_flight').length, 4)
  })

  s('insertInquiry with the key completes it: later claims find the hash and response', async ({ store }) => {
    await store.createTenant(aTenant(T))
    await store.claimIdempotencyKey(T, 'k1', 'hash-a', times(0))
    await store.insertInquiry(anInquiry(T, 'inq_1'), held())
    assert.equal(await store.getInquiry(T, 'inq_1'), anInquiry(T, 'inq_1'))
    const expected = { state: 'completed', request_hash: 'hash-a', response }
    assert.equal(await store.claimIdempotencyKey(T, 'k1', 'hash-a', times(10, 'holder-2')), expected)
    assert.equal(await store.claimIdempotencyKey(T, 'k1', 'hash-b', times(60 * 23, 'holder-3')), expected, 'also with another body')
  })

  s('a record claimed before expiredBefore counts as absent', async ({ store }) => {
    await store.createTenant(aTenant(T))
    await store.claimIdempotencyKey(T, 'k1', 'hash-a', times(0))
    await store.insertInquiry(anInquiry(T, 'inq_1'), held())
    assert.equal(await store.claimIdempotencyKey(T, 'k1', 'hash-b', times(24 * 60 + 1, 'holder-2')), { state: 'claimed' })
    assert.equal(await store.claimIdempotencyKey(T, 'k1', 'hash-b', times(24 * 60 + 2, 'holder-3')), inFlight(24 * 60 + 1))
  })

  s('an in-flight claim not renewed since staleBefore is taken over', async ({ store }) => {
    await store.createTenant(aTenant(T))
    await store.claimIdempotencyKey(T, 'k1', 'hash-a', times(0))
    assert.equal(await store.claimIdempotencyKey(T, 'k1', 'hash-a', times(4, 'holder-2')), inFlight(0))
    assert.equal(await store.claimIdempotencyKey(T, 'k1', 'hash-a', times(6, 'holder-2')), { state: 'claimed' })
    assert.equal(await store.claimIdempotencyKey(T, 'k1', 'hash-a', times(7, 'holder-3')), inFlight(6))
  })

  s('a renewed claim holds its key for another lease; only its holder renews it', async ({ store }) => {
    await store.createTenant(aTenant(T))
    await store.claimIdempotencyKey(T, 'k1', 'hash-a', times(0))
    assert.is(await store.renewIdempotencyKey(T, 'k1', 'holder-1', at(4)), true)
    assert.is(await store.renewIdempotencyKey(T, 'k1', 'holder-2', at(8)), false, 'another request cannot renew it')
    assert.equal(await store.claimIdempotencyKey(T, 'k1', 'hash-a', times(8, 'holder-2')), inFlight(4), 'renewed at 4, stale after 9')
    assert.is(await store.renewIdempotencyKey(T, 'k1', 'holder-1', at(8)), true)
    assert.equal(await store.claimIdempotencyKey(T, 'k1', 'hash-a', times(12, 'holder-2')), inFlight(8))
    assert.equal(await store.claimIdempotencyKey(T, 'k1', 'hash-a', times(14, 'holder-2')), { state: 'claimed' }, 'not renewed since 8')
    assert.is(await store.renewIdempotencyKey(T, 'k1', 'holder-1', at(14)), false, 'the claim is no longer its')
    assert.is(await store.renewIdempotencyKey(T, 'unknown', 'holder-1', at(14)), false)
    await store.insertInquiry(anInquiry(T, 'inq_1'), held('holder-2'))
    assert.is(await store.renewIdempotencyKey(T, 'k1', 'holder-2', at(15)), false, 'a completed record is not renewed')
  })

  s('a holder whose claim was taken over stores nothing: IDEMPOTENCY_IN_PROGRESS; the new holder completes it', async ({ store }) => {
    await store.createTenant(aTenant(T))
    await store.claimIdempotencyKey(T, 'k1', 'hash-a', times(0))
    assert.equal(await store.claimIdempotencyKey(T, 'k1', 'hash-a', times(6, 'holder-2')), { state: 'claimed' })
    // Hint: the late holder's write goes with another inquiry's, which must not suffer for it.
    const [late, other] = await Promise.all([
      inProgress(store.insertInquiry(anInquiry(T, 'inq_late'), held('holder-1'))),
      store.insertInquiry(anInquiry(T, 'inq_other')).then(() => true),
    ])
    assert.ok(late, 'the late holder is told the key is held by another request')
    assert.ok(other)
    assert.is(await store.getInquiry(T, 'inq_late'), null)
    assert.ok(await store.getInquiry(T, 'inq_other'))
    await store.releaseIdempotencyKey(T, 'k1', 'holder-1')
    assert.equal(await store.claimIdempotencyKey(T, 'k1', 'hash-a', times(7, 'holder-3')), inFlight(6), 'the late holder released nothing')
    await store.insertInquiry(anInquiry(T, 'inq_1'), held('holder-2'))
    assert.is((await store.claimIdempotencyKey(T, 'k1', 'hash-a', times(8, 'holder-3'))).state, 'completed')
    assert.ok(await inProgress(store.insertInquiry(anInquiry(T, 'inq_again'), held('holder-2'))), 'a completed key is not completed twice')
    assert.is(await store.getInquiry(T, 'inq_again'), null)
  })

  s('releasing an in-flight claim lets a retry claim; a completed record or another holder\'s claim is not released', async ({ store }) => {
    await store.createTenant(aTenant(T))
    await store.claimIdempotencyKey(T, 'k1', 'hash-a', times(0))
    await store.releaseIdempotencyKey(T, 'k1', 'holder-2')
    assert.equal(await store.claimIdempotencyKey(T, 'k1', 'hash-a', times(1, 'holder-2')), inFlight(0))
    await store.releaseIdempotencyKey(T, 'k1', 'holder-1')
    assert.equal(await store.claimIdempotencyKey(T, 'k1', 'hash-a', times(1, 'holder-2')), { state: 'claimed' })
    await store.insertInquiry(anInquiry(T, 'inq_1'), held('holder-2'))
    await store.releaseIdempotencyKey(T, 'k1', 'holder-2')
    assert.is((await store.claimIdempotencyKey(T, 'k1', 'hash-a', times(2, 'holder-3'))).state, 'completed')
    await store.releaseIdempotencyKey(T, 'unknown', 'holder-1')
  })

  s('a failed insertInquiry stores neither the inquiry nor the completed key', async ({ store }) => {
    await store.createTenant(aTenant(T))
    await store.insertInquiry(anInquiry(T, 'inq_1'))
    await store.claimIdempotencyKey(T, 'k1', 'hash-a', times(0))
    let failed = false
    await store.insertInquiry(anInquiry(T, 'inq_1', { title: 'Duplicate id' }), held()).catch(() => (failed = true))
    assert.ok(failed, 'an inquiry id is unique within its tenant')
    assert.is((await store.getInquiry(T, 'inq_1'))?.title, 'Inquiry inq_1')
    assert.equal(await store.claimIdempotencyKey(T, 'k1', 'hash-a', times(1, 'holder-2')), inFlight(0))
  })

  s.run()
}
