import type { Clock } from '../app/clock.ts'

/** Options of a `ResponseCache`. */
export interface ResponseCacheOptions {
  /** Entries older than this are never served, in ms. Default 60 000 (README "API reference"). */
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

interface Entry<V> {
  key: string
  value: V
  expiresAt: number
  size: number
  /** The next older entry (towards eviction). */
  older: Entry<V> | null
  /** The next newer entry (towards the most recently used). */
  newer: Entry<V> | null
}

/**
 * An in-process cache of public replies. Keys must include the tenant and the tenant's
 * storage revision, so a change from any process makes older entries unreachable
 * (they then age out). Preview replies are never put here.
 *
 * Least recently used first out, kept as a list through the entries: eviction takes the oldest
 * in O(1). (Evicting in a `Map`'s insertion order walked over the holes every delete leaves at
 * its front until the next rehash: 6.5 µs per `set` with 10,000 entries under a stream of misses.)
 */
export class ResponseCache<V = unknown> {
  readonly #clock: Clock
  readonly #ttlMs: number
  readonly #maxEntries: number
  readonly #maxBytes: number
  readonly #entries = new Map<string, Entry<V>>()
  #oldest: Entry<V> | null = null
  #newest: Entry<V> | null = null
  #bytes = 0
  /** Lookups that found a live entry, since the cache was made (for metrics). */
  hits = 0
  /** Lookups that found none, or an expired one. */
  misses = 0

  constructor(clock: Clock, options: ResponseCacheOptions = {}) {
    this.#clock = clock
    this.#ttlMs = options.ttlMs ?? 60_000
    this.#maxEntries = options.maxEntries ?? 10_000
    this.#maxBytes = options.maxBytes ?? DEFAULT_CACHE_MAX_BYTES
  }

  /** The live entry for `key`, or `null`. */
  get(key: string): V | null {
    const entry = this.#entries.get(key)
    if (entry === undefined) {
      this.misses++
      return null
    }
    if (entry.expiresAt <= this.#clock.now()) {
      this.#remove(entry)
      this.misses++
      return null
    }
    this.hits++
    if (entry !== this.#newest) {
      this.#unlink(entry)
      this.#append(entry)
    }
    return entry.value
  }

  /**
   * Stores `value` under `key` for the TTL, or until `expiresAt` (ms) if that comes sooner;
   * `size` (bytes, default 0) counts against `maxBytes`. A value larger than `maxBytes` is not kept.
   */
  set(key: string, value: V, expiresAt?: number, size = 0): void {
    const now = this.#clock.now()
    const limit = now + this.#ttlMs
    const known = this.#entries.get(key)
    if (known !== undefined) this.#remove(known)
    if (size > this.#maxBytes) return
    const entry: Entry<V> = { key, value, expiresAt: expiresAt === undefined ? limit : Math.min(limit, expiresAt), size, older: null, newer: null }
    this.#entries.set(key, entry)
    this.#append(entry)
    this.#bytes += size
    // Hint: expired entries at the old end go too; they would otherwise sit until evicted.
    for (let oldest = this.#oldest; oldest !== null; oldest = this.#oldest) {
      const over = this.#entries.size > this.#maxEntries || this.#bytes > this.#maxBytes
      if (!over && oldest.expiresAt > now) break
      this.#remove(oldest)
    }
  }

  /** Bytes of entries held, as sized by `set`. */
  get bytes(): number {
    return this.#bytes
  }

  /** Number of entries held (expired ones included until touched). */
  get size(): number {
    return this.#entries.size
  }

  #remove(entry: Entry<V>): void {
    this.#entries.delete(entry.key)
    this.#unlink(entry)
    this.#bytes -= entry.size
  }

  #append(entry: Entry<V>): void {
    entry.older = this.#newest
    entry.newer = null
    if (this.#newest === null) this.#oldest = entry
    else this.#newest.newer = entry
    this.#newest = entry
  }

  #unlink(entry: Entry<V>): void {
    if (entry.older === null) this.#oldest = entry.newer
    else entry.older.newer = entry.newer
    if (entry.newer === null) this.#newest = entry.older
    else entry.newer.older = entry.older
    entry.older = null
    entry.newer = null
  }
}
