import * as v from 'valibot'
import { LIST_LIMITS } from '../content/list-params.ts'
import type { ErrorDetail } from '../errors/frontdesk-error.ts'
import { ValidationError } from '../errors/frontdesk-error.ts'
import type { CategoryRecord, FieldDefinition } from '../model/category.ts'
import type { FieldCondition, SearchSort } from '../port/search.ts'
import { issuesToDetails } from '../validation/issues.ts'
import { isStorableText, UNSTORABLE_TEXT_MESSAGE } from '../validation/storable-text.ts'
import type { Phrase } from './phrase.ts'
import type { QueryTerm } from './query-terms.ts'
import { parseQuery } from './query-terms.ts'
import { parseSearchFilter } from './search-filter.ts'

/** Limits of POST /v1/cms/search (README "API reference", README "Search"). */
export const SEARCH_LIMITS = { queryLength: 500, defaultSize: 20, maxSize: 100, maxWindow: 10_000, maxTags: 100 } as const

/** A validated search request, resolved against the tenant's categories. */
export interface ParsedSearch {
  /** The trimmed query. */
  query: string
  /** Its terms (AND); empty when it holds no word, and then nothing matches. */
  terms: QueryTerm[]
  /** Its excluded terms (`-word`). */
  excluded: QueryTerm[]
  /** Its quoted phrases (`"a phrase"`). */
  phrases: Phrase[]
  /** The category asked for, by `category_id` or `category_code` (`null`: any category). */
  categoryId: string | null
  /**
   * `false` when `category_id` or `category_code` names no active category of the tenant, or
   * both are given and name different categories: nothing matches.
   */
  categoryVisible: boolean
  /** Tag names, any of which an item must carry (`null`: no tag filter). */
  tags: string[] | null
  filters: FieldCondition[]
  sort: SearchSort
  from: number
  size: number
}

const FIELDS = ['query', 'category_id', 'category_code', 'tags', 'sort', 'from', 'size', 'filter'] as const
const ID = /^[A-Za-z0-9_-]{1,64}$/
const SORT = /^(relevance|published_at:(asc|desc)|custom_([a-z][a-z0-9_]{0,62}):(asc|desc))$/

/**
 * The valibot schema of the POST /v1/cms/search body's own fields (`filter` is checked by
 * `parseSearchFilter` against the tenant's fields). Exported for `@frontdesk/http`'s OpenAPI
 * document; use `parseSearchRequest`.
 */
export const SearchRequestSchema = v.object({
  query: v.pipe(
    v.string('must be a string'),
    v.trim(),
    v.minLength(1, 'must not be empty'),
    v.check((text) => [...text].length <= SEARCH_LIMITS.queryLength, `must be at most ${SEARCH_LIMITS.queryLength} characters`),
  ),
  category_id: v.optional(v.pipe(v.string('must be a string'), v.regex(ID, 'must be a category id'))),
  category_code: v.optional(
    v.pipe(v.string('must be a string'), v.minLength(1, 'must not be empty'), v.maxLength(LIST_LIMITS.maxCategoryCodeLength, `must be at most ${LIST_LIMITS.maxCategoryCodeLength} characters`)),
  ),
  tags: v.optional(
    v.pipe(
      v.array(
        v.pipe(v.string('must be a string'), v.minLength(1, 'must not be empty'), v.maxLength(200, 'must be at most 200 characters'), v.check(isStorableText, UNSTORABLE_TEXT_MESSAGE)),
        'must be an array of tag names',
      ),
      v.maxLength(SEARCH_LIMITS.maxTags, `must have at most ${SEARCH_LIMITS.maxTags} tags`),
    ),
  ),
  sort: v.optional(v.pipe(v.string('must be a string'), v.regex(SORT, 'must be relevance, published_at:desc, published_at:asc, or custom_<field>:asc|desc'))),
  from: v.optional(v.pipe(v.number('must be a number'), v.integer('must be an integer'), v.minValue(0, 'must be at least 0')), 0),
  size: v.optional(
    v.pipe(v.number('must be a number'), v.integer('must be an integer'), v.minValue(1, 'must be at least 1'), v.maxValue(SEARCH_LIMITS.maxSize, `must be at most ${SEARCH_LIMITS.maxSize}`)),
    SEARCH_LIMITS.defaultSize,
  ),
  filter: v.optional(v.unknown()),
  // Hint: the body is known to be an object here, so this message only reports missing keys.
}, 'is required')

/**
 * Validates a POST /v1/cms/search body (README "Search") against the tenant's categories and
 * resolves it, or throws a `ValidationError` listing every invalid field: unknown fields,
 * `query` 1–500 characters after trimming, `size` 1–100, `from` ≥ 0 with `from + size` ≤ 10,000,
 * `sort` and `filter` naming custom fields of the category given (else of any category).
 * `options.memo` (default true) keeps an index of fields by name with each category object
 * (and array) it is given: a store hands out the same objects until they change.
 */
