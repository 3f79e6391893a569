import * as v from 'valibot'
import type { ErrorDetail } from '../errors/frontdesk-error.ts'
import { ID_PATTERN } from '../util/ids.ts'
import { issuesToDetails } from '../validation/issues.ts'
import { isStorableText, UNSTORABLE_TEXT_MESSAGE } from '../validation/storable-text.ts'
import { MAX_CURSOR_LENGTH } from './cursor.ts'

/** The built-in sort keys of a content list; custom fields are `{ custom: <field name> }`. */
export type ListSortKey = 'published_at' | 'title' | 'updated_at' | { custom: string }

/** The query of `GET /v1/cms/contents`, checked for shape and normalised (no storage consulted). */
export interface ListParams {
  categoryCode: string | null
  categoryId: string | null
  /** Tag names, trimmed, without duplicates, sorted (AND: the order never matters). */
  tags: string[]
  /** Tag ids, without duplicates, sorted. */
  tagIds: string[]
  /** `<field_id>:<value>` pairs split at the first `:`, without duplicates, sorted; values still text. */
  fieldFilters: { fieldId: string; text: string }[]
  sort: { key: ListSortKey; direction: 'asc' | 'desc' }
  /** 1–100, default 20. */
  limit: number
  cursor: string | null
}

/** Limits of the list query beyond those of `limit` and `field_filters` (README "Content list"). */
export const LIST_LIMITS = {
  maxFieldFilters: 3,
  maxTags: 20,
  maxTagLength: 100,
  maxCategoryCodeLength: 100,
  maxFieldValueLength: 500,
  defaultLimit: 20,
  maxLimit: 100,
} as const

/** The query parameter that carries a preview token; accepted beside the list parameters. */
export const PREVIEW_TOKEN_PARAMETER = 'preview_token'

const ONCE = 'must be given at most once'
const SORT = /^(published_at|title|updated_at|custom_([a-z][a-z0-9_]{0,62})):(asc|desc)$/

const single = () => v.string(ONCE)

const commaList = (what: string, max: number, item: (text: string) => string | null) =>
  v.pipe(
    single(),
    v.rawTransform(({ dataset, addIssue, NEVER }) => {
      const items = dataset.value.split(',').map((text) => text.trim())
      if (items.length > max) {
        addIssue({ message: `must hold at most ${max} ${what}` })
        return NEVER
      }
      for (const text of items) {
        const problem = text === '' ? `must not hold an empty ${what.replace(/s$/, '')}` : item(text)
        if (problem !== null) {
          addIssue({ message: problem })
          return NEVER
        }
      }
      return [...new Set(items)].sort()
    }),
  )

const fieldFilters = v.pipe(
  single(),
  v.rawTransform(({ dataset, addIssue, NEVER }) => {
    const pairs = dataset.value.split(',')
    if (pairs.length > LIST_LIMITS.maxFieldFilters) {
      addIssue({ message: `must hold at most ${LIST_LIMITS.maxFieldFilters} pairs` })
      return NEVER
    }
    const seen = new Map<string, { fieldId: string; text: string }>()
    for (const pair of pairs) {
      const at = pair.indexOf(':')
      const fieldId = at < 0 ? pair : pair.slice(0, at)
      const text = at < 0 ? '' : pair.slice(at + 1)
      const problem =
        at < 0 ? `"${clip(pair)}" is not of the form <field_id>:<value>`
        : !ID_PATTERN.test(fieldId) ? `"${clip(fieldId)}" is not a field id`
        : text === '' ? `the value for ${fieldId} must not be empty`
        : text.length > LIST_LIMITS.maxFieldValueLength ? `the value for ${fieldId} is longer than ${LIST_LIMITS.maxFieldValueLength} characters`
        : null
      if (problem !== null) {
        addIssue({ message: problem })
        return NEVER
      }
      seen.set(`${fieldId}:${text}`, { fieldId, text })
    }
    return [...seen.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, pair]) => pair)
  }),
)

/**
 * The valibot schema of the list query (one string per parameter; a repeated one arrives as an
 * array and is refused). Exported for `@frontdesk/http`'s OpenAPI document; use `parseListParams`.
 */
