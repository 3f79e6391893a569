import type { FtsBuild } from './fts-reference.ts'
import type { InProcessResults } from './in-process.ts'
import type { LoadResult } from './load-job.ts'
import type { SearchClass } from './search-classes.ts'
import type { SmallImports } from './small-imports.ts'
import type { WebhookFigures } from './webhooks.ts'

/** One HTTP scenario's outcome. */
export interface ScenarioResult {
  id: string
  label: string
  /** Set when the scenario could not be measured (wrong answer before the load, worker failure). */
  error?: string
  result?: LoadResult
  /** Requests/s over the ceiling's. */
  ratio?: number
  /** Distinct cacheable requests rotated over. */
  distinct?: number
  /** Whether every measured request must have missed frontdesk's response cache. */
  allMisses?: boolean
  /**
   * Later runs of the same load (`REPEATED` of run.ts: scenarios compared with each other
   * within a few percent, run again at the end in the other order); the targets take the mean
   * CPU per request of all runs.
   */
  repeats?: LoadResult[]
}

/** A bare reference server's run: a reply ceiling or a floor. */
export interface ReferenceResult {
  result: LoadResult
  /** Requests/s over the ceiling's. */
  ratio?: number
}

/** One target and the figure measured for it. */
export interface Check {
  name: string
  target: string
  value: string
  /** `null` when the figure could not be measured. */
  pass: boolean | null
}

/** Every search query of the run, counted by the key of the engine's memory of recent searches. */
export interface SearchQueryCount {
  /**
   * Queries drawn for HTTPS (warm-ups and checks included), by class: every one was sent but
   * the last one or two per connection of each load, prepared when the load stopped.
   */
  sentByClass: Partial<Record<SearchClass, number>>
  sent: number
  /** Of them, distinct by the engine's key: `sent` when none repeated. */
  distinct: number
}

/** The shape of `RunResults` written by this version of the benchmark (files without it are older). */
export const RESULTS_FORMAT = 2

/** Everything one benchmark run measured; written to bench-results/<timestamp>.json. */
export interface RunResults {
  format: typeof RESULTS_FORMAT
  startedAt: string
  finishedAt?: string
  options: Record<string, unknown>
  machine: { node: string; cpus: number; cpuModel: string; memoryBytes: number; loadBefore: number[]; loadAfter?: number[] }
  import?: {
    items: number
    records: number
    generateSeconds: number
    seconds: number
    itemsPerSecond: number
    /** Indexing the tenant and writing its search snapshot after the import's commit, as `frontdesk import` does. */
    indexBuildSeconds: number
    itemsPerSecondWithIndex: number
    dbBytes: number
  }
  /** Small imports into a large tenant, each a fresh process (`bench/small-imports.ts`). */
  smallImports?: SmallImports
  /** Webhook delivery (`bench/webhooks.ts`). */
  webhooks?: WebhookFigures
  serve?: {
    listeningMs: number
    firstSearchMs: number
    rssBytes: number | null
    rssAfterLoadBytes?: number | null
    /** The same figures for a restart (the load runs against the restarted server). */
    restartFirstSearchMs?: number
    restartRssBytes?: number | null
    /** The largest resident set either server reached (all its processes, each one's `VmHWM`), up to its stop. */
    peakRssBytes?: number | null
    /** Bytes serve left beside the database (a persisted index); `null`: none (rebuilt in memory on every start). */
    indexDiskBytes: number | null
    dbBytesAfter?: number
  }
  /** The bare `node:https` server answering a fixed 1 KB JSON body, before and after the scenarios. */
  ceiling: LoadResult[]
  ceilingRps?: number
  /** The same bare server answering with the detail hit's exact reply (headers and body, a fresh request id each time). */
  replyCeiling?: { replyBytes: number } & ReferenceResult
  /** The same, answering from a promise callback (`--async`), as a handler over an asynchronous port must. */
  asyncReplyCeiling?: { replyBytes: number } & ReferenceResult
  /**
   * A bare server doing only the SQLite read and the JSON of a cache miss (`ceiling-server.ts
   * --floor`), under the same requests as `detail_miss`, `list_miss` and `list_tags_fields`.
   */
  floors: Partial<Record<'detail' | 'list' | 'filtered', ReferenceResult>>
  scenarios: ScenarioResult[]
  inProcess?: Omit<InProcessResults, 'walks' | 'categories'> & { walkedPages: number }
  /** The SQLite FTS5 reference's build. */
  fts?: FtsBuild
  /** The search queries sent over HTTPS, counted. */
  searchQueries?: SearchQueryCount
  checks: Check[]
  aborted?: string
}
