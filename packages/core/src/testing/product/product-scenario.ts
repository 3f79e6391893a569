import fc from 'fast-check'
import type { FieldType, FieldValue } from '../../model/category.ts'
import type { QueryPart } from './related-queries.ts'

/*
 * Random sequences of what operators and clients do to a frontdesk, for the product's
 * differential check (`productDifferentialCheck`): imports of categories (custom fields of
 * every type), tags and items (English and Japanese), edits, deletes, status changes,
 * categories switched off and their fields changed, tags renamed, time moving (a little and a
 * lot), preview tokens and keys made, used, revoked and disabled, and reads of both tenants:
 * searches, lists walked page by page, details, categories. Small vocabularies, so that words,
 * prefixes, typos, tags, values and dates collide often. Everything is data (ids, names, field
 * ids are chosen here), so that the product and the reference are told exactly the same.
 */

/** The two tenants of every scenario. */
export const PRODUCT_TENANTS = [
  { id: 'ten_pa', code: 'pa' },
  { id: 'ten_pb', code: 'pb' },
] as const

/** A tenant of the scenario: 0 or 1. */
export type TenantIndex = 0 | 1

/** `null` three times in four, else a value of `arbitrary`. */
function rarely<T>(arbitrary: fc.Arbitrary<T>): fc.Arbitrary<T | null> {
  return fc.oneof({ arbitrary: fc.constant(null), weight: 3 }, { arbitrary, weight: 1 })
}

/** A custom field every category that has it defines alike (a field keeps its id and type). */
export interface FieldSpec {
  id: string
  name: string
  type: FieldType
}

/** The fields, by key. `price` is a number in shop and a text in blog: one name, two ids and types. */
export const PRODUCT_FIELDS = {
  price: { id: 'fld_price', name: 'price', type: 'number' },
  size: { id: 'fld_size', name: 'size', type: 'select' },
  day: { id: 'fld_day', name: 'day', type: 'date' },
  open: { id: 'fld_open', name: 'open', type: 'boolean' },
  note: { id: 'fld_note', name: 'note', type: 'text' },
  city: { id: 'fld_city', name: 'city', type: 'select' },
  priceText: { id: 'fld_price_t', name: 'price', type: 'text' },
} as const satisfies Record<string, FieldSpec>

/** A key of `PRODUCT_FIELDS`. */
export type FieldKey = keyof typeof PRODUCT_FIELDS

/** The categories: which fields each may define (a category change keeps a subset). */
export const PRODUCT_CATEGORIES = {
  cat_news: { code: 'news', fields: ['note', 'day', 'city'] },
  cat_shop: { code: 'shop', fields: ['price', 'size', 'open', 'day'] },
  cat_blog: { code: 'blog', fields: ['priceText', 'note'] },
} as const satisfies Record<string, { code: string; fields: readonly FieldKey[] }>

/** A category id of the scenario. */
export type CategoryId = keyof typeof PRODUCT_CATEGORIES
const CATEGORY_IDS = Object.keys(PRODUCT_CATEGORIES) as CategoryId[]

/** Options of the select fields, in one of a few versions (`l` removed: a tightened category). */
export const SELECT_OPTIONS: Record<string, readonly (readonly string[])[]> = {
  size: [['s', 'm', 'l'], ['s', 'm', 'l', 'xl'], ['s', 'm']],
  city: [['東京', '大阪'], ['東京', '大阪', '京都']],
}

/** Values a field of each type gets (select fields: their options). */
export const FIELD_VALUES: Record<Exclude<FieldType, 'select'>, readonly FieldValue[]> = {
  number: [-1, 0, 2.5, 7, 10],
  text: ['red', 'blue', 'Red', 'harbour light', '東京タワー'],
  date: ['2024-12-31', '2025-01-01', '2025-06-20T12:00:00.000Z'],
  boolean: [true, false],
}

