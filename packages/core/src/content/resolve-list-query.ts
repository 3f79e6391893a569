import type { ErrorDetail } from '../errors/frontdesk-error.ts'
import { ValidationError } from '../errors/frontdesk-error.ts'
import type { CategoryRecord, FieldDefinition, FieldValue } from '../model/category.ts'
import type { ContentRecord } from '../model/content.ts'
import type { PreviewTarget } from '../model/preview-token.ts'
import type { ContentQuery, ContentSort } from '../port/content-query.ts'
import type { CursorBinding, CursorPosition } from './cursor.ts'
import { decodeCursor, queryFingerprint } from './cursor.ts'
import { parseFieldValueText } from './field-values.ts'
import type { ListParams } from './list-params.ts'
import { canonicalListQuery } from './list-params.ts'
import { listVisibility } from './visibility.ts'

/** A list query ready for the store, or the knowledge that it is empty. */
export interface ResolvedListQuery {
  /**
   * What to ask the store for: one item more than the page, to learn `has_more`. `null` when
   * the category filter names no category of the tenant (the list is then empty).
   */
  query: ContentQuery | null
  /** Fingerprint of the filters and sort, carried by the cursors of this list. */
  fingerprint: string
  limit: number
}

/**
 * Resolves checked list parameters against the tenant's categories (README "Content list"), adding to
 * `details` (problems already found in the parameters' shape) everything that does not fit:
 * - a field of `field_filters` or a `custom_<name>` sort must belong to the filtered category,
 *   or, without a category filter, to an active category of the tenant; without a filter a
 *   `custom_<name>` defined by several categories (with different ids) is ambiguous;
 * - `field_filters` values are read with the field's type;
 * - a cursor must be one of ours (its tag checks out under `cursorBinding`: this installation's
 *   secret and this tenant), made for the same filters and sort, holding a sort value of the
 *   sort key's type.
 * Throws one `ValidationError` listing every invalid field.
 *
 * A category filter that names no category (or `category_code` and `category_id` naming two
 * different ones) is not an error: the list is empty, as for any filter nothing matches.
 */
export function resolveListQuery(
  params: ListParams,
  details: ErrorDetail[],
  categories: CategoryRecord[],
  now: number,
  preview: PreviewTarget | null,
  cursorBinding: CursorBinding | null,
): ResolvedListQuery {
  const problems = [...details]
  const report = (field: string, message: string) => {
    if (!problems.some((detail) => detail.field === field)) problems.push({ field, message })
  }

  const filtered = params.categoryCode !== null || params.categoryId !== null
  const category = filtered ? findCategory(categories, params) : null
  const scope = category !== null ? [category] : categories.filter((c) => c.active)
  const scopeName = category !== null ? `category ${category.code}` : 'any active category'

  const fieldEquals: { field: FieldDefinition; value: FieldValue }[] = []
  for (const { fieldId, text } of params.fieldFilters) {
    const field = scope.flatMap((c) => c.fields).find((f) => f.id === fieldId)
    if (field === undefined) {
      report('field_filters', `${fieldId} is not a custom field of ${scopeName}`)
      continue
    }
    const parsed = parseFieldValueText(field, text)
    if (parsed.ok) fieldEquals.push({ field, value: parsed.value })
    else report('field_filters', `the value for ${fieldId} ${parsed.message}`)
  }

  let sort: ContentSort = { key: 'published_at', direction: params.sort.direction }
  const key = params.sort.key
  if (typeof key === 'string') sort = { key, direction: params.sort.direction }
  else {
    const matches = uniqueById(scope.flatMap((c) => c.fields).filter((f) => f.name === key.custom))
    const [only] = matches
    if (only === undefined) report('sort', `custom_${key.custom} is not a custom field of ${scopeName}`)
    else if (matches.length > 1) report('sort', `custom_${key.custom} is defined by several categories; filter by category_code or category_id`)
    else sort = { key: { field: only }, direction: params.sort.direction }
  }

  const fingerprint = queryFingerprint(resolvedListQuery(params, category, sort))
  let after: CursorPosition | undefined
  if (params.cursor !== null) {
    // Hint: a cursor can only be matched against a query that is itself valid.
    const decoded = cursorBinding === null ? { ok: false as const, message: 'is not a valid cursor' } : decodeCursor(cursorBinding, params.cursor, problems.length === 0 ? fingerprint : null)
    if (!decoded.ok) report('cursor', decoded.message)
    else if (!fitsSort(decoded.position.value, sort)) report('cursor', 'is not a valid cursor')
    else after = decoded.position
  }

  if (problems.length > 0) throw new ValidationError(problems)
  if (filtered && category === null) return { query: null, fingerprint, limit: params.limit }

  const query: ContentQuery = {
    visibility: listVisibility(now, preview, category?.id ?? null),
    sort,
    limit: params.limit + 1,
  }
  if (category !== null) query.categoryIds = [category.id]
  if (params.tags.length > 0) query.tagNames = params.tags
  if (params.tagIds.length > 0) query.tagIds = params.tagIds
  if (fieldEquals.length > 0) query.fieldEquals = fieldEquals
  if (after !== undefined) query.after = after
  // Hint: a list item shows neither body, meta nor custom fields; a custom-field sort needs its value for the cursor.
  if (typeof sort.key === 'string') query.view = 'summary'
  return { query, fingerprint, limit: params.limit }
}

/**
 * What a cursor's fingerprint covers: the normalised parameters and what they resolved to
 * (the category a code or id names, the field a `custom_<name>` sort orders by), so that a
 * cursor is refused once the same parameters mean another list — a renamed field or a code
 * given to another category — instead of walking on from a place that is no place in it.
 * Lists that resolve nothing (no category filter, a built-in sort) keep the parameters alone.
 */
function resolvedListQuery(params: ListParams, category: CategoryRecord | null, sort: ContentSort): string {
  const canonical = canonicalListQuery(params)
  const sortField = typeof sort.key === 'string' ? null : sort.key.field.id
  return category === null && sortField === null ? canonical : `${canonical}\u0000${JSON.stringify([category?.id ?? null, sortField])}`
}

/** The keyset position of `content` in `sort` order: what the next page's cursor carries. */
export function sortPosition(content: ContentRecord, sort: ContentSort): CursorPosition {
  const key = sort.key
  const value =
    key === 'published_at' ? content.published_at
    : key === 'title' ? content.title
    : key === 'updated_at' ? content.updated_at
    : key === 'id' ? content.id
    : (content.fields[key.field.id] ?? null)
  return { value, id: content.id }
}

function findCategory(categories: CategoryRecord[], params: ListParams): CategoryRecord | null {
  const found = categories.find(
    (c) => (params.categoryId === null || c.id === params.categoryId) && (params.categoryCode === null || c.code === params.categoryCode),
  )
  return found ?? null
}

function uniqueById(fields: FieldDefinition[]): FieldDefinition[] {
  return [...new Map(fields.map((field) => [field.id, field])).values()]
}

function fitsSort(value: CursorPosition['value'], sort: ContentSort): boolean {
  const key = sort.key
  if (key === 'title' || key === 'updated_at' || key === 'id') return typeof value === 'string'
  // Hint: a previewed draft may lack `published_at`; such items sort like a missing value.
  if (key === 'published_at') return value === null || typeof value === 'string'
  if (value === null) return true
  switch (key.field.type) {
    case 'number':
      return typeof value === 'number'
    case 'boolean':
      return typeof value === 'boolean'
    default:
      return typeof value === 'string'
  }
}
