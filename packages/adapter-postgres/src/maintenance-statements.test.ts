import pg from 'pg'
import * as assert from 'uvu/assert'
import { clientSql } from './connection/database.ts'
import { restoreIndexes } from './records/deferred-indexes.ts'
import { createTestDatabase, postgresSuite } from './testing/test-database.ts'

interface World {
  client: pg.Client
  drop: () => Promise<void>
}

const test = await postgresSuite<World>('postgres: statements that grow with a first import run free of the statement timeout')

test.before.each(async (world) => {
  const database = await createTestDatabase()
  world.drop = database.drop
  world.client = new pg.Client({ connectionString: database.url, statement_timeout: 100, query_timeout: 300 })
  world.client.on('error', () => {})
  await world.client.connect()
  await world.client.query('CREATE TABLE contents (id int); CREATE TABLE categories (id int); CREATE TABLE tags (id int)')
})

// Hint: `drop` is missing when the first `before.each` failed.
test.after.each(async (world) => {
  await world.client?.end().catch(() => undefined)
  await world.drop?.()
})

test('a restored index taking longer than both timeouts completes, and the timeout holds again after it', async ({ client }) => {
  const sql = clientSql(client as unknown as pg.PoolClient)
  await sql.run('BEGIN')
  // Hint: the statement stands for an index build over a large table: it outlasts the server's 100 ms and the client's 300 ms.
  await restoreIndexes(sql, { statements: ['SELECT pg_sleep(0.5)'] })
  const timedOut = await sql.run('SELECT pg_sleep(0.2)').then(() => false, () => true)
  assert.ok(timedOut, 'the statement timeout applies again after the maintenance statements')
  await client.query('ROLLBACK').catch(() => undefined)
})

test.run()
