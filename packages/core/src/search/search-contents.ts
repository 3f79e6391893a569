import type * as v from 'valibot'
import type { Context } from '../app/context.ts'
import { isoAt } from '../app/clock.ts'
import type { Reply } from '../app/reply.ts'
import type { Principal } from '../auth/principal.ts'
import type { CategoryRecord, FieldValue } from '../model/category.ts'
import type { ContentRecord } from '../model/content.ts'
import type { SearchResult } from '../port/search.ts'
import type { SearchResponseSchema, SearchResultItemSchema } from '../response/response-bodies.ts'
import type { FoundItem, ItemHighlightSource } from './found-items.ts'
import { FoundItems, freshItem, isFoundItemVisible, prepare } from './found-items.ts'
import { fragmentsIn, highlightIn } from './highlight.ts'
import { termsKey } from './highlight-memo.ts'
import type { QueryTerm } from './query-terms.ts'
import type { PreparedResult } from './result-json.ts'
import { roundScore, searchReplyBytes } from './result-json.ts'
import type { ParsedSearch } from './search-request.ts'
import { parseSearchRequest } from './search-request.ts'
import { highlightTermsOf, SynonymSets, synonymSetOf, withSynonyms } from './synonyms.ts'

/** One item of a search reply (docs/API.md "SearchResultItem"); see `SearchResultItemSchema`. */
export type SearchResultItem = v.InferOutput<typeof SearchResultItemSchema>

/** The body of a POST /v1/cms/search reply; see `SearchResponseSchema`. */
export type SearchResponseBody = v.InferOutput<typeof SearchResponseSchema>

/**
 * POST /v1/cms/search (README "Search"): validates the body against the tenant's categories, asks
 * the search engine for one page of visible matching items, and builds the items with their
 * highlights from the stored records. Never cached (`no-store`). The items are frozen: an
 * item found again for the same terms is the one built before, with its JSON, from which the
 * reply's `bytes` are copied instead of serialising the body.
 */
export async function searchContents(ctx: Context, principal: Principal, body: unknown): Promise<Reply<SearchResponseBody>> {
  const engine = ctx.search
  if (engine === null) throw new Error('Search is not configured: pass `search` to createFrontdesk(), e.g. createSearchEngine({ store }) of @frontdesk/search')
  const tenantId = principal.tenant.id
  const categories = await ctx.store.listCategories(tenantId)
  const request = parseSearchRequest(body, categories, { memo: ctx.memo })
  const now = ctx.clock.now()
  const terms = request.terms.length === 0 ? request.terms : await withTenantSynonyms(ctx, tenantId, request.terms)

  let result: SearchResult = { total: 0, hits: [] }
  if (terms.length > 0 && request.categoryVisible) {
    result = await engine.search(tenantId, {
      terms,
      excluded: request.excluded,
      phrases: request.phrases,
      now: isoAt(now),
      categoryId: request.categoryId,
      tags: request.tags,
      filters: request.filters,
      sort: request.sort,
      from: request.from,
      size: request.size,
    })
  }

  const byId = categoriesById(categories, ctx.memo)
  const items: SearchResultItem[] = []
  const results: PreparedResult[] = []
  const scores: number[] = []
  const key = termsKey(terms)
  const found = await foundItems(ctx, tenantId, result.hits.map((hit) => hit.id))
  for (let i = 0; i < result.hits.length; i++) {
    const hit = result.hits[i]
    const item = found[i]
    const category = item === undefined || item === null ? null : (byId.get(item.record.category_id) ?? null)
    // An item changed after the engine answered is left out rather than shown stale.
    if (hit === undefined || item === undefined || item === null || category === null || !isFoundItemVisible(item, category, now)) continue
    const prepared = item.results.get(key, category, () => resultItem(item.record, category, hit.score, terms, item.source))
    const score = roundScore(hit.score)
    // Hint: the same terms over the same index give the same score: then the remembered item is the reply's as it is.
    items.push(prepared.item.score === score ? prepared.item : { ...prepared.item, score })
    results.push(prepared)
    scores.push(score)
  }
  const reply: SearchResponseBody = { items, pagination: pagination(request, result.total) }
  return { status: 200, body: reply, bytes: searchReplyBytes(results, scores, reply.pagination), cache: { kind: 'no-store' } }
}

// The synonym sets of each frontdesk (its context), dropped with it.
const SYNONYMS = new WeakMap<Context, SynonymSets>()

