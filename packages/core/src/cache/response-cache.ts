import type { Clock } from '../app/clock.ts'

/** Options of a `ResponseCache`. */
export interface ResponseCacheOptions {
  /** Entries older than this are never served, in ms. Default 60 000 (SPEC.md "Limits"). */
  ttlMs?: number
  /** At most this many entries; the least recently used go first. Default 10 000. */
  maxEntries?: number
  /**
   * At most this many bytes of entries (as sized by `set`'s caller, e.g. their JSON length);
   * the least recently used go first. Default 32 MiB: 10 000 entries of long lists or long
   * bodies would otherwise hold gigabytes.
   */
  maxBytes?: number
}

/** Default of `ResponseCacheOptions.maxBytes`. */
export const DEFAULT_CACHE_MAX_BYTES = 32 * 1024 * 1024

/**
 * An in-process cache of public replies. Keys must include the tenant and the tenant's
 * storage revision, so a change from any process makes older entries unreachable
 * (they then age out). Preview replies are never put here.
 */
export class ResponseCache<V = unknown> {
  readonly #clock: Clock
  readonly #ttlMs: number
  readonly #maxEntries: number
  readonly #maxBytes: number
  readonly #entries = new Map<string, { value: V; expiresAt: number; size: number }>()
  #bytes = 0

  constructor(clock: Clock, options: ResponseCacheOptions = {}) {
    this.#clock = clock
    this.#ttlMs = options.ttlMs ?? 60_000
    this.#maxEntries = options.maxEntries ?? 10_000
    this.#maxBytes = options.maxBytes ?? DEFAULT_CACHE_MAX_BYTES
  }

  /** The live entry for `key`, or `null`. */
  get(key: string): V | null {
    const entry = this.#entries.get(key)
    if (entry === undefined) return null
    if (entry.expiresAt <= this.#clock.now()) {
      this.#delete(key)
      return null
    }
    // Re-insert to mark it most recently used.
    this.#entries.delete(key)
    this.#entries.set(key, entry)
    return entry.value
  }

  /**
   * Stores `value` under `key` for the TTL, or until `expiresAt` (ms) if that comes sooner;
   * `size` (bytes, default 0) counts against `maxBytes`. A value larger than `maxBytes` is not kept.
   */
  set(key: string, value: V, expiresAt?: number, size = 0): void {
    const now = this.#clock.now()
    const limit = now + this.#ttlMs
    this.#delete(key)
    if (size > this.#maxBytes) return
    this.#entries.set(key, { value, expiresAt: expiresAt === undefined ? limit : Math.min(limit, expiresAt), size })
    this.#bytes += size
    // Hint: the oldest entries come first; expired ones there would otherwise sit until evicted.
    for (const [oldest, entry] of this.#entries) {
      const over = this.#entries.size > this.#maxEntries || this.#bytes > this.#maxBytes
      if (!over && entry.expiresAt > now) break
      this.#delete(oldest)
    }
  }

  /** Bytes of entries held, as sized by `set`. */
  get bytes(): number {
    return this.#bytes
  }

  #delete(key: string): void {
    const entry = this.#entries.get(key)
    if (entry === undefined) return
    this.#entries.delete(key)
    this.#bytes -= entry.size
  }

  /** Number of entries held (expired ones included until touched). */
  get size(): number {
    return this.#entries.size
  }
}
