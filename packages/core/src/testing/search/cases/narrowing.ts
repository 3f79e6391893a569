import * as assert from 'uvu/assert'
import type { FieldOperators, SearchQuery } from '../../../port/search.ts'
import type { Store } from '../../../port/store.ts'
import { aCategory, aContent, FIELDS } from '../../fixtures.ts'
import { aCondition, aSearchQuery, hitSet, seedSearch } from '../search-fixtures.ts'
import { searchSuite } from '../search-suite.ts'
import type { SearchPairing } from '../search-suite.ts'

const T = 'ten_a'
/** `price` is a number in the shop and a text in events: one filter name, two fields. */
const EVENT_PRICE = { id: 'fld_ptext', name: 'price', type: 'text', required: false } as const
const tag = (name: string) => ({ id: `tag_${name}`, name })

/**
 *   n1 shop    red          colour red   price 10    release 2025-01-01   featured true   size s
 *   n2 shop    blue         colour blue  price 5     release 2025-06-20T12:00:00.000Z  featured false  size m
 *   n3 shop    red, blue    colour Red   price 12.5  release 2024-12-31   size l
 *   n4 shop    (no tags, no fields)
 *   n5 shop    green        colour red   price -1    release 2025-01-01
 *   n6 events  red          price "free"
 *   n7 events               price "10"
 */
async function seedNarrowing(store: Store): Promise<void> {
  const widget = (id: string, category: string, over: Parameters<typeof aContent>[3]) => aContent(T, id, category, { title: `Widget ${id}`, ...over })
  await seedSearch(store, T, [aCategory(T, 'cat_shop', { fields: Object.values(FIELDS) }), aCategory(T, 'cat_events', { fields: [EVENT_PRICE] })], [
    widget('n1', 'cat_shop', { tags: [tag('red')], fields: { fld_text: 'red', fld_num: 10, fld_date: '2025-01-01', fld_bool: true, fld_sel: 's' } }),
    widget('n2', 'cat_shop', { tags: [tag('blue')], fields: { fld_text: 'blue', fld_num: 5, fld_date: '2025-06-20T12:00:00.000Z', fld_bool: false, fld_sel: 'm' } }),
    widget('n3', 'cat_shop', { tags: [tag('red'), tag('blue')], fields: { fld_text: 'Red', fld_num: 12.5, fld_date: '2024-12-31', fld_sel: 'l' } }),
    widget('n4', 'cat_shop', {}),
    widget('n5', 'cat_shop', { tags: [tag('green')], fields: { fld_text: 'red', fld_num: -1, fld_date: '2025-01-01' } }),
    widget('n6', 'cat_events', { tags: [tag('red')], fields: { fld_ptext: 'free' } }),
    widget('n7', 'cat_events', { fields: { fld_ptext: '10' } }),
  ])
}

