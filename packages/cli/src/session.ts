import type { Command } from 'commander'
import { resolve } from 'node:path'
import type { Context, Frontdesk, Store } from '@frontdesk/core'
import type { CliEnv } from './env.ts'

/** `--db` when none is given and `$FRONTDESK_DB` is unset. */
export const DEFAULT_DB = './frontdesk.db'

/** An open database and the application over it. */
export interface Session {
  /** Absolute path of the database file. */
  path: string
  /** Absolute path of the directory of the search index snapshots (see `searchDirOf`). */
  searchDir: string
  store: Store
  frontdesk: Frontdesk
  /** What the core use cases take. */
  ctx: Context
  close(): Promise<void>
}

/**
 * The database path of this invocation: the global `--db` (given before or after the
 * subcommand), else `$FRONTDESK_DB`, else `./frontdesk.db`, resolved against `env.cwd`.
 */
export function dbPathOf(command: Command, env: CliEnv): string {
  const given: unknown = command.optsWithGlobals()['db']
  const path = typeof given === 'string' && given !== '' ? given : (env.vars['FRONTDESK_DB'] || DEFAULT_DB)
  return resolve(env.cwd, path)
}

/** Where the search index snapshots of the database at `dbPath` are kept by default: `<database file>.search` beside it. */
export function defaultSearchDir(dbPath: string): string {
  return `${dbPath}.search`
}

/**
 * The search snapshot directory of this invocation: the global `--search-dir` (given before or
 * after the subcommand), else `<database file>.search`, resolved against `env.cwd`. `serve`
 * restores each tenant's search index from there, `import` writes it there.
 */
export function searchDirOf(command: Command, env: CliEnv, dbPath: string): string {
  const given: unknown = command.optsWithGlobals()['searchDir']
  return typeof given === 'string' && given !== '' ? resolve(env.cwd, given) : defaultSearchDir(dbPath)
}

/**
 * Opens the database at `path` (created and migrated on first use), its search snapshots in
 * `searchDir`. SQLite and the HTTP machinery are imported here, lazily, so that `--help` and
 * usage errors stay fast.
 */
export async function openSession(path: string, searchDir = defaultSearchDir(path)): Promise<Session> {
  const [{ openSqliteStore }, { createFrontdesk, FrontdeskError, UsageError }] = await Promise.all([
    import('@frontdesk/adapter-sqlite'),
    import('@frontdesk/core'),
  ])
  let store: Store
  try {
    store = openSqliteStore({ path })
  } catch (error) {
    // The adapter words its errors without paths (they may reach HTTP clients); the operator
    // is told which file.
    const reason = error instanceof FrontdeskError ? error.message : openFailure(error)
    throw new UsageError(`Cannot open the database ${path}: ${reason}`, { cause: error })
  }
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
