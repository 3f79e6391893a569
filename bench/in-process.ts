import type { CategoryRecord, Principal, SearchPort, SearchResponseBody, Store } from '@frontdesk/core'
import { createFrontdesk, searchQueryKey } from '@frontdesk/core'
import { createSearchEngine } from './engine.ts'
import type { FtsAnswer, FtsReference } from './fts-reference.ts'
import type { SearchClass, SearchStreams } from './search-classes.ts'
import { SEARCH_CLASS_IDS } from './search-classes.ts'
import { percentile, timeEach } from './stats.ts'
import type { Walk } from './walks.ts'
import { walkList } from './walks.ts'

/** Latency figures of one in-process measurement, in ms. */
export interface Latency {
  runs: number
  p50: number
  p99: number
  max: number
}

/** Latency and the mean CPU time per call, in µs. */
export interface CpuLatency extends Latency {
  cpuUs: number
}

/** One query class, timed in-process on the engine (through the use case) and on the FTS5 reference. */
export interface ClassTiming {
  cls: SearchClass
  /** Queries timed (each asked once: none asked before in the run). */
  queries: number
  /** Of them, how many asked a page or page size other than the default (their words had been asked before). */
  otherPages: number
  /** The engine's exact `total`s: smallest, median, largest. */
  hits: { min: number; p50: number; max: number }
  /** `frontdesk.search()`, the use case: the engine, reading the found items, highlights, the reply. */
  useCase: CpuLatency
  /** The engine alone (the search port's call, wall time). */
  engine: Latency
  /** The FTS5 reference: the count, the page and its title highlights. */
  fts: CpuLatency | null
  /** Queries whose FTS5 `total` equals the engine's. */
  totalsAgree: number | null
  /** Mean share of the engine's page that the reference's page also holds (1 for sorted classes: same order, same ties). */
  overlap: number | null
}

/** What the benchmark measures without HTTP, calling the use cases directly. */
export interface InProcessResults {
  /** Seconds to build the search index of all items (what `serve` does before listening). */
  indexBuildSeconds: number
  /** Growth of this process's RSS while building the index, in bytes (a rough index size in memory). */
  indexRssBytes: number
  search: ClassTiming[]
  /** Searches that reached the engine in this process, and how many distinct ones (by the key its memory uses). */
  engineSearches: { calls: number; distinct: number }
  /** Page 1, page 2 (the first with a cursor) and the deep page of the default list, uncached. */
  listPage1: Latency
  listPage2: Latency
  listDeep: Latency
  deepPage: number
  walks: Walk[]
  /** The tenant's categories (to resolve search bodies as the server does). */
  categories: CategoryRecord[]
}

function latency(sorted: number[]): Latency {
  return { runs: sorted.length, p50: percentile(sorted, 0.5), p99: percentile(sorted, 0.99), max: sorted[sorted.length - 1] ?? 0 }
}

function cpuLatency(times: number[], cpuUs: number[]): CpuLatency {
  return { ...latency([...times].sort((a, b) => a - b)), cpuUs: cpuUs.reduce((a, b) => a + b, 0) / Math.max(1, cpuUs.length) }
}

/** Runs `work` and returns its result with its wall time (ms) and CPU time (µs). */
async function timed<T>(work: () => T | Promise<T>): Promise<{ value: T; ms: number; cpuUs: number }> {
  const cpu = process.cpuUsage()
  const at = performance.now()
  const value = await work()
  const ms = performance.now() - at
  const used = process.cpuUsage(cpu)
  return { value, ms, cpuUs: used.user + used.system }
}

/**
 * Builds the search index over the seeded store in this process, times `runs` new queries of
 * every class on it (through the use case, without any response cache) and on the FTS5
 * reference, one after the other, times the default list's page 1 against its deep page
 * (`deepPage`, or the last page when there are fewer), and walks the lists whose cursors the
 * HTTP scenarios rotate over. Releases the index afterwards.
 */
