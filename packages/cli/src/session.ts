import type { Command } from 'commander'
import { accessSync, constants, existsSync, statSync } from 'node:fs'
import { basename, dirname, join, resolve } from 'node:path'
import type { Context, Frontdesk, Store } from '@frontdesk/core'
import type { CliEnv } from './env.ts'

/** `--db` when none is given and `$FRONTDESK_DB` is unset. */
export const DEFAULT_DB = './frontdesk.db'

/** An open database and the application over it. */
export interface Session {
  /** Absolute path of the database file, or the PostgreSQL URL. */
  path: string
  /** Absolute path of the directory of the search index snapshots (see `searchDirOf`). */
  searchDir: string
  store: Store
  frontdesk: Frontdesk
  /** What the core use cases take. */
  ctx: Context
  close(): Promise<void>
}

/** Whether `--db` names a PostgreSQL database (`postgres://…` or `postgresql://…`) rather than a SQLite file. */
export function isPostgresUrl(db: string): boolean {
  return /^postgres(ql)?:\/\//i.test(db)
}

/** `db` as it may be shown: a file path as is, a URL without its password. */
export function displayDb(db: string): string {
  return isPostgresUrl(db) ? db.replace(/^(postgres(?:ql)?:\/\/[^:@/]*:)[^@/]*@/i, '$1***@').replace(/([?&][^=&]*pass[^=&]*=)[^&]*/gi, '$1***') : db
}

/**
 * The database of this invocation: the global `--db` (given before or after the subcommand),
 * else `$FRONTDESK_DB`, else `./frontdesk.db`. A file path is resolved against `env.cwd`; a
 * `postgres://` URL is kept as given.
 */
export function dbPathOf(command: Command, env: CliEnv): string {
  const given: unknown = command.optsWithGlobals()['db']
  const path = typeof given === 'string' && given !== '' ? given : (env.vars['FRONTDESK_DB'] || DEFAULT_DB)
  return isPostgresUrl(path) ? path : resolve(env.cwd, path)
}

/**
 * Where the search index snapshots of a database are kept by default: `<database file>.search`
 * beside a SQLite file; for a PostgreSQL database, `.frontdesk/search-<host>-<port>-<database>`
 * in the working directory (snapshots are local to each server machine).
 */
export function defaultSearchDir(db: string, cwd: string = process.cwd()): string {
  if (!isPostgresUrl(db)) return `${db}.search`
  const url = new URL(db)
  const name = `${url.hostname || 'localhost'}-${url.port || '5432'}-${decodeURIComponent(url.pathname.slice(1)) || 'postgres'}`.replace(/[^A-Za-z0-9._-]/g, '_')
  return join(cwd, '.frontdesk', `search-${name}`)
}

/**
 * The search snapshot directory of this invocation: the global `--search-dir` (given before or
 * after the subcommand), else `<database file>.search`, resolved against `env.cwd`. `serve`
 * restores each tenant's search index from there, `import` writes it there.
 */
export function searchDirOf(command: Command, env: CliEnv, dbPath: string): string {
  const given: unknown = command.optsWithGlobals()['searchDir']
  return typeof given === 'string' && given !== '' ? resolve(env.cwd, given) : defaultSearchDir(dbPath, env.cwd)
}

/**
 * Opens the store of `db`: a SQLite file (created and migrated on first use) or a PostgreSQL
 * database (its schema created or migrated on first use). A failure is a `UsageError` naming
 * the database (never its password) and what the operator can do about it: for a file, a
 * directory that does not exist or cannot be written (SQLite keeps `-wal` and `-shm` files
 * beside the database), a read-only file, a directory given as the file, a file that is not a
 * database. Drivers are imported here, lazily, so that `--help` and usage errors stay fast.
 */
