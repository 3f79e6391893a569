import { CATEGORY_CODES, fieldId, INQUIRY_CATEGORY, REGIONS } from './dataset.ts'
import type { DatasetFacts } from './dataset.ts'
import type { Answer } from './https-client.ts'
import type { RequestPlan } from './load-job.ts'
import { Prng } from './prng.ts'
import type { QueryClass, QuerySets } from './queries.ts'
import type { Walk } from './walks.ts'

/** One HTTP scenario: what to send, and how to tell a correct answer. */
export interface Scenario {
  id: string
  label: string
  plan: RequestPlan
  /** Why the answer is wrong, or `null` when it is right. */
  check: (answer: Answer) => string | null
  /** Distinct cacheable requests the plan rotates over (for telling whether the cache could hit). */
  distinct?: number
}

/**
 * The entry cap of frontdesk's response cache (its default; a byte budget, 32 MiB by default, may
 * evict sooner): a rotation over more distinct requests than this always misses (LRU).
 */
export const CACHE_ENTRIES = 10_000

const object = (json: unknown): Record<string, unknown> => (typeof json === 'object' && json !== null ? (json as Record<string, unknown>) : {})

const isDetail = (answer: Answer) => (answer.status === 200 && typeof object(answer.json)['id'] === 'string' ? null : `expected 200 with a content detail, got ${answer.status}`)
const isList = (answer: Answer) => (answer.status === 200 && Array.isArray(object(answer.json)['items']) ? null : `expected 200 with a list, got ${answer.status}`)
const isFullList = (answer: Answer) => {
  const problem = isList(answer)
  if (problem !== null) return problem
  const items = object(answer.json)['items'] as unknown[]
  return items.length > 0 ? null : 'expected a non-empty page'
}
const isSearch = (answer: Answer) => {
  const pagination = object(object(answer.json)['pagination'])
  return answer.status === 200 && typeof pagination['total'] === 'number' && (pagination['total'] as number) > 0 ? null : `expected 200 with hits, got ${answer.status}`
}
const isInquiry = (answer: Answer) => (answer.status === 201 && typeof object(answer.json)['id'] === 'string' ? null : `expected 201 with an inquiry, got ${answer.status}`)

function shuffled<T>(list: readonly T[], seed: number): T[] {
  const prng = new Prng(seed)
  const out = [...list]
  for (let i = out.length - 1; i > 0; i--) {
    const j = prng.int(0, i)
    const a = out[i]
    const b = out[j]
    if (a !== undefined && b !== undefined) {
      out[i] = b
      out[j] = a
    }
  }
  return out
}

const searchPlan = (bodies: Record<string, unknown>[]): RequestPlan => ({
  kind: 'rotate',
  method: 'POST',
  requests: bodies.map((body) => ({ path: '/v1/cms/search', body: JSON.stringify(body) })),
})

/** The realistic search mix: shares of each query class (sums to 100). */
export const SEARCH_MIX: Record<QueryClass, number> = { en1: 35, en2: 15, ja1: 20, ja2: 10, filtered: 10, common: 10 }

/** The HTTP scenarios of a run, built from the data set, the walked lists and the chosen queries. */
export function buildScenarios(facts: DatasetFacts, walks: Walk[], deepPage: number, queries: QuerySets): Scenario[] {
  const detailIds = shuffled(facts.visibleIds, 1)
  const mainWalk = walks[0]?.paths ?? ['/v1/cms/contents']
  const allPages = shuffled(walks.flatMap((walk) => walk.paths), 2)
  const combos: string[] = []
  for (const code of CATEGORY_CODES) {
    for (const tag of facts.tags.slice(0, 100)) {
      for (const region of REGIONS) {
        combos.push(`/v1/cms/contents?${new URLSearchParams({ category_code: code, tags: tag, field_filters: `${fieldId(code, 'region')}:${region}` }).toString()}`)
      }
    }
  }
  const tagCombos = shuffled(combos, 3)
  const mix: Record<string, unknown>[] = []
  for (const [name, share] of Object.entries(SEARCH_MIX) as [QueryClass, number][]) {
    const set = queries[name]
    for (let i = 0; i < share && set.length > 0; i++) {
      const body = set[i % set.length]?.body
      if (body !== undefined) mix.push(body)
    }
  }
  const bodies = (name: QueryClass) => queries[name].map((q) => q.body)
  return [
    { id: 'detail_hit', label: 'detail, cache hit (same id)', plan: { kind: 'fixed', method: 'GET', path: `/v1/cms/contents/${facts.visibleIds[0] ?? ''}` }, check: isDetail, distinct: 1 },
    { id: 'detail_miss', label: 'detail, cache miss (rotating ids)', plan: { kind: 'rotate', method: 'GET', requests: detailIds.map((id) => ({ path: `/v1/cms/contents/${id}` })) }, check: isDetail, distinct: detailIds.length },
    { id: 'list_page1', label: 'list page 1 (cached)', plan: { kind: 'fixed', method: 'GET', path: mainWalk[0] ?? '/v1/cms/contents' }, check: isFullList, distinct: 1 },
    { id: 'list_deep', label: `list page ${deepPage} by cursor (cached)`, plan: { kind: 'fixed', method: 'GET', path: mainWalk[deepPage - 1] ?? '/v1/cms/contents' }, check: isFullList, distinct: 1 },
    { id: 'list_miss', label: 'list, cache miss (rotating cursors)', plan: { kind: 'rotate', method: 'GET', requests: allPages.map((path) => ({ path })) }, check: isList, distinct: allPages.length },
    { id: 'list_tags_fields', label: 'list tags + field_filters (rotating)', plan: { kind: 'rotate', method: 'GET', requests: tagCombos.map((path) => ({ path })) }, check: isList, distinct: tagCombos.length },
    { id: 'search_en1', label: 'search English, 1 term', plan: searchPlan(bodies('en1')), check: isSearch },
    { id: 'search_en2', label: 'search English, 2 terms', plan: searchPlan(bodies('en2')), check: isSearch },
    { id: 'search_ja1', label: 'search Japanese, 1 term', plan: searchPlan(bodies('ja1')), check: isSearch },
    { id: 'search_ja2', label: 'search Japanese, 2 terms', plan: searchPlan(bodies('ja2')), check: isSearch },
    { id: 'search_filtered', label: 'search with filters', plan: searchPlan(bodies('filtered')), check: isSearch },
    { id: 'search_mix', label: 'search, realistic mix', plan: searchPlan(mix), check: isSearch },
    { id: 'inquiry', label: 'inquiry creation (durable)', plan: { kind: 'inquiry', path: '/v1/inquiries', categoryCode: INQUIRY_CATEGORY }, check: isInquiry },
  ]
}

/** The first request of a plan, for the correctness check before the load. */
export function firstRequest(plan: RequestPlan): { method: string; path: string; body?: string } {
  switch (plan.kind) {
    case 'fixed':
      return { method: plan.method, path: plan.path, ...(plan.body === undefined ? {} : { body: plan.body }) }
    case 'rotate': {
      const first = plan.requests[0]
      return { method: plan.method, path: first?.path ?? '/', ...(first?.body === undefined ? {} : { body: first.body }) }
    }
    case 'inquiry':
      return {
        method: 'POST',
        path: plan.path,
        body: JSON.stringify({ category_code: plan.categoryCode, title: 'Benchmark check', content: 'Checking the inquiry endpoint before the load.', inquirer_name: 'Bench', inquirer_email: 'bench@example.com' }),
      }
  }
}
