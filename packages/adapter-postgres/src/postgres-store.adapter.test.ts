import { execFile } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import pg from 'pg'
import * as assert from 'uvu/assert'
import { StorageUnavailableError, UsageError } from '@frontdesk/core'
import { aCategory, aContent, anApiKey, anInquiry, aPreviewToken, aTenant, at } from '@frontdesk/core/testing'
import { redactUrl } from './connection/storage-error.ts'
import { migrate, schemaVersion, SCHEMA_VERSION } from './migrations/migrate.ts'
import { openPostgresStore } from './postgres-store.ts'
import { admin, adminQuery, createTestDatabase, openTestStore, postgresSuite, testServerUrl } from './testing/test-database.ts'

const run = promisify(execFile)
const child = fileURLToPath(new URL('../test/util/open-store.child.ts', import.meta.url))
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Polls `check` until it holds or `ms` passed; the time it took. */
async function within(ms: number, check: () => Promise<boolean>): Promise<number> {
  const start = Date.now()
  for (;;) {
    if (await check()) return Date.now() - start
    if (Date.now() - start > ms) throw new Error(`not within ${ms} ms`)
    await sleep(10)
  }
}

const migrations = await postgresSuite('postgres: migrations')

migrations('two processes opening a new database at once both succeed, and the schema is made once', async () => {
  const database = await createTestDatabase()
  try {
    const open = () => run(process.execPath, ['--conditions=source', '--import', 'tsx', child, database.url], { timeout: 60_000 })
    const results = await Promise.all([open(), open(), open()])
    for (const result of results) assert.is(result.stdout, 'open\n')
    const client = new pg.Client(database.url)
    client.on('error', () => {})
    await client.connect()
    assert.is(await schemaVersion(client), SCHEMA_VERSION)
    assert.is((await client.query('SELECT count(*)::int AS n FROM frontdesk_state')).rows[0].n, 1)
    await client.end()
  } finally {
    await database.drop()
  }
})

migrations('a database newer than this code is refused with a clear error, and left as it was', async () => {
  const { store, url, cleanup } = await openTestStore()
  await store.close()
  await admin(url, `UPDATE frontdesk_state SET schema_version = ${SCHEMA_VERSION + 1}`)
  const error = await openPostgresStore({ url }).catch((caught: unknown) => caught)
  assert.instance(error, UsageError)
  assert.match((error as Error).message, /newer than this frontdesk knows/)
  await admin(url, `UPDATE frontdesk_state SET schema_version = ${SCHEMA_VERSION}`)
  await cleanup()
})

migrations('a database of schema version 2 is migrated on open, its items kept: the category index then carries field values and tag ids (v3)', async () => {
  const database = await createTestDatabase()
  const client = new pg.Client(database.url)
  // Hint: dropping the database ends this connection; an 'error' without a listener would end the test process.
  client.on('error', () => {})
  try {
    await client.connect()
    await migrate(client, 2)
    await client.query(`INSERT INTO tenants (id, code, name, created_at) VALUES ('ten_1', 'acme', 'Acme', '${at(0)}')`)
    await client.query(`INSERT INTO categories VALUES ('ten_1', 'cat_1', 'news', 'News', '', 0, true, '[]', '${at(0)}', '${at(0)}')`)
    await client.query(`INSERT INTO contents VALUES ('ten_1', 'cnt_1', 'a', 'A', 'cat_1', 'published', '${at(0)}', '', '', '', '{}', 1, '${at(0)}', '${at(0)}', '{}', '{"fld_n": 3}')`)
    const store = await openPostgresStore({ url: database.url })
    try {
      assert.is((await store.getContent('ten_1', 'cnt_1'))?.fields['fld_n'], 3)
    } finally {
      await store.close()
    }
    assert.is(await schemaVersion(client), SCHEMA_VERSION)
    const index = (await client.query(`SELECT indexdef FROM pg_indexes WHERE indexname = 'contents_by_category'`)).rows[0].indexdef as string
    assert.match(index, /\(tenant_id, category_id, status, published_at, id\) INCLUDE \(fields, tag_ids\)/)
  } finally {
    await client.end().catch(() => undefined)
    await database.drop()
  }
})

