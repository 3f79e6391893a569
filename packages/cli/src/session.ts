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

/**
 * Opens the database at `path` (created and migrated on first use). SQLite and the HTTP
 * machinery are imported here, lazily, so that `--help` and usage errors stay fast.
 */
export async function openSession(path: string): Promise<Session> {
  const [{ openSqliteStore }, { createFrontdesk }] = await Promise.all([
    import('@frontdesk/adapter-sqlite'),
    import('@frontdesk/core'),
  ])
  const store = openSqliteStore({ path })
  const frontdesk = createFrontdesk({ store })
  return { path, store, frontdesk, ctx: frontdesk.context, close: () => store.close() }
}

/** Runs `work` with the session of this invocation's database, closing it afterwards. */
export async function withSession<T>(command: Command, env: CliEnv, work: (session: Session) => Promise<T>): Promise<T> {
  const session = await openSession(dbPathOf(command, env))
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
