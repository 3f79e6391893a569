import { aCategory, aContent, aTag, aTenant } from '@frontdesk/core/testing'
import Database from 'better-sqlite3'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { openTempStore } from '../../test/util/temp-store.ts'

type World = ReturnType<typeof openTempStore>

const test = suite<World>('bulk load: item indexes built at the end of the transaction')

test.before.each(async (ctx) => {
  Object.assign(ctx, openTempStore())
  await ctx.store.createTenant(aTenant('t1'))
})

test.after.each(async (ctx) => {
  await ctx.cleanup()
})

/** The schema's indexes (name, table, SQL), read through a connection of its own. */
function indexes(ctx: World): unknown[] {
  const db = new Database(ctx.path, { readonly: true })
  try {
    return db.prepare("SELECT name, tbl_name, sql FROM sqlite_master WHERE type = 'index' ORDER BY name").all()
  } finally {
    db.close()
  }
}

/** A statement's plan, through a connection of its own. */
function plan(ctx: World, sql: string): string {
  const db = new Database(ctx.path, { readonly: true })
  try {
    return (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as { detail: string }[]).map((row) => row.detail).join('; ')
  } finally {
    db.close()
  }
}

async function load(ctx: World, from: number, to: number, fail = false): Promise<void> {
  await ctx.store.transaction(async (tx) => {
    await tx.putCategory(aCategory('t1', 'news', { fields: [{ id: 'f_n', name: 'n', type: 'number', required: false }, { id: 'f_s', name: 's', type: 'text', required: false }] }))
    await tx.putTag(aTag('t1', 'tag_a', 'a'))
    for (let i = from; i < to; i++) {
      await tx.putContent(aContent('t1', `c${String(i).padStart(4, '0')}`, 'news', { tags: i % 2 === 0 ? [{ id: 'tag_a', name: 'a' }] : [], fields: { f_n: i, f_s: `s${i}` } }))
    }
    if (fail) throw new Error('bad record')
  }, { bulk: true })
}

test('a first import leaves the same indexes, filled: the rows are found through them, the database is sound', async (ctx) => {
  const before = indexes(ctx)
  await load(ctx, 0, 200)
  assert.equal(indexes(ctx), before)
  assert.match(plan(ctx, "SELECT content_id FROM content_fields WHERE tenant_id = 't1' AND field_id = 'f_n' AND value_number > 150"), /content_fields_by_number/)
  const db = new Database(ctx.path, { readonly: true })
  try {
    assert.equal(db.pragma('integrity_check'), [{ integrity_check: 'ok' }])
    assert.is((db.prepare("SELECT count(*) AS n FROM content_fields INDEXED BY content_fields_by_number WHERE tenant_id = 't1' AND field_id = 'f_n' AND value_number >= 150").get() as { n: number }).n, 50)
    assert.is((db.prepare("SELECT count(*) AS n FROM content_tags INDEXED BY content_tags_by_tag WHERE tenant_id = 't1' AND tag_id = 'tag_a'").get() as { n: number }).n, 100)
  } finally {
    db.close()
  }
  const page = await ctx.store.listContents('t1', { visibility: { kind: 'all' }, sort: { key: 'id', direction: 'asc' }, limit: 3 })
  assert.equal(page.map((item) => item.id), ['c0000', 'c0001', 'c0002'])
})

test('a bulk load that fails rolls the indexes back with the rows', async (ctx) => {
  const before = indexes(ctx)
  let failure: unknown = null
  try {
    await load(ctx, 0, 50, true)
  } catch (error) {
    failure = error
  }
  assert.match(String(failure), /bad record/)
  assert.equal(indexes(ctx), before)
  assert.is(await ctx.store.getContent('t1', 'c0001'), null)
})

test('with items already there, and for the transaction after, the indexes are kept and updated row by row', async (ctx) => {
  const before = indexes(ctx)
  await load(ctx, 0, 10)
  await load(ctx, 10, 20)
  await ctx.store.transaction(async (tx) => tx.putContent(aContent('t1', 'c9999', 'news')))
  assert.equal(indexes(ctx), before)
  const db = new Database(ctx.path, { readonly: true })
  try {
    assert.equal(db.pragma('integrity_check'), [{ integrity_check: 'ok' }])
  } finally {
    db.close()
  }
})

test.run()
