import type { CategoryRecord, FieldValue } from '../../model/category.ts'
import type { JsonValue } from '../../model/json.ts'
import type { TagRecord } from '../../model/tag.ts'
import { T0 } from '../fixtures.ts'
import type { CategorySpec, FieldKey, FilterSpec, ItemSpec, ListSpec, SearchSpec } from './product-scenario.ts'
import { FIELD_VALUES, PRODUCT_CATEGORIES, PRODUCT_FIELDS, PRODUCT_TAGS, SELECT_OPTIONS } from './product-scenario.ts'

/*
 * The requests a scenario's specs stand for: import records, list query strings (spelled in
 * one of several equivalent ways) and search bodies. Where a spec depends on the state (the
 * current tag names, the fields an item's category has now), it is read from the reference,
 * which both sides then get told alike.
 */

/** What a request is built against: the tenant's categories and tags as the reference has them. */
export interface TenantState {
  categories: readonly CategoryRecord[]
  tags: readonly TagRecord[]
}

/** `cnt_07`. */
export function itemId(n: number): string {
  return `cnt_${String(n).padStart(2, '0')}`
}

/** `item-07`. */
export function itemSlug(n: number): string {
  return `item-${String(n).padStart(2, '0')}`
}

/** The name of the tag at `index` now (4: a name no tag has). */
export function tagName(state: TenantState, index: number): string {
  const id = PRODUCT_TAGS[index]?.id
  return state.tags.find((tag) => tag.id === id)?.name ?? PRODUCT_TAGS[index]?.name ?? 'no-such-tag'
}

/** The value at `index` of the pool of a field (select fields: options of every version, then one no version has). */
export function fieldValue(key: FieldKey, index: number): FieldValue {
  const field = PRODUCT_FIELDS[key]
  if (field.type === 'select') {
    const pool = [...new Set((SELECT_OPTIONS[field.name] ?? []).flat()), 'zz']
    return pool[index % pool.length] ?? 'zz'
  }
  const pool = FIELD_VALUES[field.type]
  return pool[index % pool.length] ?? 0
}

/** The category record an import writes for `spec`. */
export function categoryRecord(spec: CategorySpec): Record<string, JsonValue> {
  const { code } = PRODUCT_CATEGORIES[spec.id]
  return {
    kind: 'category', id: spec.id, code, name: `Category ${code}`, description: `About ${code}`, sort: spec.sort, active: spec.active,
    fields: spec.fields.map(({ key, required }) => {
      const field = PRODUCT_FIELDS[key]
      const versions = SELECT_OPTIONS[field.name]
      const options = versions === undefined ? undefined : versions[spec.options % versions.length]
      return { id: field.id, name: field.name, type: field.type, required, ...(options === undefined ? {} : { options: [...options] }) }
    }),
  }
}

/**
 * The records of one import: the tag table as it stands (so that items name existing tags),
 * the categories, then the items, each with values for the fields its category has then.
 */
export function importRecordsOf(state: TenantState, categories: readonly CategorySpec[], items: readonly ItemSpec[], start: number = Date.parse(T0)): Record<string, JsonValue>[] {
  const records: Record<string, JsonValue>[] = PRODUCT_TAGS.map((tag, i) => ({ kind: 'tag', id: tag.id, name: tagName(state, i) }))
  const defined = new Map<string, Record<string, JsonValue>>()
  for (const spec of categories) {
    const record = categoryRecord(spec)
    defined.set(spec.id, record)
    records.push(record)
  }
  for (const spec of items) records.push(itemRecord(state, defined, spec, start))
  return records
}

function itemRecord(state: TenantState, defined: Map<string, Record<string, JsonValue>>, spec: ItemSpec, start: number): Record<string, JsonValue> {
  const fields = fieldsOf(state, defined, spec.category)
  const content: Record<string, JsonValue> = {}
  fields.forEach((field, i) => {
    const pick = spec.values[i % spec.values.length]
    if (pick === null || pick === undefined) return
    const options = field.options
    content[field.name] = options === undefined ? valueOfType(field.type, pick) : (options[pick % options.length] ?? '')
  })
  if (spec.stray) content['stray'] = 1
  const slug = spec.slug === 'own' ? itemSlug(spec.n) : spec.slug === 'other' ? `${itemSlug(spec.n)}-b` : itemSlug((spec.n + 1) % 24)
  return {
    kind: 'content', id: itemId(spec.n), slug, title: spec.title, category_id: spec.category, author_name: 'Ann Author',
    ...(spec.status === null ? {} : { status: spec.status }),
    ...(spec.minutes === null ? {} : { published_at: new Date(start + spec.minutes * 60_000).toISOString() }),
    tags: [...new Set(spec.tags.map((i) => tagName(state, i)))],
    summary: spec.summary, body: spec.body, content,
  }
}

