import Database from 'better-sqlite3'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { UsageError } from '@frontdesk/core'
import { openSqliteStore } from '../sqlite-store.ts'
import { PAGE_SIZE_BYTES } from '../connection/open-connection.ts'
import { tempDbPath } from '../../test/util/temp-store.ts'
import { migrate, SCHEMA_VERSION, schemaVersion } from './migrate.ts'

const T0 = '2025-06-20T12:00:00.000Z'

// Rows in the shape of schema version 1, the oldest one holding data (from version 6 on, with
// the copies of the item's links that version 6 keeps on its row and tag links).
function writeVersion1Data(db: Database.Database, version: number): void {
  db.prepare('INSERT INTO tenants (id, code, name, created_at) VALUES (?, ?, ?, ?)').run('ten_1', 'acme', 'Acme', T0)
  db.prepare(
    `INSERT INTO categories (tenant_id, id, code, name, description, sort, active, fields, created_at, updated_at)
     VALUES ('ten_1', 'cat_1', 'news', 'News', '', 0, 1, '[]', ?, ?)`,
  ).run(T0, T0)
  db.prepare(
    `INSERT INTO contents (tenant_id, id, slug, title, category_id, status, published_at, author_name, summary, body, meta, version, created_at, updated_at)
     VALUES ('ten_1', 'cnt_1', 'hello', 'Hello', 'cat_1', 'published', ?, '', '', '', '{"og_title":"","og_description":""}', 1, ?, ?)`,
  ).run(T0, T0, T0)
  db.prepare("INSERT INTO tags (tenant_id, id, name) VALUES ('ten_1', 'tag_a', 'alpha'), ('ten_1', 'tag_b', 'beta')").run()
  db.prepare("INSERT INTO content_tags (tenant_id, content_id, position, tag_id) VALUES ('ten_1', 'cnt_1', 0, 'tag_b'), ('ten_1', 'cnt_1', 1, 'tag_a')").run()
  db.prepare(
    `INSERT INTO content_fields (tenant_id, content_id, field_id, value_text, value_number, value_boolean)
     VALUES ('ten_1', 'cnt_1', 'fld_text', 'x "quoted"', NULL, NULL), ('ten_1', 'cnt_1', 'fld_num', NULL, ?, NULL),
            ('ten_1', 'cnt_1', 'fld_bool', NULL, NULL, 0), ('ten_1', 'cnt_1', 'fld_int', NULL, 5, NULL)`,
  ).run(1 / 3)
  db.prepare(
    `INSERT INTO inquiries (tenant_id, id, category_code, title, content, priority, inquirer_name, inquirer_email, status, created_at)
     VALUES ('ten_1', 'inq_1', 'general', 'Hi', 'Text', 2, 'Ina', 'ina@example.com', 'open', ?)`,
  ).run(T0)
  if (version >= 6) {
    db.prepare("UPDATE contents SET tag_ids = '[\"tag_b\",\"tag_a\"]', field_values = ? WHERE id = 'cnt_1'").run(
      JSON.stringify({ fld_bool: false, fld_int: 5, fld_num: 1 / 3, fld_text: 'x "quoted"' }),
    )
    db.prepare("UPDATE content_tags SET category_id = 'cat_1'").run()
  }
}

test('a new file is created at the latest schema version, in WAL mode', async () => {
  const { path, remove } = tempDbPath()
  const store = openSqliteStore({ path })
  assert.is(schemaVersion(store.db), SCHEMA_VERSION)
  assert.is(store.db.pragma('journal_mode', { simple: true }), 'wal')
  assert.is(store.db.pragma('synchronous', { simple: true }), 2, 'synchronous = FULL')
  assert.is(store.db.pragma('page_size', { simple: true }), PAGE_SIZE_BYTES)
  await store.close()
  remove()
})

