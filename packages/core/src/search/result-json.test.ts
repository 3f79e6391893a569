import fc from 'fast-check'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { createFrontdesk } from '../app/frontdesk.ts'
import { aCategory, aContent, anApiKey, aTag, aTenant } from '../testing/fixtures.ts'
import { createMemoryStore } from '../testing/memory/memory-store.ts'
import { createScanSearch } from '../testing/search/scan-search.ts'
import { prepare } from './found-items.ts'
import { termsKey } from './highlight-memo.ts'
import { parseQueryTerms } from './query-terms.ts'
import { prepareResult, REMEMBERED_RESULTS, ResultMemo, searchReplyBytes } from './result-json.ts'
import { resultItem } from './search-contents.ts'

const decoder = new TextDecoder()
const category = aCategory('t1', 'shop', {
  fields: [
    { id: 'f_price', name: 'price', type: 'number', required: false },
    { id: 'f_note', name: 'note', type: 'text', required: false },
    { id: 'f_open', name: 'open', type: 'boolean', required: false },
  ],
})

test('the bytes made from prepared results are JSON.stringify of the body, whatever the texts and scores', () => {
  const text = fc.string({ unit: 'binary', maxLength: 40 })
  fc.assert(
    fc.property(
      fc.array(fc.record({ title: text, slug: text, author: text, tag: text, note: text, price: fc.double(), open: fc.boolean(), score: fc.double() }), { maxLength: 4 }),
      fc.nat(),
      (rows, total) => {
        const terms = parseQueryTerms('office')
        const items = rows.map((row, i) =>
          resultItem(
            aContent('t1', `c${i}`, 'shop', { title: row.title, slug: row.slug, author_name: row.author, tags: [aTag('t1', 'tag_1', row.tag)], fields: { f_price: row.price, f_note: row.note, f_open: row.open } }),
            category,
            row.score,
            terms,
          ),
        )
        const results = items.map((item) => prepareResult(category, { ...item, score: 0.5 }))
        const body = { items, pagination: { total, from: 0, size: 20, has_more: total > 20 } }
        const bytes = searchReplyBytes(results, items.map((item) => item.score), body.pagination)
        assert.is(decoder.decode(bytes), JSON.stringify(body))
      },
    ),
  )
})

test('a result is built once per terms and category, for the last few terms', () => {
  const record = aContent('t1', 'c1', 'shop', { title: 'Office move' })
  const source = prepare(record)
  const memo = new ResultMemo()
  let built = 0
  const get = (query: string, inCategory = category) => {
    const terms = parseQueryTerms(query)
    return memo.get(termsKey(terms), inCategory, () => {
      built++
      return resultItem(record, inCategory, 1, terms, source)
    })
  }
  const first = get('office')
  assert.is(get('office'), first)
  assert.ok(Object.isFrozen(first.item) && Object.isFrozen(first.item.highlight.title))
  assert.is(first.item.highlight.title[0], '<em>Office</em> move')
  // Another category object (the category changed): built again.
  assert.is.not(get('office', { ...category }), first)
  assert.is(built, 2)
  for (let i = 0; i < REMEMBERED_RESULTS; i++) get(`move${'s'.repeat(i)}`)
  get('office')
  assert.is(built, 3 + REMEMBERED_RESULTS)
})

test('search replies carry their bytes, the same as JSON.stringify of the body, also for items found again', async () => {
  const store = createMemoryStore()
  const search = createScanSearch(store)
  try {
    const tenant = aTenant('t1')
    await store.createTenant(tenant)
    await store.transaction(async (tx) => {
      await tx.putCategory(category)
      await tx.putTag(aTag('t1', 'tag_1', 'naïve "quoted"'))
      for (let i = 0; i < 30; i++) {
        await tx.putContent(aContent('t1', `c${i}`, 'shop', {
          title: `Office ${i} <b>&</b> オフィス移転 \u2028`,
          summary: `The office moves, step ${i}.`,
          tags: i % 2 === 0 ? [aTag('t1', 'tag_1', 'naïve "quoted"')] : [],
          fields: i % 3 === 0 ? { f_price: i / 7, f_note: 'note "\\"', f_open: true } : {},
        }))
      }
    })
    // Hint: memos on whatever FRONTDESK_NO_MEMO says: items found again are what this test checks.
    const frontdesk = createFrontdesk({ store, search, memo: true })
    const principal = { tenant, key: anApiKey('t1', 'key_1') }
    const check = async (body: Record<string, unknown>) => {
      const reply = await frontdesk.search(principal, body)
      const bytes = reply.bytes
      assert.ok(bytes)
      assert.is(decoder.decode(bytes), JSON.stringify(reply.body))
      return reply.body
    }
    for (let round = 0; round < 2; round++) {
      for (const body of [{ query: 'office' }, { query: 'office', size: 3, from: 4 }, { query: '移転' }, { query: 'nothing-matches' }, { query: 'office step', sort: 'published_at:asc' }]) await check(body)
    }
    const again = await check({ query: 'office' })
    assert.is((await check({ query: 'office' })).items[0], again.items[0])
    // A change: the items are read and built again, with their new scores.
    await store.transaction((tx) => tx.putContent(aContent('t1', 'c99', 'shop', { title: 'Office office office' })))
    const changed = await check({ query: 'office' })
    assert.is(changed.items[0]?.id, 'c99')
    assert.is.not(changed.items[1], again.items[0])
  } finally {
    await store.close()
  }
})

test.run()