migrations.run()

const opening = await postgresSuite('postgres: opening')

opening('a wrong password is a usage error that never shows the password', async () => {
  const url = new URL(await testServerUrl())
  url.password = 'not-the-Secret-123'
  const error = await openPostgresStore({ url: url.toString() }).catch((caught: unknown) => caught)
  assert.instance(error, UsageError)
  assert.not.match(String((error as Error).message), 'not-the-Secret-123')
  assert.match((error as Error).message, /refused the login/)
})

opening('an unreachable server is StorageUnavailableError within the connect timeout', async () => {
  // Hint: a port nothing listens on (the test server's, plus one, is free for all we know; 1 is never ours).
  const url = new URL(await testServerUrl())
  url.port = '1'
  const started = Date.now()
  const error = await openPostgresStore({ url: url.toString(), connectTimeoutMs: 2000 }).catch((caught: unknown) => caught)
  assert.instance(error, StorageUnavailableError)
  assert.ok(Date.now() - started < 3000)
  assert.not.match(String((error as Error).message), url.password)
})

opening('a store opened on an up-to-date database holds one connection, its open’s, until its state watch polls or a listener wants changes', async () => {
  const { store, url, cleanup } = await openTestStore()
  await store.close()
  const name = new URL(url).pathname.slice(1)
  const connections = async () => Number((await adminQuery(url, `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = '${name}' AND application_name = 'frontdesk'`))[0]?.['n'])
  const reopened = await openPostgresStore({ url, pollIntervalMs: 60_000 })
  try {
    assert.is(await reopened.getTenantByCode('none'), null)
    // Hint: time for a connection opened meanwhile to show (one that closed to be gone).
    await sleep(300)
    assert.is(await connections(), 1)
    const stop = reopened.watchChanges(() => {})
    await within(5000, async () => (await connections()) === 2)
    stop()
  } finally {
    await reopened.close()
    await cleanup()
  }
})

opening('redactUrl hides the password of a URL', () => {
  assert.is(redactUrl('postgres://fd:s3cret@db.example:5432/frontdesk?sslmode=require'), 'postgres://fd:***@db.example:5432/frontdesk?sslmode=require')
  assert.is(redactUrl('postgresql://db.example/frontdesk?password=s3cret'), 'postgresql://db.example/frontdesk?password=***')
  assert.is(redactUrl('postgres://fd@db.example/frontdesk'), 'postgres://fd@db.example/frontdesk')
})

opening.run()

const freshness = await postgresSuite('postgres: freshness across processes')

freshness('another process’s commits reach feedPosition, revision, categories and watchChanges within 1 s', async () => {
  const { store, url, cleanup } = await openTestStore()
  const other = await openPostgresStore({ url })
  try {
    await store.createTenant(aTenant('ten_a'))
    const before = await other.feedPosition()
    const revision = await other.revision('ten_a')
    assert.equal(await other.listCategories('ten_a'), [])
    let woken = 0
    const stop = other.watchChanges(() => woken++)
    await store.transaction((tx) => tx.putCategory(aCategory('ten_a', 'cat_1')))
    const ms = await within(1000, async () => (await other.feedPosition()) !== before && woken > 0)
    assert.is(await other.feedPosition(), await store.feedPosition())
    assert.is.not(await other.revision('ten_a'), revision)
    assert.is((await other.listCategories('ten_a')).length, 1)
    assert.ok(woken > 0, 'the listener was called')
    assert.ok(ms < 1000, `seen after ${ms} ms`)
    stop()
  } finally {
    await other.close()
    await cleanup()
  }
})

