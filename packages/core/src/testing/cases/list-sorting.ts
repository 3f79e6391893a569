import * as assert from 'uvu/assert'
import type { FieldValue } from '../../model/category.ts'
import type { ContentRecord } from '../../model/content.ts'
import type { ContentQuery, ContentSort, ContentVisibility } from '../../port/content-query.ts'
import type { Store } from '../../port/store.ts'
import { ids } from '../catalogue.ts'
import { aCategory, aContent, aTenant, at, FIELDS } from '../fixtures.ts'
import { storeSuite } from '../store-suite.ts'
import type { OpenStore } from '../store-suite.ts'

type SortValue = string | number | boolean | null

const T = 'ten_a'
const VISIBILITIES: ContentVisibility[] = [
  { kind: 'public', now: at(0) },
  { kind: 'all' },
  { kind: 'public', now: at(0), previewCategoryId: 'cat_1' },
]
const KEYS: ContentSort['key'][] = [
  'published_at', 'title', 'updated_at', 'id',
  { field: FIELDS.number }, { field: FIELDS.text }, { field: FIELDS.boolean }, { field: FIELDS.date },
]

/** `listContents` order: every sort key and direction, ties by id, missing values last, keyset walks. */
export function listSortingCases(name: string, open: OpenStore): void {
  const s = storeSuite(`${name}: listContents sorting and keyset pages`, open)

  s('every sort returns items in order, ties by id in the same direction, missing custom values last', async ({ store }) => {
    const items = await seedSortable(store)
    for (const visibility of VISIBILITIES) {
      for (const sort of sorts()) {
        const expected = expectedOrder(items, visibility, sort)
        const got = await ids(store.listContents(T, { visibility, sort, limit: 100 }))
        assert.equal(got, expected, `${label(sort)} (${JSON.stringify(visibility)})`)
      }
    }
  })

  s('walking every page with after returns each item exactly once, in order', async ({ store }) => {
    const items = await seedSortable(store)
    for (const visibility of VISIBILITIES) {
      for (const sort of sorts()) {
        const walked = await walk(store, { visibility, sort, limit: 4 })
        assert.equal(walked, expectedOrder(items, visibility, sort), `${label(sort)} (${JSON.stringify(visibility)})`)
      }
    }
  })

  s('a walk survives items added and removed between pages: no repeats, nothing that stayed is skipped', async ({ store }) => {
    const items = await seedSortable(store)
    const query: ContentQuery = { visibility: { kind: 'public', now: at(0) }, sort: { key: 'published_at', direction: 'desc' }, limit: 5 }
    const first = await store.listContents(T, query)
    const expected = expectedOrder(items, query.visibility, query.sort)
    const removedSeen = expected[0] ?? ''
    const removedAhead = expected[8] ?? ''
    await store.transaction(async (tx) => {
      await tx.deleteContent(T, removedSeen)
      await tx.deleteContent(T, removedAhead)
      await tx.putContent(aContent(T, 'cnt_new', 'cat_1', { published_at: at(-1000) }))
    })
    const last = first.at(-1)
    assert.ok(last)
    const rest = await walk(store, { ...query, after: { value: last.published_at, id: last.id } })
    const seen = [...first.map((i) => i.id), ...rest]
    assert.is(new Set(seen).size, seen.length, 'no item twice')
    for (const id of expected) if (id !== removedAhead) assert.ok(seen.includes(id), `${id} was not skipped`)
    assert.not.ok(seen.includes(removedAhead))
    assert.is(seen.at(-1), 'cnt_new')
  })

  s.run()
}

function sorts(): ContentSort[] {
  return KEYS.flatMap((key) => (['asc', 'desc'] as const).map((direction) => ({ key, direction })))
}

function label(sort: ContentSort): string {
  return `${typeof sort.key === 'object' ? sort.key.field.name : sort.key}:${sort.direction}`
}

/** Walks every page of `query` by keyset, bounded so that a broken `after` cannot loop forever. */
async function walk(store: Store, query: ContentQuery): Promise<string[]> {
  const out: string[] = []
  let after = query.after
  for (let pages = 0; pages < 100; pages++) {
    const page = await store.listContents(T, { ...query, ...(after === undefined ? {} : { after }) })
    out.push(...page.map((item) => item.id))
    const last = page.at(-1)
    if (page.length < query.limit || last === undefined) return out
    after = { value: sortValue(last, query.sort), id: last.id }
  }
  throw new Error('the walk did not end within 100 pages')
}

/** The item's value for `sort`, as a cursor carries it. */
function sortValue(item: ContentRecord, sort: ContentSort): SortValue {
  const { key } = sort
  if (typeof key === 'object') return item.fields[key.field.id] ?? null
  return item[key]
}

/** The order the port promises, computed in plain code. */
function expectedOrder(items: ContentRecord[], visibility: ContentVisibility, sort: ContentSort): string[] {
  const visible = items.filter(
    (i) =>
      visibility.kind === 'all' ||
      i.category_id === visibility.previewCategoryId ||
      (i.status === 'published' && i.published_at !== null && i.published_at <= visibility.now),
  )
  const sign = sort.direction === 'asc' ? 1 : -1
  return visible
    .slice()
    .sort((a, b) => {
      const va = sortValue(a, sort)
      const vb = sortValue(b, sort)
      if (va === null || vb === null) {
        if (va !== vb) return va === null ? 1 : -1
      } else if (va !== vb) {
        return (va < vb ? -1 : 1) * sign
      }
      return (a.id < b.id ? -1 : 1) * sign
    })
    .map((i) => i.id)
}

/** 24 items with many ties and missing values; a few drafts and a scheduled item. */
async function seedSortable(store: Store): Promise<ContentRecord[]> {
  await store.createTenant(aTenant(T))
  const titles = ['Banana', 'apple', 'Apple', 'Cherry', 'Banana', 'Äpfel']
  const numbers: (FieldValue | undefined)[] = [1, 2.5, -3, undefined, 2.5, 0, undefined, 100]
  const texts: (FieldValue | undefined)[] = ['x', undefined, 'X', 'y', 'x']
  const booleans: (FieldValue | undefined)[] = [true, false, undefined]
  const dates: (FieldValue | undefined)[] = ['2025-01-01', undefined, '2024-12-31T10:00:00.000Z', '2025-01-01']
  const items: ContentRecord[] = []
  for (let n = 0; n < 24; n++) {
    const fields: Record<string, FieldValue> = {}
    const put = (id: string, value: FieldValue | undefined) => {
      if (value !== undefined) fields[id] = value
    }
    put(FIELDS.number.id, numbers[(n * 5) % numbers.length])
    put(FIELDS.text.id, texts[(n * 3) % texts.length])
    put(FIELDS.boolean.id, booleans[n % booleans.length])
    put(FIELDS.date.id, dates[(n * 7) % dates.length])
    const draft = n % 7 === 3
    items.push(
      aContent(T, `cnt_${String((n * 11) % 24).padStart(2, '0')}`, 'cat_1', {
        title: titles[n % titles.length] ?? 'x',
        status: draft ? 'draft' : 'published',
        published_at: draft && n % 2 === 1 ? null : n === 22 ? at(30) : at(-10 * ((n * 7) % 4)),
        updated_at: at((n * 13) % 5),
        fields,
      }),
    )
  }
  await store.transaction(async (tx) => {
    await tx.putCategory(aCategory(T, 'cat_1', { fields: Object.values(FIELDS) }))
    for (const item of items) await tx.putContent(item)
  })
  return items
}
