import type { CategoryRecord } from '../../model/category.ts'
import type { ContentRecord } from '../../model/content.ts'
import type { FieldCondition, FieldOperators, SearchQuery, SearchResult } from '../../port/search.ts'
import type { Store } from '../../port/store.ts'
import { parseQuery } from '../../search/query-terms.ts'
import { aTag, aTenant, at } from '../fixtures.ts'

/** The moment the search cases search at, unless they move it. */
export const SEARCH_NOW = at(0)

/** A search for `text` at `SEARCH_NOW`, any category and tags, by relevance, with room for every hit. */
export function aSearchQuery(text: string, overrides: Partial<SearchQuery> = {}): SearchQuery {
  return { ...parseQuery(text), now: SEARCH_NOW, categoryId: null, tags: null, filters: [], sort: { kind: 'relevance' }, from: 0, size: 100, ...overrides }
}

/** A filter entry: `key` compared per field id (see `FieldCondition`). */
export function aCondition(key: string, byFieldId: Record<string, FieldOperators>): FieldCondition {
  return { key, byFieldId: new Map(Object.entries(byFieldId)) }
}

/**
 * Writes categories and items in one transaction (creating the tenant when missing, and every
 * tag the items carry).
 */
export async function seedSearch(store: Store, tenantId: string, categories: readonly CategoryRecord[], items: readonly ContentRecord[]): Promise<void> {
  if ((await store.getTenant(tenantId)) === null) await store.createTenant(aTenant(tenantId))
  await store.transaction(async (tx) => {
    for (const category of categories) await tx.putCategory(category)
    for (const item of items) {
      for (const tag of item.tags) if ((await tx.getTag(tenantId, tag.id)) === null) await tx.putTag(aTag(tenantId, tag.id, tag.name))
      await tx.putContent(item)
    }
  })
}

/** The ids of a result's hits, in order. */
export function hitIds(result: SearchResult): string[] {
  return result.hits.map((hit) => hit.id)
}

/** The same ids, sorted (where only membership matters). */
export function hitSet(result: SearchResult): string[] {
  return hitIds(result).sort()
}

/**
 * Polls `check` until it holds or `ms` have passed; resolves to how long it took, or `null`
 * when it never held (for changes another process commits, visible within a bound).
 */
export async function eventually(check: () => Promise<boolean>, ms = 1000): Promise<number | null> {
  const started = Date.now()
  for (;;) {
    if (await check()) return Date.now() - started
    if (Date.now() - started > ms) return null
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}
