import type pg from 'pg'
import type { PoolClient, QueryResultRow } from 'pg'
import { from as copyFrom } from 'pg-copy-streams'
import { CircuitBreaker } from './circuit-breaker.ts'
import { Client, Pool } from './node-postgres.ts'
import type { Sql, SqlParam, TransactionSql } from './sql.ts'
import { MAINTENANCE_TIMEOUT_MS, queryConfig } from './sql.ts'
import { isTransientError, toStorageError } from './storage-error.ts'

/** Connection settings of a store (see `PostgresStoreOptions` for their meaning and defaults). */
export interface ConnectionSettings {
  url: string
  poolSize: number
  connectTimeoutMs: number
  statementTimeoutMs: number
}

/**
 * The node-postgres client settings of every connection a store opens: synchronous commit on
 * (a commit is durable before it is acknowledged, whatever the server's default), a statement
 * timeout on the server and a slightly longer one on the client (for a server that stopped
 * answering), a connect timeout, TCP keep-alive.
 */
export function clientConfig(settings: ConnectionSettings): pg.ClientConfig {
  return {
    connectionString: settings.url,
    connectionTimeoutMillis: settings.connectTimeoutMs,
    statement_timeout: settings.statementTimeoutMs,
    query_timeout: settings.statementTimeoutMs + 2_000,
    options: '-c synchronous_commit=on',
    application_name: 'frontdesk',
    keepAlive: true,
  }
}

/**
 * The pool of a store: every statement outside a transaction runs on any of its connections,
 * and `connect` lends one for a transaction. Transient failures (see `isTransientError`) come out
 * as `StorageUnavailableError` and the connection they broke is discarded, so the pool heals by
 * itself once the server is back.
 *
 * When a connection cannot be opened (refused, unreachable, timed out, the server shutting
 * down) or the server stops answering a statement, the database is unreachable: the
 * `CircuitBreaker` opens, and every call fails at once with `StorageUnavailableError` until one
 * of its probes reaches the database again. A wait for a connection of a full pool that times
 * out opens it too: in a partition under load the pool is full of connections waiting for
 * answers that never come; when it was only busy, the first probe closes it within a round trip.
 */
export class Database implements Sql {
  readonly #pool: pg.Pool
  readonly #guarded = new WeakSet<PoolClient>()
  readonly #breaker: CircuitBreaker
  #closed = false