export function parseSearchRequest(body: unknown, categories: readonly CategoryRecord[], options: { memo?: boolean } = {}): ParsedSearch {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new ValidationError([{ field: 'body', message: 'must be a JSON object' }])
  }
  const details: ErrorDetail[] = []
  for (const key of Object.keys(body)) {
    if (!(FIELDS as readonly string[]).includes(key)) details.push({ field: key, message: 'is not a known field' })
  }
  const parsed = v.safeParse(SearchRequestSchema, body, { abortEarly: false })
  if (!parsed.success) details.push(...issuesToDetails(parsed.issues))
  // Hint: sort and filter are checked even when other fields failed, so every problem shows at once.
  const raw = body as Record<string, unknown>
  const categoryId = typeof raw.category_id === 'string' ? raw.category_id : undefined
  const categoryCode = typeof raw.category_code === 'string' ? raw.category_code : undefined
  // Hint: as in the content list, an id wins the lookup and a code given with it must be that category's.
  const category =
    categoryId !== undefined ? categories.find((c) => c.id === categoryId) : categoryCode !== undefined ? categories.find((c) => c.code === categoryCode) : undefined
  const categoryAsked = categoryId !== undefined || categoryCode !== undefined
  // Field names come from the category asked for; without one (or an unknown one), from every category.
  const fieldsByName = fieldIndex(category ?? categories, options.memo ?? true)
  const scope = category === undefined ? 'of any category' : 'of the category'

  let sort: SearchSort = { kind: 'relevance' }
  if (typeof raw.sort === 'string' && SORT.test(raw.sort)) {
    const resolved = resolveSort(raw.sort, fieldsByName)
    if (resolved === null) details.push({ field: 'sort', message: `names no custom field ${scope}` })
    else sort = resolved
  }
  let filters: FieldCondition[] = []
  if (raw.filter !== undefined) {
    const result = parseSearchFilter(raw.filter, fieldsByName, scope)
    details.push(...result.details)
    filters = result.conditions
  }
  const input = parsed.success ? parsed.output : null
  const from = raw.from === undefined ? 0 : raw.from
  const size = raw.size === undefined ? SEARCH_LIMITS.defaultSize : raw.size
  if (typeof from === 'number' && typeof size === 'number' && from + size > SEARCH_LIMITS.maxWindow) {
    details.push({ field: 'from', message: `from + size must be at most ${SEARCH_LIMITS.maxWindow}` })
  }
  if (details.length > 0 || input === null) {
    throw new ValidationError(details.filter((detail, i) => details.findIndex((d) => d.field === detail.field) === i))
  }

  return {
    query: input.query,
    ...parseQuery(input.query),
    categoryId: category?.id ?? input.category_id ?? null,
    categoryVisible: !categoryAsked || (category?.active === true && (categoryCode === undefined || category.code === categoryCode)),
    tags: input.tags === undefined || input.tags.length === 0 ? null : [...new Set(input.tags)],
    filters,
    sort,
    from: input.from,
    size: input.size,
  }
}

/** Field definitions by name, over the given categories. */
// Hint: the store hands out the same category objects (and array) until they change: each one's index is made once.
const FIELD_INDEXES = new WeakMap<CategoryRecord | readonly CategoryRecord[], ReadonlyMap<string, readonly FieldDefinition[]>>()

/** The fields of one category, or of all, by name (made once per category object or array, not on every search). */
function fieldIndex(of: CategoryRecord | readonly CategoryRecord[], memo: boolean): ReadonlyMap<string, readonly FieldDefinition[]> {
  let index = memo ? FIELD_INDEXES.get(of) : undefined
  if (index !== undefined) return index
  const built = new Map<string, FieldDefinition[]>()
  for (const category of Array.isArray(of) ? (of as readonly CategoryRecord[]) : [of as CategoryRecord]) {
    for (const field of category.fields) {
      const list = built.get(field.name)
      if (list === undefined) built.set(field.name, [field])
      else list.push(field)
    }
  }
  index = built
  if (memo) FIELD_INDEXES.set(of, index)
  return index
}

function resolveSort(sort: string, fieldsByName: ReadonlyMap<string, readonly FieldDefinition[]>): SearchSort | null {
  if (sort === 'relevance') return { kind: 'relevance' }
  const [key, direction] = sort.split(':') as [string, 'asc' | 'desc']
  if (key === 'published_at') return { kind: 'published_at', direction }
  const definitions = fieldsByName.get(key.slice('custom_'.length))
  if (definitions === undefined) return null
  return { kind: 'field', fieldIds: definitions.map((field) => field.id), direction }
}
