import pg from 'pg'
import * as assert from 'uvu/assert'
import type { ContentRecord } from '@frontdesk/core'
import { aCategory, aContent, aTag, aTenant } from '@frontdesk/core/testing'
import { admin, openTestStore, postgresSuite } from './testing/test-database.ts'
import type { PostgresStore } from './postgres-store.ts'
import { openPostgresStore } from './postgres-store.ts'

interface World {
  store: PostgresStore
  url: string
  cleanup: () => Promise<void>
  tenantId: string
}

const test = await postgresSuite<World>('postgres: a first import in bulk (secondary indexes built once, new items by COPY)')

test.before.each(async (world) => {
  const opened = await openTestStore()
  world.store = opened.store
  world.url = opened.url
  world.cleanup = opened.cleanup
  const tenant = aTenant('ten_bulk')
  await world.store.createTenant(tenant)
  world.tenantId = tenant.id
  await world.store.transaction((tx) => tx.putCategory(aCategory(tenant.id, 'cat_1')))
})

// Hint: `cleanup` is missing when the first `before.each` failed.
test.after.each((world) => world.cleanup?.())

/** Runs `query` on a connection of its own (another session), as another process would. */
async function elsewhere<R extends pg.QueryResultRow>(url: string, query: string): Promise<R[]> {
  const client = new pg.Client({ connectionString: url })
  client.on('error', () => {})
  await client.connect()
  try {
    return (await client.query<R>(query)).rows
  } finally {
    await client.end()
  }
}

const indexNames = async (url: string): Promise<string[]> =>
  (await elsewhere<{ indexname: string }>(url, `SELECT indexname FROM pg_indexes WHERE tablename = 'contents' ORDER BY indexname`)).map((row) => row.indexname)

/** Whether a session holds the ACCESS EXCLUSIVE lock of `contents` (what dropping its indexes takes). */
const tableLocked = async (url: string): Promise<boolean> =>
  (await elsewhere(url, `SELECT 1 FROM pg_locks l JOIN pg_class c ON c.oid = l.relation WHERE c.relname = 'contents' AND l.mode = 'AccessExclusiveLock' AND l.granted`)).length > 0

test('the store declares bulkLoad; a bulk transaction into an empty database drops the secondary indexes and builds them again before its commit', async (world) => {
  assert.is(world.store.capabilities.bulkLoad, true)
  const before = await indexNames(world.url)
  assert.ok(before.includes('contents_by_tag') && before.includes('contents_by_published'), before.join())
  let locked = false
  await world.store.transaction(async (tx) => {
    for (let i = 0; i < 2_500; i++) await tx.putContent(aContent(world.tenantId, `cnt_${String(i).padStart(5, '0')}`, 'cat_1', { slug: `item-${i}` }))
    locked = await tableLocked(world.url)
  }, { bulk: true })
  assert.ok(locked, 'the indexes were dropped (the table was locked) while the import wrote')
  assert.equal(await indexNames(world.url), before)
  assert.is(await world.store.countItems(world.tenantId), 2_500)
  const page = await world.store.listContents(world.tenantId, { visibility: { kind: 'all' }, sort: { key: 'id', direction: 'desc' }, limit: 2 })
  assert.equal(page.map((item) => item.id), ['cnt_02499', 'cnt_02498'])
})

test('a bulk transaction into a database that has items keeps the indexes (and the table open to readers)', async (world) => {
  await world.store.transaction((tx) => tx.putContent(aContent(world.tenantId, 'cnt_first', 'cat_1', { slug: 'first' })))
  let locked = true
  await world.store.transaction(async (tx) => {
    await tx.putContent(aContent(world.tenantId, 'cnt_second', 'cat_1', { slug: 'second' }))
    await tx.listContents(world.tenantId, { visibility: { kind: 'all' }, sort: { key: 'id', direction: 'asc' }, limit: 1 })
    locked = await tableLocked(world.url)
  }, { bulk: true })
  assert.not.ok(locked)
})

test('a rolled-back bulk transaction leaves the indexes and no item', async (world) => {
  const before = await indexNames(world.url)
  const failure = await world.store.transaction(async (tx) => {
    for (let i = 0; i < 1_500; i++) await tx.putContent(aContent(world.tenantId, `cnt_${i}`, 'cat_1', { slug: `item-${i}` }))
    throw new Error('the file was cut short')
  }, { bulk: true }).catch((error: unknown) => error)
  assert.instance(failure, Error)
  assert.equal(await indexNames(world.url), before)
  assert.is(await world.store.countItems(world.tenantId), 0)
})

test('a user who does not own the tables imports in bulk all the same, row by row (only the owner may drop indexes)', async (world) => {
  const role = `fd_writer_${process.pid}_${Date.now()}`
  await admin(world.url, `CREATE ROLE ${role} LOGIN PASSWORD 'writer'`)
  await admin(world.url, `GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO ${role}`)
  const url = new URL(world.url)
  url.username = role
  url.password = 'writer'
  const other = await openPostgresStore({ url: url.toString() })
  try {
    let locked = true
    await other.transaction(async (tx) => {
      for (let i = 0; i < 1_200; i++) await tx.putContent(aContent(world.tenantId, `cnt_${i}`, 'cat_1', { slug: `item-${i}` }))
      locked = await tableLocked(world.url)
    }, { bulk: true })
    assert.not.ok(locked)
    assert.is(await other.countItems(world.tenantId), 1_200)
  } finally {
    await other.close()
    await admin(world.url, `DROP OWNED BY ${role}`)
    await admin(world.url, `DROP ROLE ${role}`)
  }
})

test('new items written by COPY read back exactly: tabs, newlines, backslashes, "\\N", quotes, tags and fields, a null date', async (world) => {
  const odd = 'tab\there\nnew line\r\\back\\slash \\N "quoted" ｶﾀｶﾅ 🎉'
  const tag = aTag(world.tenantId, 'tag_odd', 'a "tag", with \\ and {braces}')
  const record: ContentRecord = aContent(world.tenantId, 'cnt_odd', 'cat_1', {
    slug: 'odd', title: odd, summary: odd, body: `<p>${odd}</p>`, author_name: '\\N', status: 'draft', published_at: null,
    tags: [{ id: tag.id, name: tag.name }], fields: { fld_text: odd, fld_n: 1.5, fld_b: false }, meta: { og_title: odd, nested: { list: [1, 'two\t'] } },
  })
  await world.store.transaction(async (tx) => {
    await tx.putTag(tag)
    await tx.putContent(record)
    // Rewritten after its first batch went by COPY: the second write replaces the row.
    for (let i = 0; i < 1_000; i++) await tx.putContent(aContent(world.tenantId, `cnt_fill_${i}`, 'cat_1', { slug: `fill-${i}` }))
    await tx.putContent({ ...record, version: 2, title: 'second' })
    // Deleted and written again in the same transaction.
    await tx.deleteContent(world.tenantId, 'cnt_fill_0')
    await tx.putContent(aContent(world.tenantId, 'cnt_fill_0', 'cat_1', { slug: 'fill-0', title: 'again' }))
  }, { bulk: true })
  const read = await world.store.getContent(world.tenantId, 'cnt_odd')
  assert.equal(read, { ...record, version: 2, title: 'second' })
  assert.is((await world.store.getContent(world.tenantId, 'cnt_fill_0'))?.title, 'again')
  assert.is(await world.store.countItems(world.tenantId), 1_001)
})

test.run()
