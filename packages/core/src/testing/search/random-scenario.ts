import fc from 'fast-check'
import type { CategoryRecord, FieldDefinition, FieldValue } from '../../model/category.ts'
import type { ContentRecord } from '../../model/content.ts'
import type { TagRecord } from '../../model/tag.ts'
import type { FieldCondition, FieldOperators, SearchQuery, SearchSort } from '../../port/search.ts'
import { parseQuery } from '../../search/query-terms.ts'
import { synonymSetOf, withSynonyms } from '../../search/synonyms.ts'
import { aCategory, aContent, at } from '../fixtures.ts'

/*
 * Random catalogues and sequences of operations for the differential check: small
 * vocabularies, so that words, prefixes, typos, tags, values and dates collide often, over
 * three categories whose custom fields share names with different ids and types.
 */

const NUM = { id: 'f_num', name: 'price', type: 'number', required: false } as const
const PRICE_TEXT = { id: 'f_ptext', name: 'price', type: 'text', required: false } as const
const COLOUR_1 = { id: 'f_text1', name: 'colour', type: 'text', required: false } as const
const COLOUR_2 = { id: 'f_text2', name: 'colour', type: 'text', required: false } as const
const SIZE: FieldDefinition = { id: 'f_sel', name: 'size', type: 'select', options: ['s', 'm', 'l'], required: false }
const RELEASE_1 = { id: 'f_date1', name: 'release', type: 'date', required: false } as const
const RELEASE_2 = { id: 'f_date2', name: 'release', type: 'date', required: false } as const
const FEATURED = { id: 'f_bool', name: 'featured', type: 'boolean', required: false } as const

/** The categories' fields: c1 and c2 share names, c3 has none. */
export const CATEGORY_FIELDS: Record<string, FieldDefinition[]> = {
  c1: [NUM, COLOUR_1, SIZE, RELEASE_1, FEATURED],
  c2: [PRICE_TEXT, COLOUR_2, RELEASE_2],
  c3: [],
}
const CATEGORY_IDS = Object.keys(CATEGORY_FIELDS)

const VALUES: Record<string, readonly FieldValue[]> = {
  number: [-1, 0, 2.5, 7, 10],
  text: ['red', 'blue', 'Red', 'free', 'harbour'],
  select: ['s', 'm', 'l'],
  date: ['2024-12-31', '2025-01-01', '2025-06-20T12:00:00.000Z'],
  boolean: [true, false],
}

// Words with a form of each analyzer rule: stems (`learned`, `migration`), compounds (`e-mail`, `COVID-19`), kana
// (`ぷらいばしー`), a trailing long-vowel mark (`コンピューター`), a katakana separator (`ソフトウェア・エンジニア`).
const WORDS = [
  'harbour', 'lights', 'lighthouse', 'office', 'relocation', 'café', "don't", 'e-mail', '3.14', '東京都', 'オフィス移転のお知らせ', '서울', 'ＯＦＦＩＣＥ',
  'learned', 'migration', 'COVID-19', 'email', 'ぷらいばしー', 'コンピューター', 'ソフトウェア・エンジニア',
]
/** Words of random phrases: few, so that the texts often hold two of them side by side, in one order or the other. */
const PHRASE_WORDS = ['harbour', 'lights', 'office', 'learned', 'email', 'ソフトウェア・エンジニア', 'COVID-19']
/** A word as a query may hold it: whole, a prefix, with a typo, in upper case, or one no item has. */
const queryWord = fc.oneof(
  { arbitrary: fc.constantFrom(...WORDS), weight: 4 },
  { arbitrary: fc.constantFrom(...WORDS).map((word) => [...word].slice(0, Math.max(1, Math.ceil([...word].length / 2))).join('')), weight: 2 },
  { arbitrary: fc.constantFrom(...WORDS).map((word) => `${word.slice(0, 3)}${word.slice(3, 4) === 'x' ? 'y' : 'x'}${word.slice(4)}`), weight: 2 },
  { arbitrary: fc.constantFrom(...WORDS).map((word) => word.toUpperCase()), weight: 1 },
  { arbitrary: fc.constantFrom('zebra', '移転', '京', 'mail', 'dont', 'cafe', 'lighthous', 'harbors'), weight: 1 },
  // An excluded word (`-word`).
  { arbitrary: fc.constantFrom(...WORDS).map((word) => `-${word}`), weight: 2 },
  // Other forms of the words, as the analyzer's rules find them.
  {
    arbitrary: fc.constantFrom('learning', 'migrating', 'lighting', 'covid19', 'covid-19', 'e-mail', 'e_mail', 'e.mail', 'プライバシー', 'コンピュータ', 'ソフトウェアエンジニア', 'エンジニア', 'こんぴゅーたー'),
    weight: 6,
  },
  // A phrase (`"a phrase"`): two words that may stand side by side in a text, a stretch of a Japanese word, or quotes that are plain text.
  { arbitrary: fc.tuple(fc.constantFrom(...PHRASE_WORDS), fc.constantFrom(...PHRASE_WORDS)).map(([a, b]) => `"${a} ${b}"`), weight: 2 },
  {
    arbitrary: fc.constantFrom('"移転のお知らせ"', '"ンピューター"', '"こんぴゅーた"', '"知らせ オフィス"', '"lighthouse"', '"light"', '"covid 19"', '"e-mail office"', '"', '""', '"lights', '"-office harbour"'),
    weight: 1,
  },
)
const TAGS = ['red', 'green', 'blue', '東京']
/** Minutes from `SEARCH_NOW`, with ties. */
const MINUTES = [-120, -60, -60, -30, -30, -1, 0, 0, 1, 30, 120]

