import { CATEGORY_CODES, fieldId, INQUIRY_CATEGORY, REGIONS } from './dataset.ts'
import type { DatasetFacts } from './dataset.ts'
import type { Answer } from './https-client.ts'
import type { RequestPlan } from './load-job.ts'
import { Prng } from './prng.ts'
import type { SearchClass } from './search-classes.ts'
import { SEARCH_CLASS_IDS, SEARCH_CLASSES, SEARCH_MIX } from './search-classes.ts'
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
  return answer.status === 200 && typeof pagination['total'] === 'number' ? null : `expected 200 with a search result, got ${answer.status}`
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

const searchPlan = (shares: Partial<Record<SearchClass, number>>): RequestPlan => ({ kind: 'search', shares, start: {} })

/** The HTTP scenarios of a run, built from the data set and the walked lists (search queries come from the streams at run time). */
export function buildScenarios(facts: DatasetFacts, walks: Walk[], deepPage: number): Scenario[] {
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
  return [
    { id: 'detail_hit', label: 'detail, cache hit (same id)', plan: { kind: 'fixed', method: 'GET', path: `/v1/cms/contents/${facts.visibleIds[0] ?? ''}` }, check: isDetail, distinct: 1 },
    { id: 'detail_miss', label: 'detail, cache miss (rotating ids)', plan: { kind: 'rotate', method: 'GET', requests: detailIds.map((id) => ({ path: `/v1/cms/contents/${id}` })) }, check: isDetail, distinct: detailIds.length },
    { id: 'list_page1', label: 'list page 1 (cached)', plan: { kind: 'fixed', method: 'GET', path: mainWalk[0] ?? '/v1/cms/contents' }, check: isFullList, distinct: 1 },
    { id: 'list_deep', label: `list page ${deepPage} by cursor (cached)`, plan: { kind: 'fixed', method: 'GET', path: mainWalk[deepPage - 1] ?? '/v1/cms/contents' }, check: isFullList, distinct: 1 },
    { id: 'list_miss', label: 'list, cache miss (rotating cursors)', plan: { kind: 'rotate', method: 'GET', requests: allPages.map((path) => ({ path })) }, check: isList, distinct: allPages.length },
    { id: 'list_tags_fields', label: 'list tags + field_filters (rotating)', plan: { kind: 'rotate', method: 'GET', requests: tagCombos.map((path) => ({ path })) }, check: isList, distinct: tagCombos.length },
    ...SEARCH_CLASS_IDS.map((cls): Scenario => ({ id: `search_${cls}`, label: `search: ${SEARCH_CLASSES[cls]}`, plan: searchPlan({ [cls]: 1 }), check: isSearch })),
    { id: 'search_mix', label: 'search: the mix of all classes', plan: searchPlan(SEARCH_MIX), check: isSearch },
    { id: 'inquiry', label: 'inquiry creation (durable)', plan: { kind: 'inquiry', path: '/v1/inquiries', categoryCode: INQUIRY_CATEGORY }, check: isInquiry },
  ]
}

/** The first request of a plan, for the correctness check before the load (a search plan's comes from its streams: `run.ts`). */
export function firstRequest(plan: Exclude<RequestPlan, { kind: 'search' }>): { method: string; path: string; body?: string } {
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