export const ListParamsSchema = v.object(
  {
    category_code: v.optional(
      v.pipe(single(), v.minLength(1, 'must not be empty'), v.maxLength(LIST_LIMITS.maxCategoryCodeLength, `must be at most ${LIST_LIMITS.maxCategoryCodeLength} characters`)),
    ),
    category_id: v.optional(v.pipe(single(), v.regex(ID_PATTERN, 'must be an id (1 to 64 of A-Z a-z 0-9 _ -)'))),
    tags: v.optional(
      commaList('tags', LIST_LIMITS.maxTags, (name) =>
        name.length > LIST_LIMITS.maxTagLength ? `tag names are at most ${LIST_LIMITS.maxTagLength} characters` : isStorableText(name) ? null : `tag names ${UNSTORABLE_TEXT_MESSAGE}`,
      ),
    ),
    tag_ids: v.optional(commaList('tag ids', LIST_LIMITS.maxTags, (id) => (ID_PATTERN.test(id) ? null : `"${clip(id)}" is not a tag id`))),
    field_filters: v.optional(fieldFilters),
    sort: v.optional(
      v.pipe(
        single(),
        v.regex(SORT, 'must be published_at, title, updated_at or custom_<field name>, followed by :asc or :desc'),
        v.transform((text) => {
          const [, key = '', custom, direction] = SORT.exec(text) ?? []
          return {
            key: custom === undefined ? (key as 'published_at' | 'title' | 'updated_at') : { custom },
            direction: direction === 'asc' ? ('asc' as const) : ('desc' as const),
          }
        }),
      ),
    ),
    limit: v.optional(
      v.pipe(
        single(),
        v.regex(/^[0-9]{1,6}$/, `must be a whole number from 1 to ${LIST_LIMITS.maxLimit}`),
        v.transform(Number),
        v.minValue(1, `must be a whole number from 1 to ${LIST_LIMITS.maxLimit}`),
        v.maxValue(LIST_LIMITS.maxLimit, `must be a whole number from 1 to ${LIST_LIMITS.maxLimit}`),
      ),
    ),
    cursor: v.optional(v.pipe(single(), v.minLength(1, 'must not be empty'), v.maxLength(MAX_CURSOR_LENGTH, 'is not a valid cursor'))),
    [PREVIEW_TOKEN_PARAMETER]: v.optional(single()),
  },
)
const KNOWN = new Set(Object.keys(ListParamsSchema.entries))

/**
 * Checks the shape of every list parameter (README "Content list") and normalises them, so that
 * equivalent spellings (parameter order, tag order, duplicates, `limit=020`, an explicit
 * default sort) give the same `ListParams`. A parameter given twice, an unknown parameter
 * (other than `preview_token`) or a malformed value is reported in `details`, one entry per
 * field; such a field keeps its default in `params`. Whether ids, fields and cursors exist
 * and fit is decided later by `resolveListQuery`.
 */
export function parseListParams(search: URLSearchParams): { params: ListParams; details: ErrorDetail[] } {
  const input: Record<string, string | string[]> = {}
  const unknown: ErrorDetail[] = []
  for (const key of new Set(search.keys())) {
    // Hint: only known names become keys, so `__proto__` and friends stay plain unknowns.
    if (!KNOWN.has(key)) {
      unknown.push({ field: clip(key, 100), message: 'is not a parameter of this endpoint' })
      continue
    }
    const values = search.getAll(key)
    input[key] = values.length === 1 ? (values[0] ?? '') : values
  }
  const result = v.safeParse(ListParamsSchema, input)
  const details = [...(result.success ? [] : issuesToDetails(result.issues, 'query')), ...unknown]
  // Hint: fields that passed are parsed again on their own, so each keeps its value.
  const ok = result.success ? result.output : validFields(input, details)
  return {
    params: {
      categoryCode: ok.category_code ?? null,
      categoryId: ok.category_id ?? null,
      tags: ok.tags ?? [],
      tagIds: ok.tag_ids ?? [],
      fieldFilters: ok.field_filters ?? [],
      sort: ok.sort ?? { key: 'published_at', direction: 'desc' },
      limit: ok.limit ?? LIST_LIMITS.defaultLimit,
      cursor: ok.cursor ?? null,
    },
    details,
  }
}

/**
 * The normalised filters and sort of `params`, as one string: the same for every spelling of
 * the same query. Cursors carry its fingerprint; `limit` and `cursor` are not part of it.
 */
export function canonicalListQuery(params: ListParams): string {
  const sortKey = typeof params.sort.key === 'string' ? params.sort.key : `custom_${params.sort.key.custom}`
  return JSON.stringify([
    params.categoryCode,
    params.categoryId,
    params.tags,
    params.tagIds,
    params.fieldFilters.map((pair) => [pair.fieldId, pair.text]),
    `${sortKey}:${params.sort.direction}`,
  ])
}

type Output = v.InferOutput<typeof ListParamsSchema>

function validFields(input: Record<string, string | string[]>, details: ErrorDetail[]): Partial<Output> {
  const bad = new Set(details.map((detail) => detail.field))
  const good: Record<string, string | string[]> = {}
  for (const [key, value] of Object.entries(input)) if (!bad.has(key)) good[key] = value
  const again = v.safeParse(ListParamsSchema, good)
  return again.success ? again.output : {}
}

function clip(text: string, max = 40): string {
  return text.length > max ? `${text.slice(0, max)}…` : text
}