const text = fc.array(fc.constantFrom(...WORDS), { maxLength: 10 }).map((words) => words.join(' '))

/** An item of a random category and tenant (0 or 1), with values for its category's fields only. */
export interface RandomItem {
  tenant: 0 | 1
  id: string
  category: string
  status: 'draft' | 'published'
  /** `published_at` in minutes from `SEARCH_NOW`; `null` for a draft never published. */
  minutes: number | null
  title: string
  summary: string
  body: string
  tags: string[]
  fields: Record<string, FieldValue>
}

const item: fc.Arbitrary<RandomItem> = fc
  .record({
    tenant: fc.constantFrom<0 | 1>(0, 0, 1),
    n: fc.integer({ min: 0, max: 39 }),
    category: fc.constantFrom(...CATEGORY_IDS),
    published: fc.constantFrom(true, true, true, true, false),
    minutes: fc.option(fc.constantFrom(...MINUTES), { nil: null, freq: 6 }),
    title: text,
    summary: text,
    body: text.map((t) => `<p>${t.replace(' ', ' <b>')}</p>`),
    tags: fc.subarray(TAGS),
    values: fc.array(fc.nat(), { minLength: 5, maxLength: 5 }),
    present: fc.array(fc.constantFrom(true, true, true, false), { minLength: 5, maxLength: 5 }),
  })
  .map(({ n, published, minutes, values, present, ...rest }): RandomItem => {
    const fields: Record<string, FieldValue> = {}
    for (const [i, field] of (CATEGORY_FIELDS[rest.category] ?? []).entries()) {
      const pool = VALUES[field.type] ?? []
      if (present[i] === true && pool.length > 0) fields[field.id] = pool[(values[i] ?? 0) % pool.length] as FieldValue
    }
    return { ...rest, id: `r${String(n).padStart(2, '0')}`, status: published && minutes !== null ? 'published' : 'draft', minutes, fields }
  })

/** The item as a record of `tenantId`; its tags are `tag_<index in TAGS>`. */
export function itemRecord(tenantId: string, item: RandomItem): ContentRecord {
  return aContent(tenantId, item.id, item.category, {
    status: item.status, published_at: item.minutes === null ? null : at(item.minutes), title: item.title, summary: item.summary,
    body: item.body, fields: item.fields, slug: `slug-${item.id}`, tags: item.tags.map((name) => ({ id: `tag_${TAGS.indexOf(name)}`, name })),
  })
}

/** Operators for a field of `type`: mostly one; ranges only on numbers and dates (as core resolves requests). */
function operators(type: string): fc.Arbitrary<FieldOperators> {
  const value = fc.constantFrom(...(VALUES[type] ?? []))
  const ranged = type === 'number' || type === 'date'
  const one = fc
    .constantFrom(...(ranged ? (['eq', 'in', 'gt', 'gte', 'lt', 'lte'] as const) : (['eq', 'in'] as const)))
    .chain((op): fc.Arbitrary<FieldOperators> =>
      op === 'in' ? fc.uniqueArray(value, { minLength: 1, maxLength: 3 }).map((values) => ({ in: values })) : value.map((v) => ({ [op]: v })),
    )
  if (!ranged) return one
  const between = fc
    .tuple(fc.constantFrom('gt', 'gte'), value, fc.constantFrom('lt', 'lte'), value)
    .map(([low, from, high, to]): FieldOperators => ({ [low]: from, [high]: to }))
  return fc.oneof({ arbitrary: one, weight: 3 }, { arbitrary: between, weight: 1 })
}