freshness('a key disabled or deleted, and a token revoked, by another process are refused within 1 s', async () => {
  const { store, url, cleanup } = await openTestStore()
  const other = await openPostgresStore({ url })
  try {
    await store.createTenant(aTenant('ten_a'))
    await store.createApiKey(anApiKey('ten_a', 'key_1'))
    await store.createApiKey(anApiKey('ten_a', 'key_2'))
    await store.createPreviewToken(aPreviewToken('ten_a', 'prv_1'))
    // Memoised in the other process first.
    assert.is((await other.findApiKeyByHash('hash-key_1'))?.key.disabled_at, null)
    assert.ok(await other.findApiKeyByHash('hash-key_2'))
    await store.updateApiKey('key_1', { disabled_at: at(1) })
    await store.deleteApiKey('key_2')
    await store.revokePreviewToken('prv_1', at(1))
    await within(1000, async () => (await other.findApiKeyByHash('hash-key_1'))?.key.disabled_at === at(1))
    await within(1000, async () => (await other.findApiKeyByHash('hash-key_2')) === null)
    assert.is((await other.findPreviewTokenByHash('phash-prv_1'))?.revoked_at, at(1))
  } finally {
    await other.close()
    await cleanup()
  }
})

freshness('this process sees its own writes at once', async () => {
  const { store, cleanup } = await openTestStore({ pollIntervalMs: 60_000 })
  try {
    await store.createTenant(aTenant('ten_a'))
    await store.createApiKey(anApiKey('ten_a', 'key_1'))
    assert.ok(await store.findApiKeyByHash('hash-key_1'))
    await store.updateApiKey('key_1', { disabled_at: at(1) })
    assert.is((await store.findApiKeyByHash('hash-key_1'))?.key.disabled_at, at(1))
    const revision = await store.revision('ten_a')
    await store.transaction((tx) => tx.putCategory(aCategory('ten_a', 'cat_1')))
    assert.is.not(await store.revision('ten_a'), revision)
    assert.is((await store.listCategories('ten_a')).length, 1)
  } finally {
    await cleanup()
  }
})

freshness.run()

const writes = await postgresSuite('postgres: group commit and batches')

writes('concurrent inquiries are committed in groups; a duplicate id is refused alone', async () => {
  const { store, url, cleanup } = await openTestStore()
  try {
    await store.createTenant(aTenant('ten_a'))
    await store.insertInquiry(anInquiry('ten_a', 'inq_dup'))
    const ids = Array.from({ length: 300 }, (_, i) => `inq_${String(i).padStart(3, '0')}`)
    const results = await Promise.allSettled([...ids.map((id) => store.insertInquiry(anInquiry('ten_a', id))), store.insertInquiry(anInquiry('ten_a', 'inq_dup'))])
    assert.is(results.filter((r) => r.status === 'fulfilled').length, 300)
    assert.is(results[300]?.status, 'rejected')
    const client = new pg.Client(url)
    client.on('error', () => {})
    await client.connect()
    assert.is((await client.query('SELECT count(*)::int AS n FROM inquiries')).rows[0].n, 301)
    await client.end()
  } finally {
    await cleanup()
  }
})

writes('a transaction of many items writes them in batches and reads its own writes', async () => {
  const { store, cleanup } = await openTestStore()
  try {
    await store.createTenant(aTenant('ten_a'))
    await store.transaction(async (tx) => {
      await tx.putCategory(aCategory('ten_a', 'cat_1'))
      for (let i = 0; i < 2500; i++) {
        const id = `cnt_${String(i).padStart(4, '0')}`
        assert.is(await tx.getContent('ten_a', id), null)
        await tx.putContent(aContent('ten_a', id, 'cat_1'))
      }
      assert.is((await tx.getContentBySlug('ten_a', 'slug-cnt_2499'))?.id, 'cnt_2499')
      assert.is((await tx.getContent('ten_a', 'cnt_0007'))?.id, 'cnt_0007')
      // An item given a new slug is no longer found by its old one, before and after its batch is written.
      await tx.putContent(aContent('ten_a', 'cnt_0007', 'cat_1', { slug: 'renamed' }))
      assert.is(await tx.getContentBySlug('ten_a', 'slug-cnt_0007'), null)
      assert.is((await tx.getContentBySlug('ten_a', 'renamed'))?.id, 'cnt_0007')
      assert.is(await tx.deleteContent('ten_a', 'cnt_0008'), true)
      assert.is(await tx.getContent('ten_a', 'cnt_0008'), null)
    })
    assert.is(await store.countItems('ten_a'), 2499)
    assert.is((await store.getContentBySlug('ten_a', 'renamed'))?.id, 'cnt_0007')
  } finally {
    await cleanup()
  }
})