/** Tags (any of them), every filter operator on every field type, and their combinations. */
export function narrowingCases<S extends Store>(name: string, pairing: SearchPairing<S>): void {
  const s = searchSuite(`${name}: search tags and filters`, pairing)
  const widgets = (over: Partial<SearchQuery>) => aSearchQuery('widget', over)
  const on = (fieldId: string, operators: FieldOperators) => widgets({ filters: [aCondition('custom_x', { [fieldId]: operators })] })

  s('tags keep items carrying any of them, by exact name', async ({ store, search }) => {
    await seedNarrowing(store)
    const find = async (tags: string[]) => hitSet(await search.search(T, widgets({ tags })))
    assert.equal(await find(['red']), ['n1', 'n3', 'n6'])
    assert.equal(await find(['red', 'blue']), ['n1', 'n2', 'n3', 'n6'])
    assert.equal(await find(['green', 'nope']), ['n5'])
    assert.equal(await find(['nope']), [])
    assert.equal(await find(['Red']), [])
    assert.equal(hitSet(await search.search(T, widgets({ tags: ['red'], categoryId: 'cat_events' }))), ['n6'])
  })

  const cases: [string, string, FieldOperators, string[]][] = [
    ['text', FIELDS.text.id, { eq: 'red' }, ['n1', 'n5']],
    ['text', FIELDS.text.id, { in: ['red', 'blue'] }, ['n1', 'n2', 'n5']],
    ['text', FIELDS.text.id, { in: ['RED'] }, []],
    ['number', FIELDS.number.id, { eq: 10 }, ['n1']],
    ['number', FIELDS.number.id, { eq: 10.5 }, []],
    ['number', FIELDS.number.id, { gt: 5 }, ['n1', 'n3']],
    ['number', FIELDS.number.id, { gte: 5 }, ['n1', 'n2', 'n3']],
    ['number', FIELDS.number.id, { lt: 10 }, ['n2', 'n5']],
    ['number', FIELDS.number.id, { lte: 10 }, ['n1', 'n2', 'n5']],
    ['number', FIELDS.number.id, { gte: 5, lt: 12.5 }, ['n1', 'n2']],
    ['number', FIELDS.number.id, { in: [5, 12.5, 99] }, ['n2', 'n3']],
    ['number', FIELDS.number.id, { lt: 100 }, ['n1', 'n2', 'n3', 'n5']],
    ['number', FIELDS.number.id, { gt: 0, lt: 0 }, []],
    ['number', FIELDS.number.id, { eq: 10, in: [10, 5] }, ['n1']],
    ['date', FIELDS.date.id, { eq: '2025-01-01' }, ['n1', 'n5']],
    ['date', FIELDS.date.id, { gt: '2025-01-01' }, ['n2']],
    ['date', FIELDS.date.id, { gte: '2025-01-01' }, ['n1', 'n2', 'n5']],
    ['date', FIELDS.date.id, { lt: '2025-01-01' }, ['n3']],
    ['date', FIELDS.date.id, { lte: '2025-01-01' }, ['n1', 'n3', 'n5']],
    ['date', FIELDS.date.id, { in: ['2024-12-31', '2025-06-20T12:00:00.000Z'] }, ['n2', 'n3']],
    ['boolean', FIELDS.boolean.id, { eq: true }, ['n1']],
    ['boolean', FIELDS.boolean.id, { eq: false }, ['n2']],
    ['boolean', FIELDS.boolean.id, { in: [true, false] }, ['n1', 'n2']],
    ['select', FIELDS.select.id, { eq: 'm' }, ['n2']],
    ['select', FIELDS.select.id, { in: ['s', 'l'] }, ['n1', 'n3']],
  ]
  s('every operator on every field type keeps the items whose value satisfies it; items lacking the field never', async ({ store, search }) => {
    await seedNarrowing(store)
    for (const [type, fieldId, operators, expected] of cases) {
      const result = await search.search(T, on(fieldId, operators))
      assert.equal(hitSet(result), expected, `${type} ${JSON.stringify(operators)}`)
      assert.is(result.total, expected.length, `total of ${type} ${JSON.stringify(operators)}`)
    }
  })

  s('a value of another type never matches: a number is not its text', async ({ store, search }) => {
    await seedNarrowing(store)
    assert.equal(hitSet(await search.search(T, on(EVENT_PRICE.id, { eq: 10 }))), [])
    assert.equal(hitSet(await search.search(T, on(EVENT_PRICE.id, { eq: '10' }))), ['n7'])
    assert.equal(hitSet(await search.search(T, on(FIELDS.number.id, { eq: '10' }))), [])
    assert.equal(hitSet(await search.search(T, on(FIELDS.number.id, { gt: '1' }))), [])
  })

  s('filter entries combine with AND; one name over several fields matches by any of them', async ({ store, search }) => {
    await seedNarrowing(store)
    const both = widgets({ filters: [aCondition('custom_colour', { [FIELDS.text.id]: { eq: 'red' } }), aCondition('custom_price', { [FIELDS.number.id]: { gte: 0 } })] })
    assert.equal(hitSet(await search.search(T, both)), ['n1'])
    const price = aCondition('custom_price', { [FIELDS.number.id]: { gte: 10 }, [EVENT_PRICE.id]: { eq: 'free' } })
    assert.equal(hitSet(await search.search(T, widgets({ filters: [price] }))), ['n1', 'n3', 'n6'])
    assert.equal(hitSet(await search.search(T, widgets({ filters: [price], tags: ['red'], categoryId: 'cat_shop' }))), ['n1', 'n3'])
  })

  s('a filter follows a changed value at once', async ({ store, search }) => {
    await seedNarrowing(store)
    const query = on(FIELDS.number.id, { gte: 10 })
    assert.equal(hitSet(await search.search(T, query)), ['n1', 'n3'])
    const n2 = await store.getContent(T, 'n2')
    assert.ok(n2)
    await store.transaction((tx) => tx.putContent({ ...n2, fields: { ...n2.fields, fld_num: 11 }, version: 2 }))
    assert.equal(hitSet(await search.search(T, query)), ['n1', 'n2', 'n3'])
    assert.equal(hitSet(await search.search(T, on(FIELDS.number.id, { eq: 5 }))), [])
  })

  s.run()
}
