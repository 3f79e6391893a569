import type { Clock } from '../app/clock.ts'

/** Options of a `ResponseCache`. */
export interface ResponseCacheOptions {
  /** Entries older than this are never served, in ms. Default 60 000 (SPEC.md "Limits"). */
  ttlMs?: number
  /** At most this many entries; the least recently used go first. Default 10 000. */
  maxEntries?: number
}

/**
 * An in-process cache of public replies. Keys must include the tenant and the tenant's
 * storage revision, so a change from any process makes older entries unreachable
 * (they then age out). Preview replies are never put here.
 */
export class ResponseCache<V = unknown> {
  readonly #clock: Clock
  readonly #ttlMs: number
  readonly #maxEntries: number
  readonly #entries = new Map<string, { value: V; expiresAt: number }>()

  constructor(clock: Clock, options: ResponseCacheOptions = {}) {
    this.#clock = clock
    this.#ttlMs = options.ttlMs ?? 60_000
    this.#maxEntries = options.maxEntries ?? 10_000
  }

  /** The live entry for `key`, or `null`. */
  get(key: string): V | null {
    const entry = this.#entries.get(key)
    if (entry === undefined) return null
    if (entry.expiresAt <= this.#clock.now()) {
      this.#entries.delete(key)
      return null
    }
    // Re-insert to mark it most recently used.
    this.#entries.delete(key)
    this.#entries.set(key, entry)
    return entry.value
  }

  /** Stores `value` under `key` for the TTL, or until `expiresAt` (ms) if that comes sooner. */
  set(key: string, value: V, expiresAt?: number): void {
    const limit = this.#clock.now() + this.#ttlMs
    this.#entries.delete(key)
    this.#entries.set(key, { value, expiresAt: expiresAt === undefined ? limit : Math.min(limit, expiresAt) })
    while (this.#entries.size > this.#maxEntries) {
      const oldest = this.#entries.keys().next().value
      if (oldest === undefined) break
      this.#entries.delete(oldest)
    }
  }

  /** Number of entries held (expired ones included until touched). */
  get size(): number {
    return this.#entries.size
  }
}
