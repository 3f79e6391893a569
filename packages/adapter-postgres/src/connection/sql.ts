import type { QueryResultRow } from 'pg'

/** One parameter of a statement (arrays for `unnest`/`ANY`). */
export type SqlParam = string | number | boolean | null | readonly (string | number | boolean | null)[]

/** Something statements run on: the pool (each on any connection) or one transaction's connection. */
export interface Sql {
  /** The rows of `text` with `$1…` bound to `params`. */
  rows<R extends QueryResultRow>(text: string, params?: readonly SqlParam[]): Promise<R[]>
  /** How many rows `text` wrote. */
  run(text: string, params?: readonly SqlParam[]): Promise<number>
}

/** The statements of one transaction's connection: those of `Sql`, and COPY FROM STDIN. */
export interface TransactionSql extends Sql {
  /** Runs `statement` (a `COPY … FROM STDIN` in text format) with `data` as its input. */
  copy(statement: string, data: string): Promise<void>
  /**
   * Runs `text`, a statement whose time grows with a whole table (building an index of a first
   * import), free of the statement timeout that bounds every other statement: the client waits
   * for its answer up to `MAINTENANCE_TIMEOUT_MS`, and only a server that stopped answering
   * outlasts that.
   */
  maintain(text: string): Promise<void>
}

/** How long the client waits for a `maintain` statement. */
export const MAINTENANCE_TIMEOUT_MS = 60 * 60_000

const names = new Map<string, string>()
/** At most this many distinct statements are prepared on each connection (the rest run unnamed). */
const MAX_NAMED = 500

/**
 * The query config of `text`: statements of fixed text get a name, so each connection parses
 * and plans them once; texts built per query beyond `MAX_NAMED` run unnamed, so that a
 * connection's prepared statements stay bounded.
 */
export function queryConfig(text: string, params: readonly SqlParam[] | undefined): { text: string; values: unknown[]; name?: string } {
  let name = names.get(text)
  if (name === undefined && names.size < MAX_NAMED) {
    name = `fd${names.size}`
    names.set(text, name)
  }
  return name === undefined ? { text, values: (params ?? []) as unknown[] } : { name, text, values: (params ?? []) as unknown[] }
}