  constructor(settings: ConnectionSettings) {
    this.#pool = new Pool({ ...clientConfig(settings), max: settings.poolSize, idleTimeoutMillis: 30_000 })
    // Hint: an idle connection the server ended (restart, pg_terminate_backend) is reported
    // here; without a listener it would crash the process. The pool drops it by itself.
    this.#pool.on('error', () => {})
    // Hint: a connection the server ends while it is lent out (between two statements of a
    // transaction) emits 'error', which would crash the process unheard; its next statement
    // fails instead, and the connection is discarded on release. Listened to from the moment
    // the pool lends it, in the pool's own call, before it stops listening itself: a listener
    // added once `connect()` resolved left a moment unheard, in which a connection ended by
    // `pg_terminate_backend` under load crashed a test process.
    this.#pool.on('acquire', (client: PoolClient) => {
      if (this.#guarded.has(client)) return
      client.on('error', () => {})
      this.#guarded.add(client)
    })
    this.#breaker = new CircuitBreaker(() => probe(settings))
  }

  get closed(): boolean {
    return this.#closed
  }

  async rows<R extends QueryResultRow>(text: string, params?: readonly SqlParam[]): Promise<R[]> {
    return (await this.#query<R>(text, params)).rows
  }

  async run(text: string, params?: readonly SqlParam[]): Promise<number> {
    return (await this.#query(text, params)).rowCount ?? 0
  }

  /** A connection of the pool for `work` (a transaction); released afterwards, discarded when `work` broke it. */
  async connect<T>(work: (client: PoolClient) => Promise<T>): Promise<T> {
    const client = await this.#checkout()
    let broken: Error | undefined
    try {
      return await work(client)
    } catch (error) {
      if (isTransientError(error)) broken = error instanceof Error ? error : new Error('connection broken')
      throw error
    } finally {
      client.release(broken)
    }
  }

  /**
   * A connection of the pool for opening the store (the schema check and the first state read),
   * kept in the pool afterwards, so that a short-lived process connects once. Failures come out
   * as the driver threw them, without the circuit breaker: opening words them itself.
   */
  async opening<T>(work: (client: PoolClient) => Promise<T>): Promise<T> {
    const client = await this.#pool.connect()
    let broken: Error | undefined
    try {
      return await work(client)
    } catch (error) {
      broken = error instanceof Error ? error : new Error('opening failed')
      throw error
    } finally {
      client.release(broken)
    }
  }

  /** Ends every connection. */
  async close(): Promise<void> {
    if (this.#closed) return
    this.#closed = true
    this.#breaker.stop()
    await this.#pool.end()
  }

  async #query<R extends QueryResultRow>(text: string, params?: readonly SqlParam[]): Promise<pg.QueryResult<R>> {
    const client = await this.#checkout()
    try {
      const result = await client.query<R>(queryConfig(text, params))
      client.release()
      return result
    } catch (error) {
      client.release(isTransientError(error) ? (error as Error) : undefined)
      if (isUnanswered(error)) this.#breaker.trip()
      throw toStorageError(error)
    }
  }

  async #checkout(): Promise<PoolClient> {
    if (this.#closed) throw new Error('The store is closed')
    this.#breaker.check()
    let client: PoolClient
    try {
      client = await this.#pool.connect()
    } catch (error) {
      if (isUnreachable(error)) this.#breaker.trip()
      throw toStorageError(error)
    }
    return client
  }
}

/**
 * Whether a failure to open a connection says the database cannot be reached: any transient
 * error but PostgreSQL's own "insufficient resources" (class 53, e.g. too many connections),
 * which comes from a server that answers.
 */
function isUnreachable(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code
  return isTransientError(error) && !(typeof code === 'string' && code.startsWith('53'))
}

/** Whether a statement failed because the server stopped answering (the client's read timeout). */
function isUnanswered(error: unknown): boolean {
  const message = (error as { message?: unknown } | null)?.message
  return typeof message === 'string' && /Query read timeout/i.test(message)
}

/** Opens a connection of its own, runs a statement and closes it: whether the database is reachable again. */
async function probe(settings: ConnectionSettings): Promise<void> {
  const client = new Client(clientConfig(settings))
  client.on('error', () => {})
  try {
    await client.connect()
    await client.query('SELECT 1')
  } finally {
    await client.end().catch(() => undefined)
  }
}

/** Runs one statement on a lent connection, with transient errors as `StorageUnavailableError`. */
export function clientSql(client: PoolClient): TransactionSql {
  return {
    async copy(statement: string, data: string): Promise<void> {
      try {
        await new Promise<void>((resolve, reject) => {
          const stream = client.query(copyFrom(statement))
          stream.once('finish', resolve)
          stream.once('error', reject)
          stream.end(data)
        })
      } catch (error) {
        throw toStorageError(error)
      }
    },
    async rows<R extends QueryResultRow>(text: string, params?: readonly SqlParam[]): Promise<R[]> {
      try {
        return (await client.query<R>(queryConfig(text, params))).rows
      } catch (error) {
        throw toStorageError(error)
      }
    },
    async run(text: string, params?: readonly SqlParam[]): Promise<number> {
      try {
        return (await client.query(queryConfig(text, params))).rowCount ?? 0
      } catch (error) {
        throw toStorageError(error)
      }
    },
    async maintain(text: string): Promise<void> {
      try {
        const previous = (await client.query<{ value: string }>(`SELECT current_setting('statement_timeout') AS value`)).rows[0]?.value ?? '0'
        await client.query('SET LOCAL statement_timeout = 0')
        // Hint: node-postgres reads a query's own `query_timeout` before the client's; its types do not list it.
        await client.query({ text, query_timeout: MAINTENANCE_TIMEOUT_MS } as pg.QueryConfig)
        await client.query(`SELECT set_config('statement_timeout', $1, true)`, [previous])
      } catch (error) {
        throw toStorageError(error)
      }
    },
  }
}
