import type { ListSpec, SearchSpec } from './product-scenario.ts'

/** A part of a search or list that a `related` step changes. */
export type QueryPart = 'words' | 'category' | 'tags' | 'filters' | 'sort' | 'page'

/**
 * `last` with the `change`d parts taken from `other`. Filters keep their fields and take other
 * operators and values: the same question about the same fields with other values is what a
 * key that drops values (issue 16) answers wrongly.
 */
export function relatedSearch(last: SearchSpec, other: SearchSpec, change: readonly QueryPart[]): SearchSpec {
  const next: SearchSpec = { ...last }
  for (const part of change) {
    if (part === 'words') next.words = other.words
    else if (part === 'category') next.category = other.category
    else if (part === 'tags') next.tags = other.tags
    else if (part === 'sort') next.sort = other.sort
    else if (part === 'page') [next.from, next.size] = [other.from, other.size]
    else if (last.filters.length === 0) next.filters = other.filters
    else {
      next.filters = last.filters.map((filter, i) => ({
        key: filter.key,
        ops: other.filters[i]?.ops ?? filter.ops.map(({ op, values }) => ({ op, values: values.map((value) => value + 1) })),
      }))
    }
  }
  return next
}

/** `last` with the `change`d parts taken from `other` (field filters: the same fields, other values; `words`: another spelling). */
export function relatedList(last: ListSpec, other: ListSpec, change: readonly QueryPart[]): ListSpec {
  const next: ListSpec = { ...last }
  for (const part of change) {
    if (part === 'words') next.spelling = other.spelling
    else if (part === 'category') next.category = other.category
    else if (part === 'tags') [next.tags, next.tagIds] = [other.tags, other.tagIds]
    else if (part === 'sort') next.sort = other.sort
    else if (part === 'page') next.limit = other.limit
    else if (last.fieldFilters.length === 0) next.fieldFilters = other.fieldFilters
    else next.fieldFilters = last.fieldFilters.map(({ key, value }, i) => ({ key, value: other.fieldFilters[i]?.value ?? value + 1 }))
  }
  return next
}
