// Test helper (not a test): a temp directory with a database path, and `run(...)`, which runs
// the CLI in-process through `main` with captured output.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { suite } from 'uvu'
import type { Test } from 'uvu'
import type { CliEnv } from '../../src/env.ts'
import { bufferOutput } from '../../src/env.ts'
import { main } from '../../src/main.ts'
import type { Session } from '../../src/session.ts'
import { defaultSearchDir, openSession } from '../../src/session.ts'

/** What one in-process run printed and returned. */
export interface RunResult {
  code: number
  stdout: string
  stderr: string
}

/** The stores the behaviour tests run on. */
export type TestStoreKind = 'sqlite' | 'postgres'

/**
 * The store a test module runs on: `postgres` when it was imported with `?store=postgres`
 * (`on-postgres.test.ts` imports the behaviour tests once more that way), else `sqlite`.
 */
export function storeOf(moduleUrl: string): TestStoreKind {
  return new URL(moduleUrl).searchParams.get('store') === 'postgres' ? 'postgres' : 'sqlite'
}

/** A suite title for a test module: `title` on SQLite, `title (PostgreSQL)` on PostgreSQL. */
export function titled(title: string, moduleUrl: string): string {
  return storeOf(moduleUrl) === 'postgres' ? `${title} (PostgreSQL)` : title
}

/**
 * The uvu suite of a behaviour test module, titled as `titled` does. On PostgreSQL, when the
 * test server cannot be had, its cases are skipped with the reason (see `postgresSuite`).
 */
export async function behaviourSuite<T>(title: string, moduleUrl: string, context?: T): Promise<Test<T>> {
  const name = titled(title, moduleUrl)
  if (storeOf(moduleUrl) === 'sqlite') return suite<T>(name, context)
  const { postgresSuite } = await import('@frontdesk/adapter-postgres/testing')
  return postgresSuite<T>(name, context)
}

/**
 * `cliFixture` on the store of the test module (see `storeOf`): a SQLite file in the temp
 * dir, or a new PostgreSQL database (dropped by `cleanup`).
 */
export async function cliFixtureFor(moduleUrl: string): Promise<ReturnType<typeof cliFixture>> {
  if (storeOf(moduleUrl) === 'sqlite') return cliFixture()
  const { createTestDatabase } = await import('@frontdesk/adapter-postgres/testing')
  const database = await createTestDatabase()
  return cliFixture(database.url, database.drop)
}

/** A temp dir with `db` inside (or the database `db` given); `run` passes `--db` unless `noDb`. */
export function cliFixture(given?: string, drop?: () => Promise<void>) {
  const dir = mkdtempSync(join(tmpdir(), 'frontdesk-cli-'))
  const db = given ?? join(dir, 'frontdesk.db')
  const env = (stdin = '', vars: Record<string, string> = {}, tty = false): CliEnv & { stdout: { text(): string }; stderr: { text(): string } } => ({
    stdout: bufferOutput(tty),
    stderr: bufferOutput(tty),
    stdin: Readable.from([Buffer.from(stdin)]),
    vars,
    cwd: dir,
  })
  const detachedRuns: Promise<number>[] = []
  return {
    dir,
    db,
    /** Where the CLI keeps the search snapshots of \`db\` by default (\`--search-dir\` not given). */
    searchDir: defaultSearchDir(db, dir),
    env,
    /**
     * Runs `frontdesk --db <db> ...args` in-process. With `detach`, what the command would start
     * in a process of its own (`CliEnv.detach`) runs in this one, unawaited (see `settle`).
     */
    async run(args: string[], options: { stdin?: string; vars?: Record<string, string>; noDb?: boolean; tty?: boolean; detach?: boolean } = {}): Promise<RunResult> {
      const e: CliEnv & { stdout: { text(): string }; stderr: { text(): string } } = env(options.stdin ?? '', options.vars ?? {}, options.tty ?? false)
      if (options.detach === true) {
        e.detach = (detached, vars) => {
          detachedRuns.push(main(['node', 'frontdesk', ...detached], env('', { ...options.vars, ...vars })))
          return process.pid
        }
      }
      const code = await main(['node', 'frontdesk', ...(options.noDb ? [] : ['--db', db]), ...args], e)
      return { code, stdout: e.stdout.text(), stderr: e.stderr.text() }
    },
    /** Waits for what commands run with `detach` started; the exit codes it had. */
    settle: async (): Promise<number[]> => Promise.all(detachedRuns.splice(0)),
    /** Opens the fixture's database (close it after use). */
    session: (): Promise<Session> => openSession(db),
    /** Removes the temp dir (and drops a PostgreSQL database). */
    cleanup: async (): Promise<void> => {
      rmSync(dir, { recursive: true, force: true })
      await drop?.()
    },
  }
}
