import type { Connection } from './statement-cache.ts'
import { dataVersionOf } from './data-version-watch.ts'

/** Most entries one space keeps; past it the space starts over (a guard, not an LRU). */
const MAX_ENTRIES = 10_000

/**
 * Reads of one connection kept until the database changes. SQLite's `PRAGMA data_version`
 * changes whenever another connection (of this process, such as the store's writer, or of any
 * other process) commits, so a value read before that commit is never returned after it:
 * disabling a key or editing a category takes effect on the next read of this process's own
 * commits, and within 1 ms for another process's (see `dataVersionOf`). Values
 * are deep-frozen, since every caller gets the same object.
 */
export class DataVersionMemo implements ReadMemo {
  readonly remembers = true
  readonly #conn: Connection
  readonly #spaces = new Map<string, Map<string, unknown>>()
  #version = -1

  constructor(conn: Connection) {
    this.#conn = conn
  }

  /** The value of `key` in `space`, loaded (and frozen) on the first read since the last commit. */
  get<T>(space: string, key: string, load: () => T): T {
    const version = dataVersionOf(this.#conn)
    if (version !== this.#version) {
      this.#spaces.clear()
      this.#version = version
    }
    let entries = this.#spaces.get(space)
    if (entries === undefined) {
      entries = new Map()
      this.#spaces.set(space, entries)
    }
    if (entries.has(key)) return entries.get(key) as T
    const value = deepFreeze(load())
    if (entries.size >= MAX_ENTRIES) entries.clear()
    entries.set(key, value)
    return value
  }
}

/** Where reads of one connection are remembered (`DataVersionMemo` on the reader), or not (`READ_AFRESH`). */
export interface ReadMemo {
  /** Whether it remembers anything (a value loaded once may then be filled in place, e.g. a table of tags read so far). */
  readonly remembers: boolean
  /** The value of `key` in `space`: remembered, or `load()`ed. */
  get<T>(space: string, key: string, load: () => T): T
}

/**
 * Remembers nothing: every read loads. For a transaction (its writer's own commits leave its
 * `data_version` as it is) and for a store with its memos switched off.
 */
export const READ_AFRESH: ReadMemo = { remembers: false, get: (_space, _key, load) => load() }

function deepFreeze<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value
  Object.freeze(value)
  for (const inner of Object.values(value)) deepFreeze(inner)
  return value
}