/** The tags (fixed ids; their names change with `renameTag`). */
export const PRODUCT_TAGS = [
  { id: 'tag_red', name: 'red' },
  { id: 'tag_green', name: 'green' },
  { id: 'tag_tokyo', name: '東京' },
  { id: 'tag_sale', name: 'sale' },
] as const
const TAG_NAMES = ['red', 'rouge', 'green', '東京', '京都', 'sale', 'セール', 'harbour']

/** Items are `cnt_00` … `cnt_23` (slug `item-00` …). */
export const ITEM_COUNT = 24

/** Mostly one of the first half of the items (which imports write most), so that reads find them. */
const itemNumber = fc.oneof({ arbitrary: fc.nat(ITEM_COUNT / 2 - 1), weight: 3 }, { arbitrary: fc.nat(ITEM_COUNT - 1), weight: 1 })

const WORDS = ['harbour', 'lights', 'lighthouse', 'office', 'relocation', 'café', "don't", 'e-mail', '3.14', '東京都', 'オフィス移転のお知らせ', '夏季休業', 'ＯＦＦＩＣＥ', 'note']
const text = (max: number) => fc.array(fc.constantFrom(...WORDS), { maxLength: max }).map((words) => words.join(' '))

/** A category as an import defines it. */
export interface CategorySpec {
  id: CategoryId
  active: boolean
  sort: number
  /** Which of its fields it defines, and which of those are required. */
  fields: { key: FieldKey; required: boolean }[]
  /** Index into `SELECT_OPTIONS` for each select field. */
  options: number
}

const categorySpec: fc.Arbitrary<CategorySpec> = fc.constantFrom(...CATEGORY_IDS).chain((id) =>
  fc.record({
    id: fc.constant(id),
    active: fc.constantFrom(true, true, true, false),
    sort: fc.nat(2),
    fields: fc.subarray([...PRODUCT_CATEGORIES[id].fields]).chain((keys) =>
      fc.tuple(...keys.map((key) => fc.constantFrom(false, false, false, false, false, true).map((required) => ({ key, required })))),
    ),
    options: fc.nat(2),
  }),
)

/** An item as an import writes it; its field values are chosen for whatever fields its category has then. */
export interface ItemSpec {
  n: number
  category: CategoryId
  /** `item-NN`, `item-NN-b`, or another item's slug (a conflict, refused). */
  slug: 'own' | 'other' | 'taken'
  status: 'draft' | 'published' | null
  /** `published_at` in minutes from the scenario's start; `null`: not given. */
  minutes: number | null
  title: string
  summary: string
  body: string
  /** Indexes into the tag table. */
  tags: number[]
  /** Per field of the category's pool: a value index, or `null` for none. */
  values: (number | null)[]
  /** Also a value for a field the category does not define (refused). */
  stray: boolean
}

const itemSpec: fc.Arbitrary<ItemSpec> = fc.record({
  n: itemNumber,
  category: fc.constantFrom(...CATEGORY_IDS),
  slug: fc.oneof({ arbitrary: fc.constant<ItemSpec['slug']>('own'), weight: 24 }, { arbitrary: fc.constant<ItemSpec['slug']>('other'), weight: 3 }, { arbitrary: fc.constant<ItemSpec['slug']>('taken'), weight: 1 }),
  status: fc.constantFrom<ItemSpec['status']>('published', 'published', 'published', 'published', 'published', 'draft', null),
  minutes: fc.constantFrom(-90, -90, -5, -5, 0, 0, 1, 3, 30, 120, null),
  title: fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 4 }).map((words) => words.join(' ')),
  summary: text(6),
  body: fc.tuple(text(10), text(4)).map(([a, b]) => `<p>${a}</p>${b === '' ? '' : `<ul><li>${b} &amp; <b>x</b></li></ul>`}`),
  tags: fc.subarray([0, 1, 2, 3]),
  // Hint: a few values, often present, so that filters find some items and not others.
  values: fc.array(fc.option(fc.nat(2), { nil: null, freq: 5 }), { minLength: 4, maxLength: 4 }),
  stray: fc.oneof({ arbitrary: fc.constant(false), weight: 40 }, { arbitrary: fc.constant(true), weight: 1 }),
})

