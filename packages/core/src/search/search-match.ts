import { isVisibleAt, visibleSince } from '../content/visibility.ts'
import type { FieldValue } from '../model/category.ts'
import type { FieldCondition, FieldOperators, SearchDocument, SearchQuery } from '../port/search.ts'

/**
 * Whether a search engine may return `doc` for `query`, its text matching aside: the item is
 * visible at `query.now` (published, `published_at` not in the future, category active:
 * README "Content list"), and passes the category, tags (any) and custom-field filters.
 */
export function matchesSearch(doc: SearchDocument, categoryActive: boolean, query: Pick<SearchQuery, 'now' | 'categoryId' | 'tags' | 'filters'>): boolean {
  return isVisibleAt(visibleSince(doc), categoryActive, Date.parse(query.now)) && matchesNarrowing(doc, query)
}

/**
 * Whether `doc` passes a query's category, tags (any) and custom-field filters: `matchesSearch`
 * without visibility, for an engine that decides visibility from data of its own.
 */
export function matchesNarrowing(doc: SearchDocument, query: Pick<SearchQuery, 'categoryId' | 'tags' | 'filters'>): boolean {
  if (query.categoryId !== null && doc.category_id !== query.categoryId) return false
  if (query.tags !== null && !query.tags.some((tag) => doc.tags.includes(tag))) return false
  return query.filters.every((condition) => matchesCondition(doc.fields, condition))
}

/** Whether an item's custom-field values (by field id) satisfy one filter entry. */
export function matchesCondition(fields: Readonly<Record<string, FieldValue>>, condition: FieldCondition): boolean {
  for (const [fieldId, operators] of condition.byFieldId) {
    if (!Object.hasOwn(fields, fieldId)) continue
    const value = fields[fieldId]
    if (value !== undefined && satisfiesOperators(value, operators)) return true
  }
  return false
}

/** Whether `value` satisfies every operator given (they combine with AND). */
export function satisfiesOperators(value: FieldValue, operators: FieldOperators): boolean {
  if (operators.eq !== undefined && value !== operators.eq) return false
  if (operators.in !== undefined && !operators.in.includes(value)) return false
  if (operators.gt !== undefined && !(compareValues(value, operators.gt) > 0)) return false
  if (operators.gte !== undefined && !(compareValues(value, operators.gte) >= 0)) return false
  if (operators.lt !== undefined && !(compareValues(value, operators.lt) < 0)) return false
  if (operators.lte !== undefined && !(compareValues(value, operators.lte) <= 0)) return false
  return true
}

/**
 * Orders two field values: numbers numerically, strings (text, select, ISO dates) by code
 * unit, `false` before `true`. Values of different types are incomparable (`NaN`), so no
 * range operator accepts them.
 */
export function compareValues(a: FieldValue, b: FieldValue): number {
  if (typeof a !== typeof b) return Number.NaN
  if (a === b) return 0
  return a < b ? -1 : 1
}
