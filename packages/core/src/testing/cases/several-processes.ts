import * as assert from 'uvu/assert'
import type { EntityChange } from '../../port/change-feed.ts'
import type { Store } from '../../port/store.ts'
import { aCategory, aContent, aTenant } from '../fixtures.ts'
import { eventually } from '../search/search-fixtures.ts'
import { skipCase } from '../skip-case.ts'
import { storeSuite } from '../store-suite.ts'
import type { OpenStore, StoreSuiteOptions } from '../store-suite.ts'

const A = 'ten_a'
const key = (c: EntityChange): string => `${c.tenantId}/${c.entity}/${c.id}`

/** Several stores on one database, as several processes have: shared state, and a change feed that misses nothing. */
export function severalProcessCases<S extends Store>(name: string, open: OpenStore<S>, options: StoreSuiteOptions<S>): void {
  const s = storeSuite(`${name}: several processes on one database`, open, options)
  const titles = [
    'each store sees what the other commits, and revision and feed position follow',
    'with two writers committing at once, a reader polling the feed meanwhile misses no change and sees none twice',
  ]
  if (options.otherProcess === undefined) {
    for (const title of titles) skipCase(s, name, title, 'the store offers no other process')
    s.run()
    return
  }

  s(titles[0] ?? '', async ({ store, otherProcess }) => {
    const other = await otherProcess()
    assert.ok(other)
    await store.createTenant(aTenant(A))
    assert.ok(await other.getTenant(A))
    const revision = await other.revision(A)
    const position = await other.feedPosition()
    await store.transaction(async (tx) => {
      await tx.putCategory(aCategory(A, 'cat_1'))
      await tx.putContent(aContent(A, 'cnt_1', 'cat_1'))
    })
    assert.is((await other.getContent(A, 'cnt_1'))?.id, 'cnt_1')
    // Hint: a store of another machine learns of the commit within a second (README "Content list"), one of this machine at once.
    if (other.capabilities?.scope === 'network') await eventually(async () => (await other.revision(A)) !== revision && (await other.feedPosition()) !== position, 2_000)
    assert.is.not(await other.revision(A), revision)
    assert.is.not(await other.feedPosition(), position)
    assert.equal((await other.readChanges(position, 10))?.changes.map(key).sort(), [`${A}/category/cat_1`, `${A}/content/cnt_1`])
    await other.transaction((tx) => tx.deleteContent(A, 'cnt_1'))
    assert.is(await store.getContent(A, 'cnt_1'), null)
  })

  s(titles[1] ?? '', async ({ store, otherProcess }) => {
    const other = await otherProcess()
    assert.ok(other)
    await store.createTenant(aTenant(A))
    let position = await store.feedPosition()
    const seen: string[] = []
    let writing = true
    const read = async () => {
      for (;;) {
        // Hint: read before the batch: a batch read while the last commit lands may not hold it, so only one begun after every write ends the loop.
        const last = !writing
        const batch = await store.readChanges(position, 3)
        assert.ok(batch, `the feed reaches back to ${position}`)
        seen.push(...batch.changes.map(key))
        position = batch.position
        if (!batch.more && last) return
        await new Promise((resolve) => setTimeout(resolve, 1))
      }
    }
    const reader = read()
    // Hint: awaited below; should it fail while the writes run, it must fail this case, not end the whole test run unhandled.
    reader.catch(() => {})
    const writes = Array.from({ length: 40 }, (_, i) =>
      (i % 2 === 0 ? store : other).transaction(async (tx) => {
        await tx.putCategory(aCategory(A, `cat_${String(i).padStart(2, '0')}`))
        await new Promise((resolve) => setTimeout(resolve, i % 3))
      }),
    )
    try {
      await Promise.all(writes)
    } finally {
      // Hint: a failed write ends the reader too, rather than leaving it reading a store about to be closed.
      writing = false
    }
    await reader
    const expected = Array.from({ length: 40 }, (_, i) => `${A}/category/cat_${String(i).padStart(2, '0')}`)
    assert.equal([...seen].sort(), expected)
  })

  s.run()
}