/** A list request's parameters, before spelling. */
export interface ListSpec {
  category: null | { by: 'code' | 'id' | 'both'; id: CategoryId } | 'unknown'
  /** Indexes into the tag table (4: a name no tag has). */
  tags: number[]
  tagIds: number[]
  /** Field keys and value indexes (a value that does not fit the field's type is refused). */
  fieldFilters: { key: FieldKey; value: number }[]
  sort: null | { key: 'published_at' | 'title' | 'updated_at' | FieldKey; direction: 'asc' | 'desc' }
  limit: number | null
  /** How the query string is spelled: parameter order, duplicate tags, spaces (the same request). */
  spelling: number
}

const ALL_FIELD_KEYS = Object.keys(PRODUCT_FIELDS) as FieldKey[]

/** Field filters over `keys` (mostly the listed category's fields: others are refused). */
const fieldFilters = (keys: readonly FieldKey[]) =>
  fc.oneof(
    { arbitrary: fc.constant<never[]>([]), weight: 3 },
    {
      arbitrary: fc.array(fc.record({ key: fc.oneof({ arbitrary: fc.constantFrom(...keys), weight: 6 }, { arbitrary: fc.constantFrom(...ALL_FIELD_KEYS), weight: 1 }), value: fc.nat(4) }), { minLength: 1, maxLength: 2 }),
      weight: 2,
    },
  )

const listCategory: fc.Arbitrary<ListSpec['category']> = fc.oneof(
  { arbitrary: fc.constant(null), weight: 3 },
  { arbitrary: fc.record({ by: fc.constantFrom<'code' | 'id' | 'both'>('code', 'id', 'both'), id: fc.constantFrom(...CATEGORY_IDS) }), weight: 3 },
  { arbitrary: fc.constant<'unknown'>('unknown'), weight: 1 },
)

const listSpec: fc.Arbitrary<ListSpec> = listCategory.chain((category) => {
  const keys = category === null || category === 'unknown' ? ALL_FIELD_KEYS : [...PRODUCT_CATEGORIES[category.id].fields]
  return fc.record({
    category: fc.constant(category),
    tags: fc.oneof({ arbitrary: fc.constant<never[]>([]), weight: 3 }, { arbitrary: fc.subarray([0, 1, 2, 3, 4], { minLength: 1, maxLength: 2 }), weight: 1 }),
    tagIds: fc.oneof({ arbitrary: fc.constant<never[]>([]), weight: 4 }, { arbitrary: fc.subarray([0, 1, 2, 3], { minLength: 1, maxLength: 2 }), weight: 1 }),
    fieldFilters: fieldFilters(keys),
    sort: rarely(
      fc.record({
        key: fc.oneof(
          { arbitrary: fc.constantFrom<NonNullable<ListSpec['sort']>['key']>('published_at', 'title', 'updated_at'), weight: 2 },
          { arbitrary: fc.constantFrom(...keys), weight: 1 },
        ),
        direction: fc.constantFrom<'asc' | 'desc'>('asc', 'desc'),
      }),
    ),
    limit: fc.constantFrom(1, 2, 3, 5, 20, null),
    spelling: fc.nat(7),
  })
})

/** A filter entry of a search: a plain value, or operators (ranges also on text, which is refused). */
export interface FilterSpec {
  key: FieldKey
  ops: { op: 'plain' | 'eq' | 'gt' | 'gte' | 'lt' | 'lte' | 'in'; values: number[] }[]
}