export async function measureInProcess(
  store: Store,
  key: string,
  streams: SearchStreams,
  fts: FtsReference | null,
  options: { runs: number; deepPage: number; walkQueries: string[] },
  log: (line: string) => void,
): Promise<InProcessResults> {
  // Hint: no snapshot file: this index must not leave anything the server's first start could reuse.
  const engine = createSearchEngine({ store, snapshots: null })
  // Every search reaching the engine, by the key of its memory of recent searches: all distinct means it answered none.
  const keys = new Set<string>()
  let calls = 0
  let engineMs = 0
  const counted: SearchPort = {
    search: async (tenantId, query) => {
      calls++
      keys.add(searchQueryKey(query))
      const at = performance.now()
      const result = await engine.search(tenantId, query)
      engineMs = performance.now() - at
      return result
    },
  }
  // No response cache: every call does the work a cache miss does.
  const frontdesk = createFrontdesk({ store, search: counted, cache: { maxEntries: 0 } })
  try {
    const rssBefore = process.memoryUsage().rss
    const buildStart = performance.now()
    await engine.warmUp()
    const indexBuildSeconds = (performance.now() - buildStart) / 1000
    const indexRssBytes = process.memoryUsage().rss - rssBefore
    log(`search index built in-process in ${indexBuildSeconds.toFixed(1)} s`)

    const principal: Principal = await frontdesk.authenticate({ apiKey: key, authorization: false }, 'cms:search')
    const search: ClassTiming[] = []
    for (const cls of SEARCH_CLASS_IDS) {
      const stream = streams.stream(cls)
      // A short warm-up on new queries of the class, then the measured ones, engine and reference in turns.
      for (let i = 0; i < 5; i++) {
        const body = stream.next()
        await frontdesk.search(principal, body)
        fts?.search(body, new Date().toISOString())
      }
      const use = { ms: [] as number[], cpu: [] as number[] }
      const ref = { ms: [] as number[], cpu: [] as number[] }
      const engineTimes: number[] = []
      const totals: number[] = []
      let agree = 0
      let overlapSum = 0
      let otherPages = 0
      for (let i = 0; i < options.runs; i++) {
        const body = stream.next()
        if (body['from'] !== undefined) otherPages++
        const viaEngine = async () => {
          engineMs = 0
          const run = await timed(() => frontdesk.search(principal, body))
          use.ms.push(run.ms)
          use.cpu.push(run.cpuUs)
          engineTimes.push(engineMs)
          return run.value.body
        }
        const viaFts = async () => {
          if (fts === null) return null
          const now = new Date().toISOString()
          const run = await timed(() => fts.search(body, now))
          ref.ms.push(run.ms)
          ref.cpu.push(run.cpuUs)
          return run.value
        }
        // Turns about, so that neither always runs with the caches the other just warmed.
        let reply: SearchResponseBody
        let answer: FtsAnswer | null
        if (i % 2 === 0) {
          reply = await viaEngine()
          answer = await viaFts()
        } else {
          answer = await viaFts()
          reply = await viaEngine()
        }
        totals.push(reply.pagination.total)
        if (answer !== null) {
          if (answer.total === reply.pagination.total) agree++
          const ids = new Set(answer.ids)
          overlapSum += reply.items.length === 0 ? 1 : reply.items.filter((item) => ids.has(item.id)).length / reply.items.length
        }
      }
      totals.sort((a, b) => a - b)
      search.push({
        cls,
        queries: options.runs,
        otherPages,
        hits: { min: totals[0] ?? 0, p50: percentile(totals, 0.5), max: totals[totals.length - 1] ?? 0 },
        useCase: cpuLatency(use.ms, use.cpu),
        engine: latency(engineTimes.sort((a, b) => a - b)),
        fts: fts === null ? null : cpuLatency(ref.ms, ref.cpu),
        totalsAgree: fts === null ? null : agree,
        overlap: fts === null ? null : overlapSum / Math.max(1, options.runs),
      })
      const last = search[search.length - 1]
      if (last !== undefined) log(`  ${cls}: p50 ${last.useCase.p50.toFixed(2)} ms, p99 ${last.useCase.p99.toFixed(2)} ms${last.fts === null ? '' : `; FTS5 p50 ${last.fts.p50.toFixed(2)} ms, p99 ${last.fts.p99.toFixed(2)} ms; totals agree ${last.totalsAgree}/${last.queries}`}`)
    }

    const walks: Walk[] = []
    for (const query of options.walkQueries) walks.push(await walkList(frontdesk, principal, query, 100_000))
    const main = walks[0]?.paths ?? []
    const deepPage = Math.min(options.deepPage, main.length)
    const page1Params = new URLSearchParams(main[0]?.split('?')[1] ?? '')
    const page2Params = new URLSearchParams(main[1]?.split('?')[1] ?? '')
    const deepParams = new URLSearchParams(main[deepPage - 1]?.split('?')[1] ?? '')
    const pages = [page1Params, page2Params, deepParams]
    for (let i = 0; i < 20; i++) for (const params of pages) await frontdesk.listContents(principal, params)
    // Interleaved in rounds, so that a drift over time (GC, the other core) weighs on all three alike.
    const durations: number[][] = [[], [], []]
    const rounds = 4
    for (let round = 0; round < rounds; round++) {
      for (const [i, params] of pages.entries()) durations[i]?.push(...(await timeEach(Math.ceil(options.runs / rounds), () => frontdesk.listContents(principal, params))))
    }
    const [listPage1, listPage2, listDeep] = durations.map((d) => latency(d.sort((a, b) => a - b))) as [Latency, Latency, Latency]
    const categories = await store.listCategories(principal.tenant.id)
    return { indexBuildSeconds, indexRssBytes, search, engineSearches: { calls, distinct: keys.size }, listPage1, listPage2, listDeep, deepPage, walks, categories }
  } finally {
    await engine.close()
  }
}
