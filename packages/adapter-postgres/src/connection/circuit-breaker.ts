import { StorageUnavailableError } from '@frontdesk/core'

/** How often an open breaker tries to reach the database again, in ms. */
export const PROBE_INTERVAL_MS = 250

/** At most this many probes wait at once (each for up to the connect timeout). */
const MAX_PROBES = 8

/**
 * Refuses at once while the database is known to be unreachable, instead of letting every
 * request wait out the connect timeout (5 s by default) in a network partition.
 *
 * `trip()` opens it (a connection could not be opened, or the server stopped answering).
 * While open, `check()` throws `StorageUnavailableError` (503 with `Retry-After`) without
 * touching the network, and one probe (`probe`: open a connection of its own and run a
 * statement) is let through every `PROBE_INTERVAL_MS`; the first probe that gets an answer
 * closes it. So a healed partition is noticed within a probe interval and a round trip, whether
 * or not requests arrive meanwhile. Probes overlap (a probe into a partition waits up to the
 * connect timeout) but never more than `MAX_PROBES` at once.
 */
export class CircuitBreaker {
  readonly #probe: () => Promise<void>
  #open = false
  #probes = 0
  #timer: NodeJS.Timeout | null = null
  #stopped = false

  constructor(probe: () => Promise<void>) {
    this.#probe = probe
  }

  /** Whether requests are refused at once. */
  get open(): boolean {
    return this.#open
  }

  /** Throws `StorageUnavailableError` while the breaker is open. */
  check(): void {
    if (this.#open) throw new StorageUnavailableError('The database is unreachable')
  }

  /** The database could not be reached: refuse requests until a probe gets through. */
  trip(): void {
    if (this.#open || this.#stopped) return
    this.#open = true
    this.#timer = setInterval(() => this.#probeOnce(), PROBE_INTERVAL_MS)
    this.#timer.unref()
    this.#probeOnce()
  }

  /** Stops probing for good (the store is closing). */
  stop(): void {
    this.#stopped = true
    this.#close()
  }

  #probeOnce(): void {
    if (!this.#open || this.#probes >= MAX_PROBES) return
    this.#probes++
    this.#probe().then(
      () => this.#close(),
      () => {
        // Hint: still unreachable; the next interval probes again.
      },
    ).finally(() => this.#probes--)
  }

  #close(): void {
    this.#open = false
    if (this.#timer !== null) clearInterval(this.#timer)
    this.#timer = null
  }
}