/** A filter entry over the fields of one name (one or both of its ids). */
const condition: fc.Arbitrary<FieldCondition> = fc.constantFrom<[string, FieldDefinition[]]>(
  ['price', [NUM, PRICE_TEXT]], ['colour', [COLOUR_1, COLOUR_2]], ['size', [SIZE]], ['release', [RELEASE_1, RELEASE_2]], ['featured', [FEATURED]],
).chain(([name, fields]) =>
  fc.subarray(fields, { minLength: 1 }).chain((chosen) =>
    fc.tuple(...chosen.map((field) => operators(field.type).map((ops) => [field.id, ops] as const))).map((entries) => ({
      key: `custom_${name}`, byFieldId: new Map(entries),
    })),
  ),
)

const sort: fc.Arbitrary<SearchSort> = fc.oneof(
  fc.constant<SearchSort>({ kind: 'relevance' }),
  fc.constantFrom('asc', 'desc').map((direction): SearchSort => ({ kind: 'published_at', direction })),
  fc.record({
    fieldIds: fc.constantFrom([NUM.id, PRICE_TEXT.id], [COLOUR_1.id, COLOUR_2.id], [SIZE.id], [RELEASE_1.id, RELEASE_2.id], [FEATURED.id]),
    direction: fc.constantFrom('asc', 'desc'),
  }).map(({ fieldIds, direction }): SearchSort => ({ kind: 'field', fieldIds, direction })),
)

/** A search of tenant 0 or 1, at the scenario's current `now` (filled in when run). */
export interface RandomSearch {
  tenant: 0 | 1
  query: Omit<SearchQuery, 'now'>
}

/** What narrows a search beside its terms. */
const narrowing = fc.record({
  categoryId: fc.oneof({ arbitrary: fc.constant(null), weight: 6 }, { arbitrary: fc.constantFrom('c1', 'c2', 'c3', 'c_unknown'), weight: 3 }),
  tags: fc.oneof({ arbitrary: fc.constant(null), weight: 3 }, { arbitrary: fc.subarray([...TAGS, 'nope'], { minLength: 1 }), weight: 1 }),
  filters: fc.oneof({ arbitrary: fc.constant<FieldCondition[]>([]), weight: 4 }, { arbitrary: fc.tuple(condition), weight: 2 }, { arbitrary: fc.tuple(condition, condition), weight: 1 }),
})

/**
 * Synonym groups over the words above (`synonyms.ts`): two-way and one-way, English and
 * Japanese, a multi-word and a compound synonym, a one-character CJK key, a loop.
 */
export const SYNONYM_LINES: readonly string[] = [
  'harbour, lighthouse',
  'office => relocation, オフィス',
  'zebra => harbour lights',
  '移転, relocation',
  'mail => e-mail',
  'cafe, コンピュータ',
  'learned => migration',
  'migration => learned',
  '京 => 東京都',
  'dont, email, ソフトウェア',
]

const search: fc.Arbitrary<RandomSearch> = fc
  .record({
    tenant: fc.constantFrom<0 | 1>(0, 0, 0, 1),
    words: fc.oneof({ arbitrary: fc.tuple(queryWord), weight: 3 }, { arbitrary: fc.array(queryWord, { minLength: 2, maxLength: 3 }), weight: 1 }),
    synonyms: fc.oneof({ arbitrary: fc.constant<string[]>([]), weight: 1 }, { arbitrary: fc.subarray([...SYNONYM_LINES], { minLength: 1 }), weight: 2 }),
    narrowing,
    sort,
    from: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 5 }), fc.integer({ min: 0, max: 30 })),
    size: fc.integer({ min: 1, max: 6 }),
  })
  .map(({ tenant, words, synonyms, narrowing: n, ...rest }): RandomSearch => {
    const parsed = parseQuery(words.join(' '))
    return { tenant, query: { ...parsed, terms: withSynonyms(parsed.terms, synonymSetOf(synonyms)), ...n, ...rest } }
  })
  .filter(({ query }) => query.terms.length > 0)

/**
 * The searches a scenario asks, again and again as it goes: after the first, some differ from
 * it only in category, tags or filters (same terms, sort and page: what a memo's key must
 * still tell apart), others are searches of their own.
 */
const searches: fc.Arbitrary<RandomSearch[]> = search.chain((first) =>
  fc
    .array(
      fc.oneof(
        { arbitrary: narrowing.map((n): RandomSearch => ({ tenant: first.tenant, query: { ...first.query, ...n } })), weight: 1 },
        { arbitrary: otherValues(first.query.filters).map((filters): RandomSearch => ({ tenant: first.tenant, query: { ...first.query, filters } })), weight: first.query.filters.length > 0 ? 2 : 0 },
        { arbitrary: search, weight: 1 },
      ),
      { minLength: 1, maxLength: 4 },
    )
    .map((rest) => [first, ...rest]),
)