export async function openStore(db: string): Promise<Store> {
  const { FrontdeskError, UsageError } = await import('@frontdesk/core')
  const postgres = isPostgresUrl(db)
  try {
    if (postgres) {
      const { openPostgresStore } = await import('@frontdesk/adapter-postgres')
      return await openPostgresStore({ url: db })
    }
    const { openSqliteStore } = await import('@frontdesk/adapter-sqlite')
    return openSqliteStore({ path: db })
  } catch (error) {
    // The adapters word their errors without paths or URLs (they may reach HTTP clients); the
    // operator is told which database.
    const reason = (postgres ? null : fileProblem(db)) ?? (error instanceof FrontdeskError ? error.message : openFailure(error))
    throw new UsageError(`Cannot open the database ${displayDb(db)}: ${reason}`, { cause: error })
  }
}

/**
 * Opens the database at `path` (see `openStore`) and the application over it. The HTTP
 * machinery is not loaded, so that commands stay fast.
 */
export async function openSession(path: string, searchDir = defaultSearchDir(path)): Promise<Session> {
  const { createFrontdesk } = await import('@frontdesk/core')
  const store = await openStore(path)
  const frontdesk = createFrontdesk({ store })
  return { path, searchDir, store, frontdesk, ctx: frontdesk.context, close: () => store.close() }
}

/** Runs `work` with the session of this invocation's database, closing it afterwards. */
export async function withSession<T>(command: Command, env: CliEnv, work: (session: Session) => Promise<T>): Promise<T> {
  const path = dbPathOf(command, env)
  const session = await openSession(path, searchDirOf(command, env, path))
  try {
    return await work(session)
  } finally {
    await session.close()
  }
}

/** `withSession` for a commander action, which must resolve to nothing. */
export async function runWithSession(command: Command, env: CliEnv, work: (session: Session) => Promise<unknown>): Promise<void> {
  await withSession(command, env, work)
}

/**
 * What in the file system keeps this process from opening `path` read-write, or `null` when
 * nothing does (then SQLite's own error says why).
 */
function fileProblem(path: string): string | null {
  const dir = dirname(path)
  const writable = (file: string): NodeJS.ErrnoException | null => {
    try {
      accessSync(file, constants.R_OK | constants.W_OK)
      return null
    } catch (error) {
      return error as NodeJS.ErrnoException
    }
  }
  if (!existsSync(dir)) return `its directory ${dir} does not exist`
  if (existsSync(path) && statSync(path).isDirectory()) return 'it is a directory, not a file'
  const readOnly = (error: NodeJS.ErrnoException) => (error.code === 'EROFS' ? 'is on a read-only file system' : `is read-only for this user`)
  for (const file of [path, `${path}-wal`, `${path}-shm`]) {
    const error = existsSync(file) ? writable(file) : null
    if (error !== null) return `${file} ${readOnly(error)} (frontdesk writes to the database, its -wal and its -shm file, even to read)`
  }
  const dirError = writable(dir)
  if (dirError !== null) {
    return `its directory ${dir} ${dirError.code === 'EROFS' ? 'is on a read-only file system' : 'is not writable for this user'} (SQLite creates ${basename(path)}-wal and ${basename(path)}-shm beside the database)`
  }
  return null
}

/** Why SQLite could not open a file, in words an operator can act on. */
function openFailure(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code
  switch (code) {
    case 'SQLITE_CANTOPEN':
      return 'unable to open the file (is it a directory, or is its directory missing or not writable?)'
    case 'SQLITE_NOTADB':
      return 'not a SQLite database'
    case 'SQLITE_CORRUPT':
      return 'the database file is corrupt'
    case 'SQLITE_READONLY':
    case 'SQLITE_READONLY_DIRECTORY':
    case 'SQLITE_READONLY_DBMOVED':
    case 'SQLITE_PERM':
    case 'EACCES':
      return 'permission denied'
    case 'SQLITE_BUSY':
    case 'SQLITE_LOCKED':
      return 'locked by another process; try again'
    default:
      // Hint: better-sqlite3 throws a plain TypeError when the directory does not exist.
      return error instanceof Error && error.message !== '' ? error.message.replace(/\s+/g, ' ') : 'unexpected error'
  }
}
