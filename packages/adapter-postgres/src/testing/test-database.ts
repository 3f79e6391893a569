import { randomBytes } from 'node:crypto'
import pg from 'pg'
import { suite } from 'uvu'
import type { Test } from 'uvu'
import { unlessMissing } from '@frontdesk/core/testing'
import { openPostgresStore } from '../postgres-store.ts'
import type { PostgresStore, PostgresStoreOptions } from '../postgres-store.ts'

/*
 * PostgreSQL for tests: a fresh database per test on the server of FRONTDESK_TEST_PG_URL (set by
 * `npm test`, which starts a throwaway server), or, when a test file runs on its own, on a
 * throwaway server this process starts once (scripts/test-postgres.mjs of the repository; its
 * watchdog stops it when the process ends). Where no server can be had (`npm test`'s could not
 * start: FRONTDESK_TEST_PG_UNAVAILABLE says why; or this process's own could not), the
 * PostgreSQL cases are skipped with that reason (`postgresUnavailable`, `postgresSuite`).
 */

let server: Promise<string> | null = null
let counter = 0

/** The URL of the test server (a superuser on its `postgres` database). */
export function testServerUrl(): Promise<string> {
  server ??= (async () => {
    const given = process.env['FRONTDESK_TEST_PG_URL']
    if (given !== undefined && given !== '') return given
    const missing = process.env['FRONTDESK_TEST_PG_UNAVAILABLE']
    if (missing !== undefined && missing !== '') throw new Error(missing)
    // Hint: a path in a variable, so that no type checker or bundler follows it out of the package.
    const script = new URL('../../../../scripts/test-postgres.mjs', import.meta.url).href
    const { startTestPostgres } = (await import(script)) as { startTestPostgres: () => Promise<{ url: string }> }
    const started = await startTestPostgres()
    process.env['FRONTDESK_TEST_PG_URL'] = started.url
    return started.url
  })()
  return server
}

/**
 * Why the PostgreSQL tests cannot run in this process (the test server could not start), or
 * null when it answers. Asked once: every later call has the same answer.
 */
export async function postgresUnavailable(): Promise<string | null> {
  try {
    await testServerUrl()
    return null
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    return message.startsWith('PostgreSQL could not start') ? message : `PostgreSQL could not start (${message.split('\n')[0]})`
  }
}

/**
 * A uvu suite of cases that need the PostgreSQL test server: a plain one, or, when the server
 * cannot be had, one whose cases are skipped with the reason (see `unlessMissing` of
 * `@frontdesk/core/testing`).
 */
export async function postgresSuite<T>(title: string, context?: T): Promise<Test<T>> {
  return unlessMissing(suite<T>(title, context), title, await postgresUnavailable())
}

/** A new, empty database on the test server; `drop` removes it (ending its sessions). */
export async function createTestDatabase(): Promise<{ url: string; name: string; drop: () => Promise<void> }> {
  const base = await testServerUrl()
  const name = `fd_test_${process.pid}_${++counter}_${randomBytes(3).toString('hex')}`
  await admin(base, `CREATE DATABASE ${name}`)
  const url = new URL(base)
  url.pathname = `/${name}`
  return { url: url.toString(), name, drop: () => admin(base, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) }
}

/** Databases of this process that a closed test store left, emptied and ready for the next one. */
const idle: { url: string; drop: () => Promise<void> }[] = []
let dropOnExit = false

/**
 * A store over an empty database: one a finished test left (every row deleted, the state row
 * and its epoch made anew, so it is as new as a created one: creating a database costs
 * 0.1-0.7 s on a busy machine, emptying one a few ms), else a new one. `cleanup` closes the
 * store (if still open) and hands the database on; the last ones are dropped when the process
 * is about to exit.
 */
export async function openTestStore(options: Partial<PostgresStoreOptions> = {}): Promise<{ store: PostgresStore; url: string; cleanup: () => Promise<void> }> {
  const database = idle.pop() ?? (await createTestDatabase())
  if (!dropOnExit) {
    dropOnExit = true
    process.once('beforeExit', () => void Promise.all(idle.splice(0).map((d) => d.drop().catch(() => undefined))))
  }
  const store = await openPostgresStore({ ...options, url: database.url })
  return {
    store,
    url: database.url,
    cleanup: async () => {
      await store.close()
      try {
        await admin(database.url, EMPTY)
        idle.push(database)
      } catch {
        await database.drop().catch(() => undefined)
      }
    },
  }
}

// Hint: every table but the state rows', found rather than listed, so a later migration's tables are emptied too.
const EMPTY = `DO $$ DECLARE t text; BEGIN
  FOR t IN SELECT tablename FROM pg_tables WHERE schemaname = current_schema() AND tablename NOT IN ('frontdesk_state', 'event_state') LOOP
    EXECUTE format('DELETE FROM %I', t);
  END LOOP;
  UPDATE event_state SET last_seq = 0;
  UPDATE frontdesk_state SET feed_pos = 0, generation = 0, pruned_through = 0, epoch = substr(md5(random()::text || clock_timestamp()::text), 1, 12);
END $$`

/** Runs one statement as the test server's superuser. */
export async function admin(url: string, statement: string): Promise<void> {
  await adminQuery(url, statement)
}

/** Runs one statement as the test server's superuser; its rows. */
export async function adminQuery(url: string, statement: string): Promise<Record<string, unknown>[]> {
  const client = new pg.Client({ connectionString: url })
  client.on('error', () => {})
  await client.connect()
  try {
    return (await client.query(statement)).rows as Record<string, unknown>[]
  } finally {
    await client.end()
  }
}
