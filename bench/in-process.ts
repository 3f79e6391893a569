import type { SqliteStore } from '@frontdesk/adapter-sqlite'
import { createSearchEngine } from '@frontdesk/search'
import type { Principal } from '@frontdesk/core'
import { createFrontdesk } from '@frontdesk/core'
import type { DatasetFacts } from './dataset.ts'
import type { QueryClass, QuerySets } from './queries.ts'
import { chooseQueries } from './queries.ts'
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

/** What the benchmark measures without HTTP, calling the use cases directly. */
export interface InProcessResults {
  /** Seconds to build the search index of all items (what `serve` does before listening). */
  indexBuildSeconds: number
  /** Growth of this process's RSS while building the index, in bytes (a rough index size in memory). */
  indexRssBytes: number
  queries: QuerySets
  search: Record<QueryClass, Latency>
  /** Page 1, page 2 (the first with a cursor) and the deep page of the default list, uncached. */
  listPage1: Latency
  listPage2: Latency
  listDeep: Latency
  deepPage: number
  walks: Walk[]
}

function latency(sorted: number[]): Latency {
  return { runs: sorted.length, p50: percentile(sorted, 0.5), p99: percentile(sorted, 0.99), max: sorted[sorted.length - 1] ?? 0 }
}

/**
 * Builds the search index over the seeded store in this process, chooses the query sets,
 * times `runs` searches per class and the default list's page 1 against its deep page
 * (`deepPage`, or the last page when there are fewer) without any response cache, and walks the
 * lists whose cursors the HTTP scenarios rotate over. Releases the index afterwards.
 */
export async function measureInProcess(
  store: SqliteStore,
  key: string,
  facts: DatasetFacts,
  options: { runs: number; deepPage: number; perClass: number; walkQueries: string[] },
  log: (line: string) => void,
): Promise<InProcessResults> {
  // Hint: no snapshot file: this index must not leave anything the server's first start could reuse.
  const search = createSearchEngine({ store, snapshots: null })
  // No response cache: every call does the work a cache miss does.
  const frontdesk = createFrontdesk({ store, search, cache: { maxEntries: 0 } })
  try {
    const rssBefore = process.memoryUsage().rss
    const buildStart = performance.now()
    await search.warmUp()
    const indexBuildSeconds = (performance.now() - buildStart) / 1000
    const indexRssBytes = process.memoryUsage().rss - rssBefore
    log(`search index built in-process in ${indexBuildSeconds.toFixed(1)} s`)

    const principal: Principal = await frontdesk.authenticate({ apiKey: key, authorization: false }, 'cms:search')
    const queries = await chooseQueries(frontdesk, principal, facts.vocabulary, facts.visibleIds.length, options.perClass)
    log(`query sets: ${Object.entries(queries).map(([k, v]) => `${k}=${v.length}`).join(' ')}`)

    const searchLatency = {} as Record<QueryClass, Latency>
    for (const [name, set] of Object.entries(queries) as [QueryClass, QuerySets[QueryClass]][]) {
      if (set.length === 0) {
        searchLatency[name] = { runs: 0, p50: 0, p99: 0, max: 0 }
        continue
      }
      // A short warm-up, then the measured runs over the class's queries in turn.
      for (const { body } of set.slice(0, 10)) await frontdesk.search(principal, body)
      searchLatency[name] = latency(await timeEach(options.runs, (i) => frontdesk.search(principal, set[i % set.length]?.body ?? {})))
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
    return { indexBuildSeconds, indexRssBytes, queries, search: searchLatency, listPage1, listPage2, listDeep, deepPage, walks }
  } finally {
    await search.close()
  }
}
