import type { FieldValue } from '../model/category.ts'
import type { ContentStatus } from '../model/content.ts'
import type { Phrase } from '../search/phrase.ts'
import type { QueryTerm } from '../search/query-terms.ts'

/*
 * The search port: what core needs from a full-text engine (README "Search"). Core decides the
 * request rules, the analyzer (`search/analyzer.ts`: the engine indexes and queries with the
 * same terms), visibility, filters and sort orders (`search/search-match.ts`,
 * `search/search-order.ts`: the engine applies them); the engine decides which items match
 * the terms and how well (the score), and keeps itself fresh.
 *
 * Rules every engine follows:
 * - Tenant-scoped: a search of one tenant never matches, counts or scores with another
 *   tenant's items (one index per tenant).
 * - Only items `matchesSearch` accepts at `query.now` are hits; `total` counts all of them.
 * - A change committed by any process is searchable within 1 second.
 */

/** A custom-field comparison; values already have the field's type (see `normalizeFieldValue`). */
export interface FieldOperators {
  eq?: FieldValue
  gt?: FieldValue
  gte?: FieldValue
  lt?: FieldValue
  lte?: FieldValue
  in?: FieldValue[]
}

/**
 * One entry of the request's `filter`. A field name may exist in several categories (with
 * different ids and types); `byFieldId` holds the comparison for each field it applies to.
 * An item matches when its value of one of these fields satisfies that field's comparison.
 */
export interface FieldCondition {
  /** `custom_<name>` as the request named it. */
  key: string
  byFieldId: ReadonlyMap<string, FieldOperators>
}

/** The order of search hits. Ties are broken by id (ascending). */
export type SearchSort =
  /** Score, highest first. */
  | { kind: 'relevance' }
  | { kind: 'published_at'; direction: 'asc' | 'desc' }
  /** A custom field's value (by any of `fieldIds`, the fields of that name); items lacking it come last. */
  | { kind: 'field'; fieldIds: readonly string[]; direction: 'asc' | 'desc' }

/** A search, as core hands it to the engine: validated and resolved. */
export interface SearchQuery {
  /** AND-ed (or the most of them, when no item has them all); never empty. */
  terms: QueryTerm[]
  /** Items matching any of these are left out (`-word`); absent: none. */
  excluded?: QueryTerm[]
  /**
   * Quoted phrases (`"a phrase"`), each of which a hit must hold in one of its searched fields
   * (core's `hasPhrase`), checked among the first `PHRASE_CANDIDATE_LIMIT` items by `newestFirst` that
   * are visible (in the category asked for) and match every term of every phrase; absent: none.
   * Their words are in `terms` too.
   */
  phrases?: Phrase[]
  /** ISO 8601 UTC: items are visible when published at or before it. */
  now: string
  /** Only items of this category (`null`: any). */
  categoryId: string | null
  /** Only items carrying one of these tag names (`null`: any). */
  tags: string[] | null
  filters: FieldCondition[]
  sort: SearchSort
  /** Offset of the first hit returned. */
  from: number
  /** At most this many hits. */
  size: number
}

/** One hit: the item's id and its relevance score (higher is better). */
export interface SearchHit {
  id: string
  score: number
}

/** One page of hits and the exact number of matching items. */
export interface SearchResult {
  total: number
  hits: SearchHit[]
}

/** What an engine keeps of an item for filtering and sorting (besides its text). */
export interface SearchDocument {
  id: string
  category_id: string
  status: ContentStatus
  published_at: string | null
  /** Tag names. */
  tags: string[]
  /** Custom-field values keyed by field id. */
  fields: Readonly<Record<string, FieldValue>>
}

/** A full-text search engine over a tenant's content, e.g. `createSearchEngine({ store })` of `@frontdesk/search`. */
export interface SearchPort {
  /** The page `query.from`…`query.from + query.size` of the tenant's matching items, in `query.sort` order. */
  search(tenantId: string, query: SearchQuery): Promise<SearchResult>
  /**
   * Resolves when the engine can answer searches; rejects when it cannot (e.g. closed). For
   * health checks (`frontdesk.health()`), so it must be cheap. Absent: the engine cannot tell.
   */
  ping?(): Promise<void>
  /** Releases the engine's resources. */
  close?(): Promise<void>
}
