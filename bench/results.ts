import type { InProcessResults } from './in-process.ts'
import type { LoadResult } from './load-job.ts'

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
}

/** One target of issue 8 and the figure measured for it. */
export interface Check {
  name: string
  target: string
  value: string
  /** `null` when the figure could not be measured. */
  pass: boolean | null
}

/** Everything one benchmark run measured; written to bench-results/<timestamp>.json. */
export interface RunResults {
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
    /**
     * Indexing the tenant and writing its search snapshot after the import's commit, as
     * `frontdesk import` does (before 2026-11-21 16:30 UTC: the in-process build, as `serve` did on its first start).
     */
    indexBuildSeconds: number
    itemsPerSecondWithIndex: number
    dbBytes: number
  }
  serve?: {
    listeningMs: number
    firstSearchMs: number
    rssBytes: number | null
    rssAfterLoadBytes?: number | null
    /** The same figures for a restart (the load runs against the restarted server). */
    restartFirstSearchMs?: number
    restartRssBytes?: number | null
    /** Bytes serve left beside the database (a persisted index); `null`: none (rebuilt in memory on every start). */
    indexDiskBytes: number | null
    dbBytesAfter?: number
  }
  ceiling: LoadResult[]
  ceilingRps?: number
  /**
   * The same bare server answering with the detail hit's exact reply (headers and body, a
   * fresh request id each time): how far the reply's size alone takes the ceiling down.
   */
  replyCeiling?: { replyBytes: number; result: LoadResult; ratio?: number }
  /** The same, answering from a promise callback (`--async`), as a handler over an asynchronous port must. */
  asyncReplyCeiling?: { replyBytes: number; result: LoadResult; ratio?: number }
  /**
   * A bare server doing only the SQLite read and the JSON of a cache miss (`ceiling-server.ts
   * --floor`), under the same requests as `detail_miss`, `list_miss` and `list_tags_fields`:
   * for detail and list, the most a miss can reach with `node:https` and better-sqlite3 in one
   * process on this machine; for the filtered list, what the obvious single statement reaches.
   */
  floors: Partial<Record<'detail' | 'list' | 'filtered', { result: LoadResult; ratio?: number }>>
  scenarios: ScenarioResult[]
  inProcess?: Omit<InProcessResults, 'walks'> & { walkedPages: number }
  checks: Check[]
  aborted?: string
}