const filterSpec: fc.Arbitrary<FilterSpec> = fc.constantFrom(...ALL_FIELD_KEYS).chain((key) => {
  const type: FieldType = PRODUCT_FIELDS[key].type
  const ranged = type === 'number' || type === 'date'
  // Hint: ranges on other types are refused; now and then one is asked anyway.
  const op = ranged
    ? fc.constantFrom<FilterSpec['ops'][number]['op']>('eq', 'gt', 'gte', 'lt', 'lte', 'in')
    : fc.oneof({ arbitrary: fc.constantFrom<FilterSpec['ops'][number]['op']>('eq', 'in'), weight: 8 }, { arbitrary: fc.constantFrom<FilterSpec['ops'][number]['op']>('gt', 'lte'), weight: 1 })
  return fc.record({
    key: fc.constant(key),
    ops: fc.oneof(
      fc.nat(4).map((v) => [{ op: 'plain' as const, values: [v] }]),
      fc.uniqueArray(op, { minLength: 1, maxLength: 2 }).chain((ops) =>
        fc.tuple(...ops.map((o) => fc.array(fc.nat(4), { minLength: 1, maxLength: o === 'in' ? 3 : 1 }).map((values) => ({ op: o, values })))),
      ),
    ),
  })
})

/** A search request, before it is written as a body. */
export interface SearchSpec {
  words: string[]
  category: CategoryId | 'cat_nope' | null
  tags: number[] | null
  filters: FilterSpec[]
  sort: null | 'relevance' | 'published_at:asc' | 'published_at:desc' | { key: FieldKey; direction: 'asc' | 'desc' }
  from: number | null
  size: number | null
}

const queryWord = fc.oneof(
  { arbitrary: fc.constantFrom(...WORDS), weight: 4 },
  { arbitrary: fc.constantFrom(...WORDS).map((word) => [...word].slice(0, Math.max(1, Math.ceil([...word].length / 2))).join('')), weight: 2 },
  { arbitrary: fc.constantFrom(...WORDS).map((word) => `${word.slice(0, 3)}${word.slice(3, 4) === 'x' ? 'y' : 'x'}${word.slice(4)}`), weight: 1 },
  { arbitrary: fc.constantFrom('移転', '京', '休業', 'zebra', 'cafe', 'LIGHT', 'red', 'sale', '東京'), weight: 2 },
)

const searchSort: fc.Arbitrary<SearchSpec['sort']> = fc.oneof(
  { arbitrary: fc.constantFrom<SearchSpec['sort']>(null, 'relevance', 'published_at:asc', 'published_at:desc'), weight: 3 },
  { arbitrary: fc.record({ key: fc.constantFrom<FieldKey>('price', 'size', 'day', 'open', 'note', 'city'), direction: fc.constantFrom<'asc' | 'desc'>('asc', 'desc') }), weight: 1 },
)

/** A search narrowed by anything: category, tags, filters, any page. */
const narrowSearch: fc.Arbitrary<SearchSpec> = fc.record({
  words: fc.array(queryWord, { minLength: 1, maxLength: 2 }),
  category: fc.constantFrom<SearchSpec['category']>(null, null, null, null, 'cat_news', 'cat_shop', 'cat_blog', 'cat_nope'),
  tags: rarely(fc.subarray([0, 1, 2, 3, 4], { minLength: 1, maxLength: 2 })),
  filters: fc.oneof({ arbitrary: fc.constant<never[]>([]), weight: 3 }, { arbitrary: fc.array(filterSpec, { minLength: 1, maxLength: 2 }), weight: 1 }),
  sort: searchSort,
  from: fc.constantFrom(null, 0, 1, 3, 10),
  size: fc.constantFrom(null, 1, 2, 5, 20),
})