writes.run()

const faults = await postgresSuite('postgres: faults')

faults('connections ended by the server: calls fail with StorageUnavailableError, never hang, and the store recovers by itself', async () => {
  const { store, url, cleanup } = await openTestStore({ statementTimeoutMs: 3000 })
  const name = new URL(url).pathname.slice(1)
  try {
    await store.createTenant(aTenant('ten_a'))
    // Hint: a connection ended while idle in the pool fails the next call on it.
    await admin(await testServerUrl(), `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '${name}' AND pid <> pg_backend_pid()`)
    const outcomes = await Promise.allSettled(Array.from({ length: 20 }, () => store.getTenant('ten_a')))
    for (const outcome of outcomes) {
      if (outcome.status === 'rejected') assert.instance(outcome.reason, StorageUnavailableError)
    }
    await within(5000, async () => (await store.getTenant('ten_a').catch(() => null)) !== null)
    await store.insertInquiry(anInquiry('ten_a', 'inq_after'))
    assert.ok(await store.getInquiry('ten_a', 'inq_after'))
  } finally {
    await cleanup()
  }
})

faults('a statement that runs past the statement timeout fails with StorageUnavailableError', async () => {
  const { store, url, cleanup } = await openTestStore({ statementTimeoutMs: 500 })
  try {
    await store.createTenant(aTenant('ten_a'))
    // Another session holds the writer lock: a content transaction waits for it, then gives up.
    const holder = new pg.Client(url)
    holder.on('error', () => {})
    await holder.connect()
    await holder.query('BEGIN')
    await holder.query("UPDATE tenants SET name = 'held' WHERE id = 'ten_a'")
    const started = Date.now()
    const error = await store.transaction((tx) => tx.putCategory(aCategory('ten_a', 'cat_1'))).catch((caught: unknown) => caught)
    assert.instance(error, StorageUnavailableError)
    assert.ok(Date.now() - started < 3000, 'no hang')
    await holder.query('ROLLBACK')
    await holder.end()
    await store.transaction((tx) => tx.putCategory(aCategory('ten_a', 'cat_1')))
  } finally {
    await cleanup()
  }
})

faults.run()

const settings = await postgresSuite('postgres: settings in the URL')

settings('pool_size, connect_timeout and statement_timeout in the URL are used, and pg ignores them', async () => {
  const database = await createTestDatabase()
  try {
    const url = `${database.url}?pool_size=2&connect_timeout=3&statement_timeout=700`
    const store = await openPostgresStore({ url })
    await store.createTenant(aTenant('ten_a'))
    const holder = new pg.Client(database.url)
    holder.on('error', () => {})
    await holder.connect()
    await holder.query('BEGIN')
    await holder.query("UPDATE tenants SET name = 'held' WHERE id = 'ten_a'")
    const started = Date.now()
    const error = await store.transaction((tx) => tx.putCategory(aCategory('ten_a', 'cat_1'))).catch((caught: unknown) => caught)
    const took = Date.now() - started
    await holder.query('ROLLBACK')
    await holder.end()
    await store.close()
    assert.instance(error, StorageUnavailableError)
    assert.ok(took < 3000, `the statement timeout of the URL applied (${took} ms)`)
  } finally {
    await database.drop()
  }
})

settings.run()
