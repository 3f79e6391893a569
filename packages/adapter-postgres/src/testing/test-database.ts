import { randomBytes } from 'node:crypto'
import pg from 'pg'
import { openPostgresStore } from '../postgres-store.ts'
import type { PostgresStore, PostgresStoreOptions } from '../postgres-store.ts'

/*
 * PostgreSQL for tests: a fresh database per test on the server of FRONTDESK_TEST_PG_URL (set by
 * `npm test`, which starts a throwaway server), or, when a test file runs on its own, on a
 * throwaway server this process starts once (scripts/test-postgres.mjs of the repository; its
 * watchdog stops it when the process ends).
 */

let server: Promise<string> | null = null
let counter = 0

/** The URL of the test server (a superuser on its `postgres` database). */
export function testServerUrl(): Promise<string> {
  server ??= (async () => {
    const given = process.env['FRONTDESK_TEST_PG_URL']
    if (given !== undefined && given !== '') return given
    // Hint: a path in a variable, so that no type checker or bundler follows it out of the package.
    const script = new URL('../../../../scripts/test-postgres.mjs', import.meta.url).href
    const { startTestPostgres } = (await import(script)) as { startTestPostgres: () => Promise<{ url: string }> }
    const started = await startTestPostgres()
    process.env['FRONTDESK_TEST_PG_URL'] = started.url
    return started.url
  })()
  return server
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

/** A store over a new database; `cleanup` closes it (if still open) and drops the database. */
export async function openTestStore(options: Partial<PostgresStoreOptions> = {}): Promise<{ store: PostgresStore; url: string; cleanup: () => Promise<void> }> {
  const database = await createTestDatabase()
  const store = await openPostgresStore({ ...options, url: database.url })
  return {
    store,
    url: database.url,
    cleanup: async () => {
      await store.close()
      await database.drop()
    },
  }
}

/** Runs one statement as the test server's superuser. */
export async function admin(url: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: url })
  client.on('error', () => {})
  await client.connect()
  try {
    await client.query(statement)
  } finally {
    await client.end()
  }
}
