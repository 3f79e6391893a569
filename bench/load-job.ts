import type { SearchClass } from './search-classes.ts'

/*
 * What the benchmark asks a load worker (`load-worker.ts`, a separate process) to do, and
 * what the worker reports back. Plain data: it crosses the IPC channel.
 */

/** The requests of one scenario. */
export type RequestPlan =
  /** The same request again and again. */
  | { kind: 'fixed'; method: 'GET' | 'POST'; path: string; body?: string }
  /** Requests taken in turn from the list, across all connections (so each is sent about once per round). */
  | { kind: 'rotate'; method: 'GET' | 'POST'; requests: { path: string; body?: string }[] }
  /** A new inquiry per request (a fresh body each time). */
  | { kind: 'inquiry'; path: string; categoryCode: string }
  /**
   * Searches never asked before: each request takes the next query of a class's stream
   * (`search-classes.ts`), classes in turn by their shares; each stream starts at `start[class]`.
   */
  | { kind: 'search'; shares: Partial<Record<SearchClass, number>>; start: Partial<Record<SearchClass, number>> }

/** One load run. */
export interface LoadJob {
  /** `https://127.0.0.1:<port>` */
  origin: string
  headers: Record<string, string>
  plan: RequestPlan
  connections: number
  /** Requests per second over all connections (an open pace, for a load that must not saturate the server); absent: as fast as answered. */
  rate?: number
  /** Seconds of load before the measured ones (connections, JIT, caches settle); not counted. */
  warmupSeconds: number
  /** Seconds measured. */
  durationSeconds: number
  /** The server's processes (their descendants are found and counted too): whose CPU time the answers cost. */
  serverPids: number[]
}

/** What a load run measured (only 2xx answers count as requests and latencies). */
export interface LoadResult {
  /** 2xx answers per second over the measured time. */
  rps: number
  /** 2xx answers during the measured time. */
  ok: number
  /** Answers with another status, by status. */
  otherStatuses: Record<string, number>
  /** Connection errors and timeouts. */
  errors: number
  timeouts: number
  /** Latency percentiles of 2xx answers, in ms (sub-millisecond precision). */
  p50: number
  p90: number
  p99: number
  max: number
  mean: number
  /** Requests sent by the plan in total (warm-up included): tells whether a rotation repeated itself. */
  planned: number
  seconds: number
  /**
   * The server's CPU time (user + system, all its processes and threads) over the measured
   * seconds, per 2xx answer, in µs; `null` when it could not be read (no `/proc`).
   */
  cpuUs: number | null
  /** The server's CPU time over the measured seconds as a share of one core. */
  serverCores: number | null
  /** The load generator's own CPU time per 2xx answer, in µs (it shares the machine). */
  clientCpuUs: number
  /** Server processes counted at the end of the measured seconds. */
  serverProcesses: number
  /** For a search plan: queries taken from each class's stream (warm-up and check included). */
  consumed?: Partial<Record<SearchClass, number>>
}