/** The fields the item's category has at this point of the import: as defined in it, else as stored. */
function fieldsOf(state: TenantState, defined: Map<string, Record<string, JsonValue>>, categoryId: string): { name: string; type: string; options?: string[] }[] {
  const record = defined.get(categoryId)
  if (record !== undefined) return record['fields'] as { name: string; type: string; options?: string[] }[]
  return state.categories.find((category) => category.id === categoryId)?.fields ?? []
}

function valueOfType(type: string, index: number): JsonValue {
  const pool = FIELD_VALUES[type as keyof typeof FIELD_VALUES] ?? FIELD_VALUES.text
  return pool[index % pool.length] ?? null
}

/** The text a list's `field_filters` gives for a value. */
function filterText(value: FieldValue): string {
  return String(value)
}

/** A list request as a query string (spelled as `spec.spelling` says) and its normal form (what any spelling of it means). */
export function listRequest(state: TenantState, spec: ListSpec): { query: string; normal: string } {
  const params: [string, string][] = []
  let categoryCode: string | null = null
  let categoryId: string | null = null
  if (spec.category === 'unknown') categoryCode = 'nope'
  else if (spec.category !== null) {
    if (spec.category.by !== 'id') categoryCode = PRODUCT_CATEGORIES[spec.category.id].code
    if (spec.category.by !== 'code') categoryId = spec.category.id
  }
  if (categoryCode !== null) params.push(['category_code', categoryCode])
  if (categoryId !== null) params.push(['category_id', categoryId])
  const tags = spec.tags.map((i) => tagName(state, i))
  const odd = spec.spelling % 2 === 1
  if (tags.length > 0) params.push(['tags', (odd ? [...tags].reverse().concat(tags.slice(0, 1)) : tags).map((t) => (spec.spelling >= 4 ? ` ${t}` : t)).join(',')])
  const tagIds = spec.tagIds.map((i) => PRODUCT_TAGS[i]?.id ?? 'tag_nope')
  if (tagIds.length > 0) params.push(['tag_ids', (odd ? [...tagIds].reverse() : tagIds).join(',')])
  const pairs = spec.fieldFilters.map(({ key, value }) => [PRODUCT_FIELDS[key].id, filterText(fieldValue(key, value))] as const)
  if (pairs.length > 0) params.push(['field_filters', (odd ? [...pairs].reverse() : pairs).map(([id, text]) => `${id}:${text}`).join(',')])
  const sort = spec.sort === null ? null : `${spec.sort.key === 'published_at' || spec.sort.key === 'title' || spec.sort.key === 'updated_at' ? spec.sort.key : `custom_${PRODUCT_FIELDS[spec.sort.key].name}`}:${spec.sort.direction}`
  if (sort !== null) params.push(['sort', sort])
  else if (spec.spelling % 3 === 2) params.push(['sort', 'published_at:desc'])
  if (spec.limit !== null) params.push(['limit', spec.spelling === 6 ? `0${spec.limit}` : String(spec.limit)])
  if (spec.spelling >= 2) params.reverse()
  const normal = JSON.stringify([
    categoryCode, categoryId, [...new Set(tags)].sort(), [...new Set(tagIds)].sort(),
    [...new Set(pairs.map(([id, text]) => `${id}:${text}`))].sort(), sort ?? 'published_at:desc', spec.limit ?? 20,
  ])
  return { query: new URLSearchParams(params).toString(), normal }
}

/** A search spec as a request body. */
export function searchBody(state: TenantState, spec: SearchSpec): Record<string, JsonValue> {
  const body: Record<string, JsonValue> = { query: spec.words.join(' ') }
  if (spec.category !== null) body['category_id'] = spec.category
  if (spec.tags !== null) body['tags'] = spec.tags.map((i) => tagName(state, i))
  if (spec.filters.length > 0) body['filter'] = Object.fromEntries(spec.filters.map((filter) => [`custom_${PRODUCT_FIELDS[filter.key].name}`, filterValue(filter)]))
  if (spec.sort !== null) body['sort'] = typeof spec.sort === 'string' ? spec.sort : `custom_${PRODUCT_FIELDS[spec.sort.key].name}:${spec.sort.direction}`
  if (spec.from !== null) body['from'] = spec.from
  if (spec.size !== null) body['size'] = spec.size
  return body
}

function filterValue(filter: FilterSpec): JsonValue {
  const value = (index: number) => fieldValue(filter.key, index) as JsonValue
  const [first] = filter.ops
  if (first?.op === 'plain') return value(first.values[0] ?? 0)
  return Object.fromEntries(filter.ops.map(({ op, values }) => [op, op === 'in' ? values.map(value) : value(values[0] ?? 0)]))
}
