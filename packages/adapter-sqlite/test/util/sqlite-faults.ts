import Database from 'better-sqlite3'
import type { Statement } from 'better-sqlite3'
import { resolve } from 'node:path'

/** Driver error codes `SqliteFaults` can inject (what better-sqlite3 throws for a locked, full or failing disk). */
export type SqliteFaultCode = 'SQLITE_BUSY' | 'SQLITE_LOCKED' | 'SQLITE_FULL' | 'SQLITE_IOERR' | 'SQLITE_IOERR_WRITE' | 'SQLITE_CORRUPT'

/** Which statements a fault hits. */
export interface SqliteFaultOptions {
  /** Only statements that return no rows (writes, `BEGIN`, `COMMIT`). Default: every statement. */
  writesOnly?: boolean
  /** Let this many matching statements pass before the first fault. Default 0. */
  skip?: number
}

const MESSAGES: Record<string, string> = {
  SQLITE_BUSY: 'database is locked',
  SQLITE_LOCKED: 'database table is locked',
  SQLITE_FULL: 'database or disk is full',
  SQLITE_IOERR: 'disk I/O error',
  SQLITE_IOERR_WRITE: 'disk I/O error',
  SQLITE_CORRUPT: 'database disk image is malformed',
}

const METHODS = ['run', 'get', 'all', 'iterate'] as const
type Method = (typeof METHODS)[number]
type StatementMethod = (this: Statement, ...args: unknown[]) => unknown

interface Armed {
  path: string
  code: SqliteFaultCode
  left: number
  skip: number
  writesOnly: boolean
  onInject: () => void
}

let installed: Map<Method, StatementMethod> | null = null
const plans = new Set<Armed>()

/**
 * Fault injection for tests: makes the next statements run on one database file throw the
 * driver's own `SqliteError` with a chosen code, as a full disk, a failing disk or another
 * process's lock would. It hooks better-sqlite3's `Statement` methods, so the whole adapter
 * (busy retries, error mapping, rollbacks) runs as it would against a real fault. The
 * injected message names the file and some SQL on purpose: neither may reach a client.
 *
 * Not for production: `install()` patches the driver for the whole process until every
 * instance is `uninstall()`ed (disarmed instances cost one set lookup per statement).
 */
export class SqliteFaults {
  readonly #path: string
  readonly #armed = new Set<Armed>()
  #injected = 0

  private constructor(path: string) {
    this.#path = resolve(path)
  }

  /** Hooks the driver (once per process) and returns the faults of the database at `path`. */
  static install(path: string): SqliteFaults {
    if (installed === null) installed = patchStatements()
    return new SqliteFaults(path)
  }

  /** Makes the next `count` matching statements on this database (`PRAGMA`s aside) throw `code`; `Infinity` until `clear()`. */
  failNext(code: SqliteFaultCode, count: number, options: SqliteFaultOptions = {}): void {
    const armed: Armed = {
      path: this.#path,
      code,
      left: Math.max(0, Math.floor(count)),
      skip: Math.max(0, Math.floor(options.skip ?? 0)),
      writesOnly: options.writesOnly === true,
      onInject: () => void this.#injected++,
    }
    this.#armed.add(armed)
    plans.add(armed)
  }

  /** Disarms the faults not yet thrown. */
  clear(): void {
    for (const armed of this.#armed) plans.delete(armed)
    this.#armed.clear()
  }

  /** Faults armed but not yet thrown. */
  get pending(): number {
    let left = 0
    for (const armed of this.#armed) left += armed.left
    return left
  }

  /** Faults thrown so far. */
  get injected(): number {
    return this.#injected
  }

  /** Disarms this instance's faults; the driver is restored once no instance has any left. */
  uninstall(): void {
    for (const armed of this.#armed) {
      plans.delete(armed)
    }
    this.#armed.clear()
    if (plans.size === 0 && installed !== null) {
      const prototype = statementPrototype()
      for (const [name, original] of installed) (prototype as unknown as Record<Method, StatementMethod>)[name] = original
      installed = null
    }
  }
}

function statementPrototype(): object {
  const probe = new Database(':memory:')
  try {
    return Object.getPrototypeOf(probe.prepare('SELECT 1')) as object
  } finally {
    probe.close()
  }
}

function patchStatements(): Map<Method, StatementMethod> {
  const prototype = statementPrototype() as unknown as Record<Method, StatementMethod>
  const originals = new Map<Method, StatementMethod>()
  for (const name of METHODS) {
    const original = prototype[name]
    originals.set(name, original)
    prototype[name] = function (this: Statement, ...args: unknown[]): unknown {
      if (plans.size > 0) maybeFail(this)
      return original.apply(this, args)
    }
  }
  return originals
}

function maybeFail(statement: Statement): void {
  const path = resolve(statement.database.name)
  for (const armed of plans) {
    if (armed.left <= 0 || armed.path !== path || (armed.writesOnly && statement.reader)) continue
    // Hint: pragmas only set connection state here; a disk fault strikes statements that touch pages.
    if (/^\s*PRAGMA/i.test(statement.source)) continue
    if (armed.skip > 0) {
      armed.skip--
      continue
    }
    armed.left--
    armed.onInject()
    const message = `${MESSAGES[armed.code] ?? 'error'} (${path}: ${statement.source.slice(0, 60)})`
    throw new Database.SqliteError(message, armed.code)
  }
}
