import type { StateWatch } from './state-watch.ts'

/** Entries kept at most; past that the memo starts again empty. */
const MAX_ENTRIES = 10_000

/**
 * Values read from the database (keys by hash, categories), kept while the store's generation
 * stays the same: any process that changes them moves the generation in the same commit (see
 * `BUMP_GENERATION`, `ChangeSet`), this process learns of it at once for its own commits and
 * within a poll for the others' (`StateWatch`). While the watch is not fresh (it cannot read the
 * database), nothing is served from memory. `null` (not found) is never kept, so a key created
 * elsewhere works at once. Values are frozen: every caller shares them. With `remembers`
 * false, every read loads.
 */
export class GenerationMemo {
  readonly #watch: StateWatch
  #generation = -1
  readonly #spaces = new Map<string, Map<string, unknown>>()
  #size = 0
  readonly #remembers: boolean

  constructor(watch: StateWatch, remembers = true) {
    this.#watch = watch
    this.#remembers = remembers
  }

  async get<T>(space: string, key: string, load: () => Promise<T | null>): Promise<T | null> {
    if (!this.#remembers || !this.#watch.fresh) return load()
    const generation = this.#watch.state.generation
    if (generation !== this.#generation || this.#size >= MAX_ENTRIES) {
      this.#spaces.clear()
      this.#size = 0
      this.#generation = generation
    }
    const entries = this.#spaces.get(space)
    if (entries?.has(key) === true) return entries.get(key) as T
    const value = await load()
    // Hint: a commit applied while loading (this process's own, above all) may have changed the
    // value after the read: read it again, so that no caller acts on what was just overwritten.
    if (this.#watch.state.generation !== generation) return load()
    // Only a value of the current generation is kept.
    if (value !== null && this.#watch.state.generation === generation && this.#generation === generation) {
      let map = this.#spaces.get(space)
      if (map === undefined) this.#spaces.set(space, (map = new Map()))
      map.set(key, deepFreeze(value))
      this.#size++
    }
    return value
  }
}

function deepFreeze<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value
  Object.freeze(value)
  for (const inner of Object.values(value)) deepFreeze(inner)
  return value
}
