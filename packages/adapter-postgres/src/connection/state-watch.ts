import type pg from 'pg'
import type { ConnectionSettings } from './database.ts'
import { clientConfig } from './database.ts'
import { Client } from './node-postgres.ts'

/** The channel every committing writer notifies (see `NOTIFY_SQL`). */
export const CHANNEL = 'frontdesk_changes'

/** How long a state read stays trusted: memos and caches are used only while the last read is this recent. */
export const FRESH_MS = 1_000

/** A snapshot of `frontdesk_state`: the feed head and the generation every memoised read keys on. */
export interface StoreState {
  /** Position of the newest change of the feed. */
  feedPos: number
  /** Grows with every commit that changes anything memoised (content model, keys, tokens). */
  generation: number
}

/**
 * Keeps this process's view of `frontdesk_state` fresh, cheaply: a dedicated connection LISTENs
 * on `CHANNEL` (writers notify it when they commit) and reads the row every `pollMs` anyway, so
 * a lost notification or a writer that does not notify costs latency, never correctness (the
 * poll alone keeps every process within `pollMs` + a round trip of any commit). This process's
 * own commits are applied at once (`advance`). While the watch cannot read the row (the
 * database is down), `fresh` turns false after `FRESH_MS`, and the store stops serving memos.
 */
export class StateWatch {
  readonly #settings: ConnectionSettings
  readonly #pollMs: number
  readonly #listeners = new Set<() => void>()
  #state: StoreState
  #readAt = 0
  #client: pg.Client | null = null
  #connecting = false
  #polling = false
  #timer: NodeJS.Timeout | null = null
  #closed = false

  constructor(settings: ConnectionSettings, pollMs: number, initial: StoreState) {
    this.#settings = settings
    this.#pollMs = pollMs
    this.#state = initial
    this.#readAt = Date.now()
  }

  /**
   * Starts polling; the first poll (or the first `watch`) opens the dedicated connection. A
   * process done within a poll (one `frontdesk import`, a CLI command) never opens it, and the
   * state read at open keeps it fresh for `FRESH_MS` meanwhile.
   */
  start(): void {
    this.#timer = setInterval(() => void this.poll(), this.#pollMs)
    this.#timer.unref()
  }

  /** The newest state known. */
  get state(): StoreState {
    return this.#state
  }

  /** Whether the state was read from the database within `FRESH_MS`. */
  get fresh(): boolean {
    return Date.now() - this.#readAt < FRESH_MS
  }

  /** Applies a state this process committed (never moves backwards). */
  advance(state: StoreState): void {
    this.#apply(state)
  }

  /** Calls `listener` after the feed head moved (from any process); returns a function that stops it. */
  watch(listener: () => void): () => void {
    this.#listeners.add(listener)
    // Hint: a listener wants notifications now, not from the first poll on.
    void this.#connect()
    return () => this.#listeners.delete(listener)
  }

  /** Reads the row now (on the dedicated connection, when there is one). */
  async poll(): Promise<void> {
    const client = this.#client
    if (this.#closed || this.#polling) return
    if (client === null) {
      void this.#connect()
      return
    }
    this.#polling = true
    try {
      const { rows } = await client.query<{ feed_pos: string; generation: string }>('SELECT feed_pos, generation FROM frontdesk_state')
      const row = rows[0]
      if (row !== undefined) {
        this.#apply({ feedPos: Number(row.feed_pos), generation: Number(row.generation) })
        this.#readAt = Date.now()
      }
    } catch {
      this.#drop(client)
    } finally {
      this.#polling = false
    }
  }

  async close(): Promise<void> {
    this.#closed = true
    if (this.#timer !== null) clearInterval(this.#timer)
    const client = this.#client
    this.#client = null
    await client?.end().catch(() => undefined)
  }

  #apply(next: StoreState): void {
    const moved = next.feedPos > this.#state.feedPos
    if (next.generation > this.#state.generation || moved) {
      this.#state = { feedPos: Math.max(next.feedPos, this.#state.feedPos), generation: Math.max(next.generation, this.#state.generation) }
    }
    if (moved) {
      for (const listener of this.#listeners) {
        try {
          listener()
        } catch {
          // A listener's failure is its own; the others still hear of the change.
        }
      }
    }
  }

  async #connect(): Promise<void> {
    if (this.#closed || this.#connecting || this.#client !== null) return
    this.#connecting = true
    const client = new Client(clientConfig(this.#settings))
    client.on('error', () => this.#drop(client))
    client.on('notification', () => void this.poll())
    try {
      await client.connect()
      await client.query(`LISTEN ${CHANNEL}`)
      if (this.#closed) {
        await client.end()
        return
      }
      this.#client = client
      void this.poll()
    } catch {
      await client.end().catch(() => undefined)
    } finally {
      this.#connecting = false
    }
  }

  #drop(client: pg.Client): void {
    if (this.#client === client) this.#client = null
    void client.end().catch(() => undefined)
  }
}
