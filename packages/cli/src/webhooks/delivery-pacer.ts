import { performance } from 'node:perf_hooks'

/** How often the event loop's utilization is sampled, in ms. */
const WINDOW_MS = 100
/** A window at least this busy, with requests arriving, is a busy API. */
const BUSY_UTILIZATION = 0.85
/**
 * A window whose requests found at least this many others still unanswered on arrival, on
 * average, is a busy API too: one that waits on its disk (the durable commit of inquiries)
 * leaves its loop idle in between, under 85 % busy, while the requests queue.
 */
const BUSY_DEPTH = 8
/** Under a busy API, attempts start at most one per this many ms per process. */
const BUSY_GAP_MS = 8

/**
 * Holds a serving process's webhook deliveries back while its API is busy, so that they take a
 * bounded share of the event loop the requests need: when over the last window requests
 * arrived (`noteRequest`) and the loop was busy `BUSY_UTILIZATION` of the time or more, or
 * they found `BUSY_DEPTH` others unanswered on arrival (on average), attempts
 * start at most one per `BUSY_GAP_MS` (125 a second; at ~300–400 µs of CPU each, about 4 %
 * of the loop). Otherwise, and so for a backlog alone however busy it keeps the loop, they
 * start at once. Held-back events wait in the outbox, in order: nothing is lost, only later.
 */
export class DeliveryPacer {
  readonly #timer: ReturnType<typeof setInterval>
  readonly #gapMs: number
  #last = performance.eventLoopUtilization()
  #requests = 0
  /** Requests noted and not yet answered. */
  #unanswered = 0
  /** The sum over the window's requests of `#unanswered` on each one's arrival. */
  #depth = 0
  #busy = false
  #nextAt = 0

  constructor(options: { windowMs?: number; busyUtilization?: number; busyDepth?: number; gapMs?: number } = {}) {
    const busyUtilization = options.busyUtilization ?? BUSY_UTILIZATION
    const busyDepth = options.busyDepth ?? BUSY_DEPTH
    this.#gapMs = options.gapMs ?? BUSY_GAP_MS
    this.#timer = setInterval(() => {
      const now = performance.eventLoopUtilization()
      this.#busy =
        this.#requests > 0 && (performance.eventLoopUtilization(now, this.#last).utilization >= busyUtilization || this.#depth / this.#requests >= busyDepth)
      this.#last = now
      this.#requests = 0
      this.#depth = 0
    }, options.windowMs ?? WINDOW_MS)
    this.#timer.unref()
  }

  /** Counts a request that arrived (the server's `'request'` event); call `answered` once when its response is done or abandoned. */
  noteRequest(): { answered: () => void } {
    this.#requests++
    this.#depth += this.#unanswered
    this.#unanswered++
    let done = false
    return {
      answered: () => {
        if (done) return
        done = true
        this.#unanswered--
      },
    }
  }

  /** Whether the last window found the API busy. */
  get busy(): boolean {
    return this.#busy
  }

  /** Resolves when the next attempt may start; `undefined` when it may start now. */
  pace(): Promise<void> | undefined {
    if (!this.#busy) return undefined
    const now = performance.now()
    const at = Math.max(now, this.#nextAt)
    this.#nextAt = at + this.#gapMs
    if (at <= now) return undefined
    return new Promise((resolve) => setTimeout(resolve, at - now))
  }

  close(): void {
    clearInterval(this.#timer)
  }
}
