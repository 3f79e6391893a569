import * as assert from 'uvu/assert'
import type { Store } from '../../port/store.ts'
import { aTenant } from '../fixtures.ts'
import { eventually } from '../search/search-fixtures.ts'
import { skipCase } from '../skip-case.ts'
import { storeSuite } from '../store-suite.ts'
import type { OpenStore, StoreSuiteOptions } from '../store-suite.ts'

const A = 'ten_a'
const B = 'ten_b'

/** `getSynonyms` and `replaceSynonyms`: a tenant's set, stored whole as given, moving the revision and nothing in the change feed. */
export function synonymCases<S extends Store>(name: string, open: OpenStore<S>, options: StoreSuiteOptions<S>): void {
  const s = storeSuite(`${name}: synonyms`, open, options)
  const lines = ['car, automobile', 'nyc => new york', 'コンピューター, パソコン', 'emoji 🎉 => x', "o'neil, o\"neil", 'back\\slash, tab\tx']

  s('a set is stored whole as given, in order, replaced whole, and removed by an empty one; a tenant has its own', async ({ store }) => {
    await store.createTenant(aTenant(A))
    await store.createTenant(aTenant(B))
    assert.equal(await store.getSynonyms(A), [])
    await store.transaction((tx) => tx.replaceSynonyms(A, lines))
    assert.equal(await store.getSynonyms(A), lines)
    assert.equal(await store.getSynonyms(B), [])
    await store.transaction((tx) => tx.replaceSynonyms(B, ['x, y']))
    await store.transaction((tx) => tx.replaceSynonyms(A, ['a, b']))
    assert.equal(await store.getSynonyms(A), ['a, b'])
    assert.equal(await store.getSynonyms(B), ['x, y'])
    await store.transaction((tx) => tx.replaceSynonyms(A, []))
    assert.equal(await store.getSynonyms(A), [])
    assert.equal(await store.getSynonyms(B), ['x, y'])
  })

  s('a change moves only its tenant\'s revision, adds no change to the feed, and a rollback changes nothing', async ({ store }) => {
    await store.createTenant(aTenant(A))
    await store.createTenant(aTenant(B))
    const [a, b, position] = [await store.revision(A), await store.revision(B), await store.feedPosition()]
    await store.transaction(async (tx) => {
      await tx.replaceSynonyms(A, lines)
      // The transaction reads its own write.
      assert.equal(await tx.getSynonyms(A), lines)
    })
    assert.is.not(await store.revision(A), a)
    assert.is(await store.revision(B), b)
    assert.equal((await store.readChanges(position, 10))?.changes, [])
    const revision = await store.revision(A)
    const failed = await store
      .transaction(async (tx) => {
        await tx.replaceSynonyms(A, ['a, b'])
        throw new Error('rolled back')
      })
      .catch((e: unknown) => e)
    assert.instance(failed, Error)
    assert.equal(await store.getSynonyms(A), lines)
    assert.is(await store.revision(A), revision)
  })

  const title = 'another process sees a new set, and its revision move, within a second'
  if (options.otherProcess === undefined) skipCase(s, name, title, 'the store offers no other process')
  else {
    s(title, async ({ store, otherProcess }) => {
      const other = await otherProcess()
      assert.ok(other)
      await store.createTenant(aTenant(A))
      const revision = await other.revision(A)
      await store.transaction((tx) => tx.replaceSynonyms(A, lines))
      const took = await eventually(async () => (await other.revision(A)) !== revision, 1_000)
      assert.ok(took !== null, 'the other process sees the revision move within a second')
      assert.equal(await other.getSynonyms(A), lines)
    })
  }

  s.run()
}
