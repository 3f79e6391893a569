import type { Registry } from 'prom-client'

/** The requests of one route, method and status: a count, and their durations in buckets. */
interface Tally {
  route: string
  method: string
  status: string
  count: number
  sum: number
  /** Observations per bucket of `bounds` (not cumulative); the last counts those above every bound. */
  buckets: number[]
}

/** A sample as prom-client's registry formats it (`metricName` for a histogram's `_bucket`, `_sum` and `_count`). */
interface Sample {
  labels: Record<string, string | number>
  value: number
  metricName?: string
}

/**
 * Requests by route, method and status (`<name>_requests_total`) and their latency by route
 * (`<name>_request_duration_seconds`), kept as plain numbers in one `Map` and turned into
 * prom-client's metrics only when scraped. prom-client's own labelled children hash their
 * labels at every `inc` and `observe` (~1 µs a request for both); this costs a `Map` lookup and
 * a few additions. The two metrics are registered in `registry` as prom-client's aggregation
 * registers its own (objects with `get`), so they read, export and aggregate across workers as
 * any counter and histogram do.
 */
export class RequestTally {
  readonly #tallies = new Map<string, Tally>()
  readonly #bounds: readonly number[]
  readonly #durationName: string

  constructor(registry: Registry, names: { requests: string; duration: string }, bounds: readonly number[]) {
    this.#bounds = bounds
    this.#durationName = names.duration
    const counter = {
      name: names.requests,
      help: 'Requests answered, by route (template), method and status.',
      type: 'counter' as const,
      aggregator: 'sum' as const,
      get: async () => ({ ...counter, values: this.#counts() }),
      reset: () => this.#tallies.clear(),
    }
    const histogram = {
      name: names.duration,
      help: 'Time from the request to the end of its answer, by route.',
      type: 'histogram' as const,
      aggregator: 'sum' as const,
      get: async () => ({ ...histogram, values: this.#durations() }),
      reset: () => this.#tallies.clear(),
    }
    registry.registerMetric(counter as unknown as Parameters<Registry['registerMetric']>[0])
    registry.registerMetric(histogram as unknown as Parameters<Registry['registerMetric']>[0])
  }

  /** Counts one answered request that took `seconds`. */
  observe(route: string, method: string, status: number, seconds: number): void {
    const key = `${route} ${method} ${status}`
    let tally = this.#tallies.get(key)
    if (tally === undefined) {
      tally = { route, method, status: String(status), count: 0, sum: 0, buckets: new Array<number>(this.#bounds.length + 1).fill(0) }
      this.#tallies.set(key, tally)
    }
    tally.count++
    tally.sum += seconds
    const bounds = this.#bounds
    let at = 0
    while (at < bounds.length && seconds > (bounds[at] as number)) at++
    ;(tally.buckets[at] as number)++
  }

  #counts(): Sample[] {
    return [...this.#tallies.values()].map((tally) => ({ labels: { route: tally.route, method: tally.method, status: tally.status }, value: tally.count }))
  }

  /** Per route: cumulative buckets (`le`), `+Inf`, sum and count, as prom-client's histogram gives them. */
  #durations(): Sample[] {
    const byRoute = new Map<string, { buckets: number[]; sum: number; count: number }>()
    for (const tally of this.#tallies.values()) {
      let route = byRoute.get(tally.route)
      if (route === undefined) {
        route = { buckets: new Array<number>(tally.buckets.length).fill(0), sum: 0, count: 0 }
        byRoute.set(tally.route, route)
      }
      for (const [i, n] of tally.buckets.entries()) route.buckets[i] = (route.buckets[i] ?? 0) + n
      route.sum += tally.sum
      route.count += tally.count
    }
    const samples: Sample[] = []
    const bucketName = `${this.#durationName}_bucket`
    for (const [route, data] of byRoute) {
      let cumulative = 0
      for (const [i, bound] of this.#bounds.entries()) {
        cumulative += data.buckets[i] ?? 0
        samples.push({ labels: { le: bound, route }, value: cumulative, metricName: bucketName })
      }
      samples.push({ labels: { le: '+Inf', route }, value: data.count, metricName: bucketName })
      samples.push({ labels: { route }, value: data.sum, metricName: `${this.#durationName}_sum` })
      samples.push({ labels: { route }, value: data.count, metricName: `${this.#durationName}_count` })
    }
    return samples
  }
}