test('a database at every earlier version is migrated to the latest, keeping its data', async () => {
  assert.ok(SCHEMA_VERSION >= 2, 'there are earlier versions to migrate from')
  for (let version = 0; version < SCHEMA_VERSION; version++) {
    const { path, remove } = tempDbPath()
    const db = new Database(path)
    migrate(db, version)
    assert.is(schemaVersion(db), version)
    if (version >= 1) writeVersion1Data(db, version)
    db.close()

    const store = openSqliteStore({ path })
    assert.is(schemaVersion(store.db), SCHEMA_VERSION, `from version ${version}`)
    if (version >= 1) assert.is(store.db.pragma('page_size', { simple: true }), 4096, 'an existing file keeps its page size')
    for (const index of ['contents_by_published', 'contents_by_category', 'contents_by_title']) {
      const columns = store.db.prepare(`SELECT name FROM pragma_index_info('${index}')`).pluck().all()
      assert.ok(['summary', 'tag_ids', 'author_name', 'version'].every((c) => columns.includes(c)), `${index} covers list items from version ${version}`)
    }
    const triggers = store.db.prepare("SELECT count(*) FROM sqlite_master WHERE type = 'trigger'").pluck().get()
    assert.is(triggers, 0, `no per-row triggers left after migrating from version ${version}`)
    if (version >= 1) {
      assert.is((await store.getTenantByCode('acme'))?.id, 'ten_1')
      const hello = await store.getContentBySlug('ten_1', 'hello')
      assert.is(hello?.title, 'Hello')
      assert.equal(hello?.tags.map((t) => t.name), ['beta', 'alpha'], `tag links and their order kept from version ${version}`)
      assert.equal(hello?.fields, { fld_bool: false, fld_int: 5, fld_num: 1 / 3, fld_text: 'x "quoted"' }, `field values kept from version ${version}`)
      assert.equal(Object.keys(hello?.fields ?? {}), ['fld_bool', 'fld_int', 'fld_num', 'fld_text'], `fields in field id order from version ${version}`)
      const tagged = await store.listContents('ten_1', {
        visibility: { kind: 'all' }, categoryIds: ['cat_1'], tagIds: ['tag_a'], sort: { key: 'id', direction: 'asc' }, limit: 10,
      })
      assert.equal(tagged.map((item) => item.id), ['cnt_1'], `tag links know their category after migrating from version ${version}`)
      assert.is((await store.getInquiry('ten_1', 'inq_1'))?.inquirer_name, 'Ina')
      const before = await store.revision('ten_1')
      await store.transaction(async (tx) => {
        const item = await tx.getContent('ten_1', 'cnt_1')
        assert.ok(item)
        await tx.putContent({ ...item, title: 'Changed', version: 2 })
      })
      assert.is.not(await store.revision('ten_1'), before, `the revision is kept after migrating from version ${version}`)
    }
    await store.close()
    remove()
  }
})

test('reopening a database at the latest version changes nothing', async () => {
  const { path, remove } = tempDbPath()
  const first = openSqliteStore({ path })
  await first.createTenant({ id: 'ten_1', code: 'acme', name: 'Acme', created_at: T0 })
  await first.close()
  const again = openSqliteStore({ path })
  assert.is((await again.listTenants()).length, 1)
  assert.is(schemaVersion(again.db), SCHEMA_VERSION)
  await again.close()
  remove()
})

test('a database newer than this code is refused with a clear error, and left as it was', () => {
  const { path, remove } = tempDbPath()
  const db = new Database(path)
  migrate(db)
  db.pragma(`user_version = ${SCHEMA_VERSION + 1}`)
  db.close()
  let error: unknown
  try {
    openSqliteStore({ path })
  } catch (caught) {
    error = caught
  }
  assert.instance(error, UsageError)
  assert.match(String((error as Error).message), /schema version \d+, newer than this frontdesk knows/)
  assert.not.match(String((error as Error).message), path)
  const check = new Database(path)
  assert.is(schemaVersion(check), SCHEMA_VERSION + 1)
  check.close()
  remove()
})

test('a failing migration leaves the database at its earlier version', () => {
  const { path, remove } = tempDbPath()
  const db = new Database(path)
  migrate(db, 1)
  // A table that version 2 is about to create makes it fail half-way.
  db.exec('CREATE TABLE change_log (x)')
  assert.throws(() => migrate(db))
  assert.is(schemaVersion(db), 1)
  const columns = db.prepare("SELECT name FROM pragma_table_info('tenants')").pluck().all()
  assert.not.ok(columns.includes('revision'), 'the ALTER before the failure was rolled back')
  db.close()
  remove()
})

test.run()
