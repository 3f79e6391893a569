import * as assert from 'uvu/assert'
import type { SearchPort } from '../../../port/search.ts'
import type { Store } from '../../../port/store.ts'
import { aCategory, aContent } from '../../fixtures.ts'
import { aSearchQuery, eventually, hitSet, seedSearch } from '../search-fixtures.ts'
import { skipCase } from '../../skip-case.ts'
import { searchSuite } from '../search-suite.ts'
import type { SearchPairing } from '../search-suite.ts'

const T = 'ten_a'
/** README "Search": a change from any process is searchable within 1 second. */
const WITHIN_MS = 1000

/**
 * Writes, through `writer`, every kind of change a search sees, checking after each that
 * `search` shows it by `seen` (at once, or within a bound).
 */
async function changeEverything(writer: Store, search: SearchPort, seen: (check: () => Promise<boolean>, what: string) => Promise<void>): Promise<void> {
  const find = async (text: string) => hitSet(await search.search(T, aSearchQuery(text)))
  const is = (text: string, expected: string[]) => async () => JSON.stringify(await find(text)) === JSON.stringify(expected)
  await writer.transaction((tx) => tx.putContent(aContent(T, 'f2', 'cat_1', { title: 'Ferry timetable' })))
  await seen(is('ferry', ['f1', 'f2']), 'an added item')
  await writer.transaction((tx) => tx.putContent(aContent(T, 'f1', 'cat_1', { title: 'Bus timetable', version: 2 })))
  await seen(is('ferry', ['f2']), 'an edited item loses its old words')
  await seen(is('bus', ['f1']), 'an edited item has its new words')
  await writer.transaction(async (tx) => {
    await tx.putTag({ tenant_id: T, id: 'tag_1', name: 'harbour' })
    await tx.putContent(aContent(T, 'f2', 'cat_1', { title: 'Ferry timetable', tags: [{ id: 'tag_1', name: 'harbour' }], version: 2 }))
  })
  await seen(is('harbour', ['f2']), 'a tag given')
  await writer.transaction((tx) => tx.putTag({ tenant_id: T, id: 'tag_1', name: 'quay' }))
  await seen(async () => (await search.search(T, aSearchQuery('timetable', { tags: ['quay'] }))).total === 1, 'a renamed tag filters')
  await seen(is('quay', ['f2']), 'a renamed tag is searched by its new name')
  await seen(is('harbour', []), 'and no more by its old one')
  await writer.transaction((tx) => tx.putCategory(aCategory(T, 'cat_1', { active: false })))
  await seen(is('timetable', []), 'a category switched off')
  await writer.transaction((tx) => tx.putCategory(aCategory(T, 'cat_1', { active: true })))
  await seen(is('timetable', ['f1', 'f2']), 'a category switched on')
  await writer.transaction((tx) => tx.deleteContent(T, 'f1'))
  await seen(is('timetable', ['f2']), 'a deleted item')
}

/** Changes become searchable: at once from this process, within 1 s from another (README "Search"). */
export function freshnessCases<S extends Store>(name: string, pairing: SearchPairing<S>): void {
  const s = searchSuite(`${name}: search freshness`, pairing)
  const seed = (store: Store) => seedSearch(store, T, [aCategory(T, 'cat_1')], [aContent(T, 'f1', 'cat_1', { title: 'Ferry timetable' })])

  s('a change committed through the store the engine reads is searchable at once', async ({ store, search }) => {
    await seed(store)
    assert.equal(hitSet(await search.search(T, aSearchQuery('ferry'))), ['f1'])
    await changeEverything(store, search, async (check, what) => assert.ok(await check(), `${what}: seen at once`))
  })

  const other = `a change committed by another process is searchable within ${WITHIN_MS} ms`
  if (pairing.otherProcess === undefined) {
    skipCase(s, name, other, 'the pairing has no other process')
  } else {
    s(other, async (context) => {
      await seed(context.store)
      assert.equal(hitSet(await context.search.search(T, aSearchQuery('ferry'))), ['f1'])
      const writer = await context.otherProcess()
      assert.ok(writer)
      await changeEverything(writer, context.search, async (check, what) => {
        const took = await eventually(check, WITHIN_MS)
        assert.ok(took !== null, `${what}: not searchable within ${WITHIN_MS} ms`)
      })
    })
  }

  s.run()
}
