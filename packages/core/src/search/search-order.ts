import type { FieldValue } from '../model/category.ts'
import type { SearchDocument, SearchSort } from '../port/search.ts'

/** A matching item with its score, as an engine sorts it. */
export interface ScoredDocument {
  doc: SearchDocument
  score: number
}

const TYPE_RANK: Record<string, number> = { number: 0, string: 1, boolean: 2 }

/**
 * The comparator of a search sort (README "Search"): relevance is the rank score descending (see
 * `rankScale`: the words' kinds of match, then their relevance), then newest first (`newestFirst`);
 * `published_at` and custom fields sort by value in the given direction, ties broken by id in
 * the same direction; items lacking the custom field come last in both directions.
 */
export function searchComparator(sort: SearchSort): (a: ScoredDocument, b: ScoredDocument) => number {
  switch (sort.kind) {
    case 'relevance':
      return (a, b) => b.score - a.score || newestFirst(a.doc, b.doc)
    case 'published_at': {
      const sign = sort.direction === 'asc' ? 1 : -1
      return (a, b) => sign * (compareText(a.doc.published_at ?? '', b.doc.published_at ?? '') || compareIds(a.doc.id, b.doc.id))
    }
    case 'field': {
      const sign = sort.direction === 'asc' ? 1 : -1
      const valueOf = (doc: SearchDocument): FieldValue | undefined => {
        for (const id of sort.fieldIds) if (Object.hasOwn(doc.fields, id)) return doc.fields[id]
        return undefined
      }
      return (a, b) => {
        const x = valueOf(a.doc)
        const y = valueOf(b.doc)
        if (x === undefined || y === undefined) {
          if (x !== y) return x === undefined ? 1 : -1
          return sign * compareIds(a.doc.id, b.doc.id)
        }
        return sign * (compareFieldValues(x, y) || compareIds(a.doc.id, b.doc.id))
      }
    }
  }
}

/** Orders values of one field; values of different types (fields of one name in several categories) by type. */
function compareFieldValues(a: FieldValue, b: FieldValue): number {
  if (typeof a !== typeof b) return (TYPE_RANK[typeof a] ?? 3) - (TYPE_RANK[typeof b] ?? 3)
  if (typeof a === 'number' && typeof b === 'number') return a - b
  return a === b ? 0 : a < b ? -1 : 1
}

/**
 * Newest first: `published_at` descending (`null` last), then id descending — the order of the
 * `published_at:desc` sort, and of relevance ties.
 */
export function newestFirst(a: Pick<SearchDocument, 'id' | 'published_at'>, b: Pick<SearchDocument, 'id' | 'published_at'>): number {
  const x = a.published_at ?? ''
  const y = b.published_at ?? ''
  return x === y ? compareIds(b.id, a.id) : x < y ? 1 : -1
}

function compareText(a: string, b: string): number {
  return a === b ? 0 : a < b ? -1 : 1
}

/**
 * The tie-break of every search order (README "Search": relevance ties, equal dates and values):
 * by id, in UTF-16 code unit order (JavaScript's `<`). An engine's faster forms of it (the
 * order of its own document numbers where they follow the ids) are tested against it.
 */
export function compareIds(a: string, b: string): number {
  return compareText(a, b)
}