/** A filter entry the field accepts: operators of its type, values of its pool's first (valid) ones. */
function acceptedFilter(keys: readonly FieldKey[]): fc.Arbitrary<FilterSpec> {
  return fc.constantFrom(...keys).chain((key) => {
    const type: FieldType = PRODUCT_FIELDS[key].type
    const ops = type === 'number' || type === 'date' ? (['eq', 'gt', 'gte', 'lt', 'lte', 'in'] as const) : (['eq', 'in'] as const)
    const value = fc.nat(type === 'select' ? 1 : 2)
    return fc.record({
      key: fc.constant(key),
      ops: fc.oneof(
        value.map((v) => [{ op: 'plain' as const, values: [v] }]),
        fc.uniqueArray(fc.constantFrom(...ops), { minLength: 1, maxLength: 2 }).chain((chosen) =>
          fc.tuple(...chosen.map((op) => fc.array(value, { minLength: 1, maxLength: op === 'in' ? 3 : 1 }).map((values) => ({ op, values })))),
        ),
      ),
    })
  })
}

/** A filtered search that finds something to filter: one common word, the filtered fields' category or none, the first pages. */
const filteredSearch: fc.Arbitrary<SearchSpec> = fc.constantFrom<CategoryId | null>(null, null, 'cat_shop', 'cat_news').chain((category) =>
  fc.record({
    words: fc.constantFrom(['harbour'], ['office'], ['note'], ['lights'], ['東京都'], ['夏季'], ['off']),
    category: fc.constant(category),
    tags: fc.constant(null),
    filters: fc.array(acceptedFilter(category === null ? ['price', 'size', 'day', 'open', 'city'] : [...PRODUCT_CATEGORIES[category].fields]), { minLength: 1, maxLength: 2 }),
    sort: searchSort,
    from: fc.constantFrom(null, 0, 0, 1),
    size: fc.constantFrom(null, 2, 5, 20),
  }),
)

const searchSpec: fc.Arbitrary<SearchSpec> = fc.oneof({ arbitrary: narrowSearch, weight: 2 }, { arbitrary: filteredSearch, weight: 1 })

/** One operation of a scenario. */
export type ProductOp =
  | { kind: 'import'; tenant: TenantIndex; categories: CategorySpec[]; items: ItemSpec[] }
  | { kind: 'delete'; tenant: TenantIndex; n: number; bySlug: boolean }
  | { kind: 'status'; tenant: TenantIndex; n: number; status: 'draft' | 'published' }
  | { kind: 'renameTag'; tenant: TenantIndex; tag: number; name: string }
  /** The clock moves forward by `ms`, or (`ms` null) to just past the next scheduled item of either tenant. */
  | { kind: 'time'; ms: number | null }
  | { kind: 'search'; tenant: TenantIndex; search: SearchSpec }
  /**
   * The last search (or list) again with some of its parts taken from `search` (`list`):
   * the same words, page and order with other filters, tags or category, say — what a memo's
   * key must tell apart.
   */
  | { kind: 'related'; search: SearchSpec; list: ListSpec; change: QueryPart[] }
  /** A list, its pages walked with `next_cursor` when `walk`; `preview`: a token (index into those made). */
  | { kind: 'list'; tenant: TenantIndex; list: ListSpec; walk: boolean; preview: number | null }
  | { kind: 'detail'; tenant: TenantIndex; n: number; bySlug: boolean; preview: number | null }
  | { kind: 'categories'; tenant: TenantIndex; id: CategoryId | 'cat_nope' | null }
  | { kind: 'previewCreate'; tenant: TenantIndex; target: { kind: 'content'; n: number } | { kind: 'category'; id: CategoryId }; ttlMs: number }
  | { kind: 'previewRevoke'; token: number }
  | { kind: 'keyCreate'; tenant: TenantIndex; permissions: string[]; personal: boolean }
  | { kind: 'keyDisable'; key: number; disabled: boolean }
  | { kind: 'keyDelete'; key: number }
  /** Authenticates a key made before (or, `key` -1, one nobody holds) for an operation's permission. */
  | { kind: 'auth'; key: number; permission: 'cms:read' | 'cms:search' | 'inquiry:create' }
  /** The last read again, exactly as it was asked. */
  | { kind: 'again' }
  /** The product starts again over its storage (a new process: memos and caches empty, search from its snapshots). */
  | { kind: 'restart' }

