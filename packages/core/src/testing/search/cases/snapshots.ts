import * as assert from 'uvu/assert'
import type { Store } from '../../../port/store.ts'
import { aCategory, aContent, at, FIELDS } from '../../fixtures.ts'
import { compareWithReference } from '../compare-with-reference.ts'
import { aCondition, aSearchQuery, seedSearch } from '../search-fixtures.ts'
import type { SearchContext } from '../search-suite.ts'
import { skipCase } from '../../skip-case.ts'
import { searchSuite } from '../search-suite.ts'
import type { SearchPairing } from '../search-suite.ts'

const A = 'ten_a'
const B = 'ten_b'

/** Questions asked before and after a restart. */
const QUESTIONS = [
  aSearchQuery('harbour'),
  aSearchQuery('harbour', { sort: { kind: 'published_at', direction: 'desc' } }),
  aSearchQuery('harbour', { sort: { kind: 'field', fieldIds: [FIELDS.number.id], direction: 'asc' }, from: 1, size: 3 }),
  aSearchQuery('harbour', { filters: [aCondition('custom_price', { [FIELDS.number.id]: { gte: 4 } })] }),
  aSearchQuery('lights', { tags: ['evening'] }),
  aSearchQuery('移転'),
]

async function agree(context: SearchContext, where: string): Promise<void> {
  for (const tenant of [A, B]) for (const query of QUESTIONS) await compareWithReference(context.search, context.reference, tenant, query, `${where}, ${tenant}`)
}

/** Restart from a snapshot, then catch up with what changed while the engine was down. */
export function snapshotCases<S extends Store>(name: string, pairing: SearchPairing<S>): void {
  const s = searchSuite(`${name}: search restart from a snapshot`, pairing)
  const title = 'a restarted engine restores its snapshot, then catches up with every change made while it was down'
  if (pairing.openSearchWithSnapshots === undefined) {
    skipCase(s, name, title, 'the engine keeps no snapshots')
    s.run()
    return
  }

  s(title, async (context) => {
    const { store } = context
    const evening = { id: 'tag_evening', name: 'evening' }
    for (const tenant of [A, B]) {
      const items = Array.from({ length: 40 }, (_, i) =>
        aContent(tenant, `h${String(i).padStart(2, '0')}`, i % 4 === 0 ? 'cat_2' : 'cat_1', {
          title: i % 3 === 0 ? 'Harbour lights' : i % 3 === 1 ? 'Harbour tour オフィス移転' : 'Lights',
          published_at: at(-i), tags: i % 2 === 0 ? [evening] : [], fields: { fld_num: i % 9 },
        }),
      )
      await seedSearch(store, tenant, [aCategory(tenant, 'cat_1', { fields: [FIELDS.number] }), aCategory(tenant, 'cat_2', { fields: [FIELDS.number] })], items)
    }
    // First run: built from the store, snapshots saved when it closes.
    const first = await context.restartWithSnapshots()
    assert.ok(first)
    await agree(context, 'first run')
    const built = [...first]
    const restored = await context.restartWithSnapshots()
    assert.ok(restored)
    await agree(context, 'restarted without changes')
    assert.equal([...restored].sort(), [A, B], `restored from snapshots (first run restored ${JSON.stringify(built)})`)

    // Down again: changes of every kind are made meanwhile.
    await context.search.close?.()
    await store.transaction(async (tx) => {
      await tx.putContent(aContent(A, 'h99', 'cat_1', { title: 'Harbour new', fields: { fld_num: 8 } }))
      await tx.putContent(aContent(A, 'h01', 'cat_1', { title: 'Renamed entirely', version: 2 }))
      await tx.deleteContent(A, 'h03')
      await tx.putCategory(aCategory(A, 'cat_2', { active: false, fields: [FIELDS.number] }))
      await tx.putTag({ tenant_id: B, id: 'tag_evening', name: 'night' })
      await tx.putContent(aContent(B, 'h05', 'cat_1', { title: 'Harbour lights', status: 'draft', version: 2 }))
    })
    const caughtUp = await context.restartWithSnapshots()
    assert.ok(caughtUp)
    await agree(context, 'restarted after changes')
    assert.equal([...caughtUp].sort(), [A, B], 'restored from snapshots, then caught up')
  })

  s.run()
}