/** The type of each field, by id. */
const FIELD_TYPES = new Map(Object.values(CATEGORY_FIELDS).flat().map((field) => [field.id, field.type]))

/** The same filter entries on the same fields, with other operators and values. */
function otherValues(filters: readonly FieldCondition[]): fc.Arbitrary<FieldCondition[]> {
  return fc.tuple(
    ...filters.map((condition) =>
      fc
        .tuple(...[...condition.byFieldId.keys()].map((fieldId) => operators(FIELD_TYPES.get(fieldId) ?? 'text').map((ops) => [fieldId, ops] as const)))
        .map((entries): FieldCondition => ({ key: condition.key, byFieldId: new Map(entries) })),
    ),
  )
}

/** One operation of a scenario. */
export type RandomStep =
  /** Asks search `index` (modulo their number) of the scenario's searches. */
  | { kind: 'search'; index: number }
  | { kind: 'put'; item: RandomItem }
  | { kind: 'delete'; tenant: 0 | 1; id: string }
  /** A category switched on or off, and maybe losing its text fields (so its items' custom text is no longer searched). */
  | { kind: 'category'; tenant: 0 | 1; id: string; active: boolean; dropText: boolean }
  | { kind: 'renameTag'; tenant: 0 | 1; index: number; name: string }
  /** `now` moves (forwards or back) to this many minutes from `SEARCH_NOW`. */
  | { kind: 'time'; minutes: number }

const step: fc.Arbitrary<RandomStep> = fc.oneof(
  { arbitrary: fc.nat(4).map((index): RandomStep => ({ kind: 'search', index })), weight: 6 },
  { arbitrary: item.map((i): RandomStep => ({ kind: 'put', item: i })), weight: 3 },
  { arbitrary: fc.record({ tenant: fc.constantFrom<0 | 1>(0, 0, 1), n: fc.integer({ min: 0, max: 39 }) }).map(({ tenant, n }): RandomStep => ({ kind: 'delete', tenant, id: `r${String(n).padStart(2, '0')}` })), weight: 1 },
  { arbitrary: fc.record({ tenant: fc.constantFrom<0 | 1>(0, 0, 1), id: fc.constantFrom(...CATEGORY_IDS), active: fc.boolean(), dropText: fc.boolean() }).map((c): RandomStep => ({ kind: 'category', ...c })), weight: 1 },
  { arbitrary: fc.record({ tenant: fc.constantFrom<0 | 1>(0, 0, 1), index: fc.integer({ min: 0, max: TAGS.length - 1 }), name: fc.constantFrom('teal', 'red', 'harbour', '京都') }).map((r): RandomStep => ({ kind: 'renameTag', ...r })), weight: 1 },
  { arbitrary: fc.oneof(fc.constantFrom(-90, -45, -10, 0, 10, 45, 90, 150), fc.integer({ min: -150, max: 150 })).map((minutes): RandomStep => ({ kind: 'time', minutes })), weight: 2 },
)

/** A catalogue of both tenants (categories active or not), then operations, searches among them. */
export interface RandomScenario {
  /** Whether each category starts active. */
  active: Record<string, boolean>
  items: RandomItem[]
  /** The searches it asks: one by each `search` step, all of them after every other step. */
  searches: RandomSearch[]
  steps: RandomStep[]
}

/** Random scenarios of the differential check (see `differentialCheck`). */
export const randomScenario: fc.Arbitrary<RandomScenario> = fc.record({
  active: fc.record({ c1: fc.constantFrom(true, true, true, true, false), c2: fc.constantFrom(true, true, true, true, false), c3: fc.constantFrom(true, true, true, true, false) }),
  items: fc.array(item, { minLength: 8, maxLength: 45, size: 'max' }),
  searches,
  steps: fc.array(step, { maxLength: 12, size: 'max' }),
})

/** The scenario's categories for a tenant. */
export function scenarioCategories(tenantId: string, active: Record<string, boolean>): CategoryRecord[] {
  return CATEGORY_IDS.map((id) => aCategory(tenantId, id, { active: active[id] ?? true, fields: CATEGORY_FIELDS[id] ?? [] }))
}

/** The scenario's tags for a tenant (`tag_<index>`). */
export function scenarioTags(tenantId: string): TagRecord[] {
  return TAGS.map((name, index) => ({ tenant_id: tenantId, id: `tag_${index}`, name }))
}
