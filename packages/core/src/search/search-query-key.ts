import type { FieldValue } from '../model/category.ts'
import type { FieldCondition, FieldOperators, SearchQuery, SearchSort } from '../port/search.ts'
import type { QueryTerm } from './query-terms.ts'
import { synonymsKey } from './query-terms.ts'

/** Operators in the one order the key lists them. */
const OPERATOR_ORDER = ['eq', 'gt', 'gte', 'lt', 'lte', 'in'] as const satisfies readonly (keyof FieldOperators)[]

/**
 * The key of a search for memos and caches: one string that two queries share exactly when
 * they ask the same question of the same index, whatever `now` is (the memo decides for
 * itself which moments give the same answer). Built from the query as core resolved it:
 * every field of `SearchQuery` is in it (the object below does not compile when a field is
 * added and not keyed), filter values with their types (`1` and `"1"` differ), and what the
 * rules make order-free is put in one order — tags (any of them), filter entries (all of
 * them), a field's operators and the values of `in`.
 */
export function searchQueryKey(query: SearchQuery): string {
  const parts: { [K in Exclude<keyof SearchQuery, 'now'>]: unknown } = {
    terms: query.terms.map(termKey),
    excluded: (query.excluded ?? []).map(termKey),
    phrases: (query.phrases ?? []).map((phrase) => phrase.units.map((unit) => [unit.unit, unit.run])),
    categoryId: query.categoryId,
    tags: query.tags === null ? null : [...new Set(query.tags)].sort(),
    filters: query.filters.map(conditionKey).sort(compareJson),
    sort: sortKey(query.sort),
    from: query.from,
    size: query.size,
  }
  return JSON.stringify([parts.terms, parts.excluded, parts.phrases, parts.categoryId, parts.tags, parts.filters, parts.sort, parts.from, parts.size])
}

function termKey(term: QueryTerm): unknown {
  return term.kind === 'word'
    ? ['w', term.term, term.fuzzy, term.stem, term.joined, synonymsKey(term), term.prefixWords ?? null]
    : ['c', term.text, term.grams, term.prefix, synonymsKey(term), term.prefixWords ?? null]
}

function conditionKey(condition: FieldCondition): unknown {
  const fields = [...condition.byFieldId].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
  // Hint: the fields of one name usually share one operators object (see `parseSearchFilter`): each object is keyed once.
  const keys = new Map<FieldOperators, unknown>()
  return [
    condition.key,
    fields.map(([fieldId, operators]) => {
      let key = keys.get(operators)
      if (key === undefined) {
        key = operatorsKey(operators)
        keys.set(operators, key)
      }
      return [fieldId, key]
    }),
  ]
}

function operatorsKey(operators: FieldOperators): unknown {
  return OPERATOR_ORDER.map((op) => {
    const value = operators[op]
    if (value === undefined) return null
    return op === 'in' ? [...new Set((value as FieldValue[]).map(valueKey))].sort() : valueKey(value as FieldValue)
  })
}

/** A value with its type: `JSON.stringify` tells numbers, strings and booleans apart. */
function valueKey(value: FieldValue): string {
  return JSON.stringify(value)
}

function sortKey(sort: SearchSort): unknown {
  if (sort.kind === 'relevance') return ['relevance']
  if (sort.kind === 'published_at') return ['published_at', sort.direction]
  return ['field', [...sort.fieldIds], sort.direction]
}

function compareJson(a: unknown, b: unknown): number {
  const x = JSON.stringify(a)
  const y = JSON.stringify(b)
  return x < y ? -1 : x > y ? 1 : 0
}