/**
 * The query's terms with the tenant's synonyms (see `withSynonyms`): its set as of the tenant's
 * current revision (kept per revision when `ctx.memo`; else read for every search).
 */
async function withTenantSynonyms(ctx: Context, tenantId: string, terms: QueryTerm[]): Promise<QueryTerm[]> {
  if (!ctx.memo) return withSynonyms(terms, synonymSetOf(await ctx.store.getSynonyms(tenantId)))
  let sets = SYNONYMS.get(ctx)
  if (sets === undefined) {
    sets = new SynonymSets()
    SYNONYMS.set(ctx, sets)
  }
  // Hint: the revision first: a set read after it is at least as new as it says.
  return sets.expand(tenantId, await ctx.store.revision(tenantId), terms, () => ctx.store.getSynonyms(tenantId))
}

// Hint: the store hands out the same categories array until they change: its map is made once.
const BY_ID = new WeakMap<readonly CategoryRecord[], Map<string, CategoryRecord>>()

/** The categories by id (kept with the array when `memo`). */
function categoriesById(categories: readonly CategoryRecord[], memo: boolean): Map<string, CategoryRecord> {
  if (!memo) return new Map(categories.map((category) => [category.id, category]))
  let byId = BY_ID.get(categories)
  // Hint: an array grown in place (no store does that, the port returns arrays as they are) is mapped again.
  if (byId === undefined || byId.size !== categories.length) {
    byId = new Map(categories.map((category) => [category.id, category]))
    BY_ID.set(categories, byId)
  }
  return byId
}

function pagination(request: ParsedSearch, total: number): SearchResponseBody['pagination'] {
  return { total, from: request.from, size: request.size, has_more: request.from + request.size < total }
}

// The items found by each frontdesk (its context), dropped with it.
const FOUND = new WeakMap<Context, FoundItems>()

/**
 * The items of the hits' ids, in order (`null`: no longer stored): those found before as they
 * are at the tenant's current revision, the others read together. With `ctx.memo` false, all
 * of them are read and prepared afresh, and nothing is kept.
 */
async function foundItems(ctx: Context, tenantId: string, ids: readonly string[]): Promise<(FoundItem | null)[]> {
  if (ids.length === 0) return []
  if (!ctx.memo) return (await ctx.store.getContents(tenantId, ids)).map((record) => (record === null ? null : freshItem(record)))
  let found = FOUND.get(ctx)
  if (found === undefined) {
    found = new FoundItems()
    FOUND.set(ctx, found)
  }
  // Hint: the revision first: what is read after it is at least as fresh as it says.
  const revision = await ctx.store.revision(tenantId)
  const items = found.getAll(tenantId, ids, revision).map((item) => item ?? null)
  const unknown = ids.filter((_, i) => items[i] === null)
  if (unknown.length === 0) return items
  const records = await ctx.store.getContents(tenantId, unknown)
  let next = 0
  for (let i = 0; i < ids.length; i++) {
    if (items[i] !== null) continue
    const record = records[next++] ?? null
    if (record === null) found.delete(tenantId, ids[i] ?? '')
    else items[i] = found.put(record, revision)
  }
  return items
}

/**
 * The result item of a record: its listed fields, score, highlights and custom fields by name.
 * `source` is the record's prepared texts when the caller keeps them (see `FoundItems`).
 */
export function resultItem(
  record: ContentRecord,
  category: CategoryRecord,
  score: number,
  terms: readonly QueryTerm[],
  source: ItemHighlightSource = prepare(record),
): SearchResultItem {
  const customFields: Record<string, FieldValue> = {}
  for (const field of category.fields) {
    if (Object.hasOwn(record.fields, field.id)) {
      const value = record.fields[field.id]
      if (value !== undefined) customFields[`custom_${field.name}`] = value
    }
  }
  const highlights = source.highlights.get(termsKey(terms), () => {
    const marked = highlightTermsOf(terms)
    return { title: highlightIn(source.title, marked), fragments: fragmentsIn(source.fragments, marked) }
  })
  return {
    id: record.id,
    title: record.title,
    slug: record.slug,
    category_id: record.category_id,
    published_at: record.published_at ?? '',
    author_name: record.author_name,
    tags: record.tags.map((tag) => tag.name),
    score: roundScore(score),
    highlight: {
      title: [highlights.title],
      search_text: [...highlights.fragments],
    },
    custom_fields: customFields,
  }
}