const tenant = fc.constantFrom<TenantIndex>(0, 0, 1)
const MINUTE = 60_000

const op: fc.Arbitrary<ProductOp> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('import' as const), tenant, categories: fc.array(categorySpec, { maxLength: 2 }), items: fc.array(itemSpec, { minLength: 1, maxLength: 6 }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('import' as const), tenant, categories: fc.tuple(categorySpec).map((c) => [...c]), items: fc.constant<ItemSpec[]>([]) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('delete' as const), tenant, n: itemNumber, bySlug: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('status' as const), tenant, n: itemNumber, status: fc.constantFrom<'draft' | 'published'>('draft', 'published') }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('renameTag' as const), tenant, tag: fc.nat(3), name: fc.constantFrom(...TAG_NAMES) }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('time' as const), ms: fc.constantFrom(1_000, 5_000, 30_000, 59_000, 61_000, 10 * MINUTE, 120 * MINUTE, 1_440 * MINUTE, null, null) }) },
  { weight: 6, arbitrary: fc.record({ kind: fc.constant('search' as const), tenant, search: searchSpec }) },
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('list' as const), tenant, list: listSpec, walk: fc.boolean(), preview: rarely(fc.nat(3)) }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('detail' as const), tenant, n: itemNumber, bySlug: fc.boolean(), preview: rarely(fc.nat(3)) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('categories' as const), tenant, id: fc.constantFrom<CategoryId | 'cat_nope' | null>(null, null, 'cat_news', 'cat_shop', 'cat_blog', 'cat_nope') }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('previewCreate' as const),
      tenant,
      target: fc.oneof(itemNumber.map((n) => ({ kind: 'content' as const, n })), fc.constantFrom(...CATEGORY_IDS).map((id) => ({ kind: 'category' as const, id }))),
      ttlMs: fc.constantFrom(30_000, 3_600_000),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('previewRevoke' as const), token: fc.nat(3) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('keyCreate' as const), tenant, permissions: fc.subarray(['cms:read', 'cms:search', 'inquiry:create'], { minLength: 1 }), personal: fc.constantFrom(false, false, false, true) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('keyDisable' as const), key: fc.nat(3), disabled: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('keyDelete' as const), key: fc.nat(3) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('auth' as const), key: fc.integer({ min: -1, max: 3 }), permission: fc.constantFrom<'cms:read' | 'cms:search' | 'inquiry:create'>('cms:read', 'cms:search', 'inquiry:create') }) },
  { weight: 3, arbitrary: fc.constant({ kind: 'again' as const }) },
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('related' as const),
      search: searchSpec,
      list: listSpec,
      change: fc.oneof(
        { arbitrary: fc.constant<QueryPart[]>(['filters']), weight: 2 },
        { arbitrary: fc.subarray<QueryPart>(['words', 'category', 'tags', 'filters', 'sort', 'page'], { minLength: 1, maxLength: 2 }), weight: 3 },
      ),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ kind: 'restart' as const }) },
)

/** The first `count` items, as a first import writes them: accepted (own slugs, values only for their fields). */
function seedItems(count: number): fc.Arbitrary<ItemSpec[]> {
  return fc.array(itemSpec, { minLength: count, maxLength: count }).map((specs) => specs.map((spec, n) => ({ ...spec, n, slug: 'own' as const, stray: false })))
}

/** A scenario: a first import into each tenant (every category, some items), then the operations. */
export interface ProductScenario {
  seed: [ItemSpec[], ItemSpec[]]
  ops: ProductOp[]
}

/** Random scenarios of `productDifferentialCheck`. */
export const productScenario: fc.Arbitrary<ProductScenario> = fc.record({
  seed: fc.tuple(seedItems(ITEM_COUNT), seedItems(ITEM_COUNT / 4)),
  ops: fc.array(op, { minLength: 10, maxLength: 50, size: 'max' }),
})
