import type { CategoryRecord, FieldDefinition, FieldValue } from '../model/category.ts'
import type { ContentRecord } from '../model/content.ts'
import type { ContentQuery, ContentSort } from '../port/content-query.ts'
import { isPubliclyVisible } from '../content/visibility.ts'

/** A sort value as a keyset position carries it. */
export type SortValue = string | number | boolean | null

/**
 * The meaning of a `ContentQuery` in plain code, over every item and category of one tenant:
 * the reference the conformance suite compares an adapter's `listContents` with.
 */
export function modelListContents(items: ContentRecord[], categories: CategoryRecord[], query: ContentQuery): ContentRecord[] {
  const byId = new Map(categories.map((c) => [c.id, c]))
  const { visibility } = query
  return items
    .filter((item) => {
      if (visibility.kind === 'public') {
        const visible = isPubliclyVisible(item, byId.get(item.category_id) ?? null, Date.parse(visibility.now))
        if (!visible && item.category_id !== visibility.previewCategoryId) return false
      }
      if (query.categoryIds !== undefined && !query.categoryIds.includes(item.category_id)) return false
      if (!(query.tagNames ?? []).every((name) => item.tags.some((tag) => tag.name === name))) return false
      if (!(query.tagIds ?? []).every((id) => item.tags.some((tag) => tag.id === id))) return false
      return (query.fieldEquals ?? []).every(({ field, value }) => typedValue(item, field) === value)
    })
    .filter((item) => query.after === undefined || compareToPosition(item, query.sort, query.after) > 0)
    .sort((a, b) => compareItems(a, b, query.sort))
    .slice(0, Math.max(0, Math.floor(query.limit)))
}

/** The item's value for `sort` (a custom field's value only when it has the field's type). */
export function sortValueOf(item: ContentRecord, sort: ContentSort): SortValue {
  const { key } = sort
  return typeof key === 'object' ? typedValue(item, key.field) : item[key]
}

/** Negative when `a` comes first in `sort` order: nulls last in both directions, ties by id. */
export function compareItems(a: ContentRecord, b: ContentRecord, sort: ContentSort): number {
  return compareKeys(sortValueOf(a, sort), a.id, sortValueOf(b, sort), b.id, sort.direction)
}

function compareToPosition(item: ContentRecord, sort: ContentSort, after: { value: SortValue; id: string }): number {
  if (sort.key === 'id') return compareKeys(null, item.id, null, after.id, sort.direction)
  return compareKeys(sortValueOf(item, sort), item.id, after.value, after.id, sort.direction)
}

function compareKeys(va: SortValue, ida: string, vb: SortValue, idb: string, direction: 'asc' | 'desc'): number {
  const sign = direction === 'asc' ? 1 : -1
  if (va === null || vb === null) {
    if (va !== vb) return va === null ? 1 : -1
  } else if (va !== vb) {
    return (va < vb ? -1 : 1) * sign
  }
  return ida === idb ? 0 : (ida < idb ? -1 : 1) * sign
}

function typedValue(item: ContentRecord, field: FieldDefinition): FieldValue | null {
  const value = item.fields[field.id]
  if (value === undefined) return null
  const expected = field.type === 'number' ? 'number' : field.type === 'boolean' ? 'boolean' : 'string'
  return typeof value === expected ? value : null
}
