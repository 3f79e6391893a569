import { spawnSync } from 'node:child_process'
import { dirname } from 'node:path'
import { fileURLToPath } from 'node:url'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import type { ContentQuery, FieldValue } from '@frontdesk/core'
import { aCategory, aContent, anApiKey, aTag, aTenant, at, FIELDS } from '@frontdesk/core/testing'
import { openTempStore } from '../../test/util/temp-store.ts'
import type { LinkFilter, ListDriver } from './content-filters.ts'
import { listContentsSql } from './list-contents-sql.ts'

const T = 'ten_1'
const HERE = dirname(fileURLToPath(import.meta.url))

/** Runs SQL on the database file from another process, as a second server or the CLI would. */
function inAnotherProcess(path: string, sql: string): void {
  const script = `const D = require('better-sqlite3'); const db = new D(process.argv[1]); db.pragma('busy_timeout = 5000'); db.exec(process.argv[2]); db.close()`
  const run = spawnSync(process.execPath, ['-e', script, path, sql], { cwd: HERE, encoding: 'utf8', timeout: 20_000 })
  assert.is(run.status, 0, run.stderr)
}

test('a listed page holds the same whole records (tags in order, typed field values) as reading each item by id', async () => {
  const { store, cleanup } = openTempStore()
  await store.createTenant(aTenant(T))
  const tags = ['zeta', 'alpha', 'mid'].map((name, n) => aTag(T, `tag_${n}`, name))
  await store.transaction(async (tx) => {
    await tx.putCategory(aCategory(T, 'cat_1', { fields: Object.values(FIELDS) }))
    for (const tag of tags) await tx.putTag(tag)
    for (let n = 0; n < 30; n++) {
      const own = n % 4 === 0 ? [] : [tags[n % 3], tags[(n + 1) % 3]].flatMap((tag) => (tag === undefined ? [] : [{ id: tag.id, name: tag.name }]))
      const fields: Record<string, FieldValue> = n % 5 === 0 ? {} : { fld_num: n / 3, fld_text: `t${n}`, fld_bool: n % 2 === 0, fld_date: '2025-01-02', fld_sel: 'm' }
      await tx.putContent(aContent(T, `cnt_${String(n).padStart(2, '0')}`, 'cat_1', { published_at: at(-n), tags: own, fields }))
    }
  })
  const page = await store.listContents(T, { visibility: { kind: 'public', now: at(0) }, sort: { key: 'published_at', direction: 'desc' }, limit: 30 })
  assert.is(page.length, 30)
  for (const item of page) assert.equal(item, await store.getContent(T, item.id), item.id)
  assert.equal(page[1]?.tags.map((tag) => tag.name), ['alpha', 'mid'])
  // A summary (what a list page shows) is the same record without its body, meta and field values.
  const summaries = await store.listContents(T, { visibility: { kind: 'public', now: at(0) }, sort: { key: 'published_at', direction: 'desc' }, limit: 30, view: 'summary' })
  assert.equal(summaries, page.map((item) => ({ ...item, body: '', meta: {}, fields: {} })))
  assert.is(page[1]?.fields.fld_bool, false)
  assert.is(page[3]?.fields.fld_num, 1)
  await cleanup()
})

test('driven from any one of its tag or field filters, a list walks the same pages as along its order index', async () => {
  const { store, cleanup } = openTempStore()
  await store.createTenant(aTenant(T))
  await store.transaction(async (tx) => {
    await tx.putCategory(aCategory(T, 'cat_1', { fields: Object.values(FIELDS) }))
    await tx.putCategory(aCategory(T, 'cat_2', { fields: Object.values(FIELDS) }))
    await tx.putCategory(aCategory(T, 'cat_off', { active: false, fields: Object.values(FIELDS) }))
    for (const name of ['a', 'b', 'c']) await tx.putTag(aTag(T, `tag_${name}`, name))
    for (let n = 0; n < 120; n++) {
      const tags = ['a', 'b', 'c'].filter((_, i) => (n >> i) % 2 === 1).map((name) => ({ id: `tag_${name}`, name }))
      await tx.putContent(aContent(T, `cnt_${String(n).padStart(3, '0')}`, ['cat_1', 'cat_2', 'cat_off'][n % 3] ?? 'cat_1', {
        // Ties on purpose (the id breaks them), some scheduled, some drafts.
        published_at: at(n % 11 === 0 ? 30 : -(n % 17)), status: n % 13 === 0 ? 'draft' : 'published',
        title: `T${n % 7}`, updated_at: at(-(n % 5)), tags, fields: { fld_num: n % 4, fld_sel: n % 2 === 0 ? 's' : 'm', fld_bool: n % 3 === 0 },
      }))
    }
  })
  const sorts = [['published_at', 'desc'], ['published_at', 'asc'], ['title', 'asc'], ['updated_at', 'desc'], ['id', 'asc']] as const
  const filters: Partial<ContentQuery>[] = [
    { tagNames: ['a'], fieldEquals: [{ field: FIELDS.number, value: 1 }] },
    { tagIds: ['tag_b'], tagNames: ['c'], categoryIds: ['cat_2'] },
    { fieldEquals: [{ field: FIELDS.select, value: 's' }, { field: FIELDS.boolean, value: true }], tagNames: ['b'] },
  ]
  const ids = (query: ContentQuery, driver: ListDriver | null) =>
    listContentsSql(T, query, driver).flatMap(({ sql, params }) => (store.db.prepare(sql).all(...params) as { id: string }[]).map((row) => row.id))
  for (const filter of filters) {
    const single: LinkFilter[] = [
      ...(filter.tagIds ?? []).map((_, index) => ({ kind: 'tagId' as const, index })),
      ...(filter.tagNames ?? []).map((_, index) => ({ kind: 'tagName' as const, index })),
      ...(filter.fieldEquals ?? []).map((_, index) => ({ kind: 'field' as const, index })),
    ]
    // Every filter alone, every pair merged, and all of them merged.
    const pairs = single.flatMap((a, i) => single.slice(i + 1).map((b) => ({ kind: 'intersection' as const, of: [a, b] })))
    const drivers: ListDriver[] = [...single, ...pairs, { kind: 'intersection', of: single }]
    for (const [key, direction] of sorts) {
      const base: ContentQuery = { visibility: { kind: 'public', now: at(0) }, sort: { key, direction }, limit: 1000, ...filter }
      const all = ids(base, null)
      assert.ok(all.length > 0, JSON.stringify(filter))
      for (const driver of drivers) {
        const where = `${JSON.stringify(filter)} ${key}:${direction} by ${JSON.stringify(driver)}`
        assert.equal(ids(base, driver), all, where)
        // Walked three at a time from keyset positions.
        const walked: string[] = []
        let after: ContentQuery['after']
        for (let page = 0; page < 100; page++) {
          const got = ids({ ...base, limit: 3, ...(after === undefined ? {} : { after }) }, driver)
          walked.push(...got)
          const last = got.at(-1)
          if (got.length < 3 || last === undefined) break
          const item = await store.getContent(T, last)
          after = { value: item === null ? null : key === 'id' ? item.id : item[key], id: last }
        }
        assert.equal(walked, all, `walk: ${where}`)
      }
    }
  }
  await cleanup()
})

test("an item's tag links and field values follow its updates: category moves, retagging, renamed tags, changed fields", async () => {
  const { store, path, cleanup } = openTempStore()
  await store.createTenant(aTenant(T))
  const tagA = aTag(T, 'tag_a', 'a')
  const tagB = aTag(T, 'tag_b', 'b')
  const link = (tag: typeof tagA) => ({ id: tag.id, name: tag.name })
  await store.transaction(async (tx) => {
    for (const id of ['cat_1', 'cat_2']) await tx.putCategory(aCategory(T, id, { fields: Object.values(FIELDS) }))
    await tx.putTag(tagA)
    await tx.putTag(tagB)
    await tx.putContent(aContent(T, 'cnt_1', 'cat_1', { published_at: at(-1), tags: [link(tagB), link(tagA)], fields: { fld_num: 1 / 3, fld_sel: 's' } }))
    await tx.putContent(aContent(T, 'cnt_2', 'cat_1', { published_at: at(-2), tags: [link(tagA)], fields: { fld_bool: true } }))
  })
  const listed = async (filter: Partial<ContentQuery>) =>
    (await store.listContents(T, { visibility: { kind: 'public', now: at(0) }, sort: { key: 'published_at', direction: 'desc' }, limit: 10, ...filter })).map((item) => item.id)
  assert.equal(await listed({ categoryIds: ['cat_1'], tagIds: ['tag_a'] }), ['cnt_1', 'cnt_2'])
  const first = await store.getContent(T, 'cnt_1')
  assert.ok(first)
  // Moved to another category with the same tags: its tag links move with it.
  await store.transaction(async (tx) => tx.putContent({ ...first, category_id: 'cat_2', version: 2 }))
  assert.equal(await listed({ categoryIds: ['cat_1'], tagIds: ['tag_a'] }), ['cnt_2'])
  assert.equal(await listed({ categoryIds: ['cat_2'], tagNames: ['a'] }), ['cnt_1'])
  assert.equal(await listed({ categoryIds: ['cat_1', 'cat_2'], tagIds: ['tag_a'] }), ['cnt_1', 'cnt_2'])
  // Retagged and moved back, fields changed and one removed.
  await store.transaction(async (tx) =>
    tx.putContent({ ...first, category_id: 'cat_1', tags: [link(tagA)], fields: { fld_num: 2.5, fld_text: 'x' }, version: 3 }),
  )
  assert.equal(await listed({ categoryIds: ['cat_1'], tagIds: ['tag_b'] }), [])
  assert.equal(await listed({ categoryIds: ['cat_1'], tagIds: ['tag_a'], fieldEquals: [{ field: FIELDS.number, value: 2.5 }] }), ['cnt_1'])
  assert.equal(await listed({ categoryIds: ['cat_1'], fieldEquals: [{ field: FIELDS.select, value: 's' }] }), [])
  const again = await store.getContent(T, 'cnt_1')
  assert.equal(again?.fields, { fld_num: 2.5, fld_text: 'x' })
  assert.equal(again?.tags, [link(tagA)])
  // A renamed tag shows its new name on every item, read by id, by slug or in a list.
  await store.transaction(async (tx) => tx.putTag({ ...tagA, name: 'renamed' }))
  assert.equal((await store.getContent(T, 'cnt_2'))?.tags, [{ id: 'tag_a', name: 'renamed' }])
  assert.equal((await store.getContentBySlug(T, again?.slug ?? ''))?.tags, [{ id: 'tag_a', name: 'renamed' }])
  assert.equal(await listed({ tagNames: ['renamed'] }), ['cnt_1', 'cnt_2'])
  const names = async (view?: 'summary') =>
    (await store.listContents(T, { visibility: { kind: 'public', now: at(0) }, sort: { key: 'published_at', direction: 'desc' }, limit: 10, ...(view === undefined ? {} : { view }) }))
      .map((item) => item.tags.map((tag) => tag.name).join())
  assert.equal(await names('summary'), ['renamed', 'renamed'])
  assert.equal(await names(), ['renamed', 'renamed'])
  // Renamed by another process: the remembered names are dropped with its commit.
  inAnotherProcess(path, `UPDATE tags SET name = 'elsewhere' WHERE id = 'tag_a'`)
  assert.equal(await names('summary'), ['elsewhere', 'elsewhere'])
  assert.equal((await store.getContent(T, 'cnt_2'))?.tags, [{ id: 'tag_a', name: 'elsewhere' }])
  // Unchanged links are not rewritten, and the row's copies still match the link tables.
  const rows = store.db.prepare('SELECT content_id, tag_id, category_id FROM content_tags ORDER BY content_id, position').all()
  assert.equal(rows, [{ content_id: 'cnt_1', tag_id: 'tag_a', category_id: 'cat_1' }, { content_id: 'cnt_2', tag_id: 'tag_a', category_id: 'cat_1' }])
  await cleanup()
})

test('field values read back with their keys in the order SQLite sorts field ids (code points, not UTF-16 units)', async () => {
  const { store, cleanup } = openTempStore()
  await store.createTenant(aTenant(T))
  const fields = { 'fld_\u{1F600}': 1, fld_b: 'b', 'fld_\uFF5E': true, fld_a: 0.1 }
  await store.transaction(async (tx) => {
    await tx.putCategory(aCategory(T, 'cat_1'))
    await tx.putContent(aContent(T, 'cnt_1', 'cat_1', { fields }))
  })
  const sorted = store.db.prepare("SELECT field_id FROM content_fields WHERE content_id = 'cnt_1' ORDER BY field_id").pluck().all()
  assert.equal(sorted, ['fld_a', 'fld_b', 'fld_\uFF5E', 'fld_\u{1F600}'])
  const item = await store.getContent(T, 'cnt_1')
  assert.equal(Object.keys(item?.fields ?? {}), sorted)
  assert.equal(item?.fields, fields)
  await cleanup()
})

test('a list whose smallest filter is large merges the filters it can (INTERSECT in content id order), with the same pages', async () => {
  const { store, cleanup } = openTempStore()
  await store.createTenant(aTenant(T))
  await store.transaction(async (tx) => {
    for (const id of ['cat_1', 'cat_2']) await tx.putCategory(aCategory(T, id, { fields: Object.values(FIELDS) }))
    for (const name of ['a', 'b']) await tx.putTag(aTag(T, `tag_${name}`, name))
    for (let n = 0; n < 1000; n++) {
      const tags = [...(n % 3 !== 0 ? ['a'] : []), ...(n % 5 === 0 ? ['b'] : [])].map((name) => ({ id: `tag_${name}`, name }))
      await tx.putContent(aContent(T, `cnt_${String(n).padStart(4, '0')}`, n % 7 === 0 ? 'cat_2' : 'cat_1', {
        published_at: at(-(n % 37)), status: n % 11 === 0 ? 'draft' : 'published', tags,
        fields: { fld_sel: n % 2 === 0 ? 's' : 'm', fld_bool: n % 4 === 0 },
      }))
    }
  })
  const statements: string[] = []
  const prepare = store.db.prepare.bind(store.db)
  store.db.prepare = ((sql: string) => {
    statements.push(sql)
    return prepare(sql)
  }) as typeof store.db.prepare
  const everything = await store.listContents(T, { visibility: { kind: 'all' }, sort: { key: 'id', direction: 'asc' }, limit: 2000 })
  const filters: { filter: Partial<ContentQuery>; matches: (item: (typeof everything)[number]) => boolean }[] = [
    {
      filter: { categoryIds: ['cat_1'], tagIds: ['tag_a'], fieldEquals: [{ field: FIELDS.select, value: 's' }] },
      matches: (item) => item.category_id === 'cat_1' && item.tags.some((tag) => tag.id === 'tag_a') && item.fields.fld_sel === 's',
    },
    {
      filter: { categoryIds: ['cat_1'], tagNames: ['a'], fieldEquals: [{ field: FIELDS.select, value: 's' }, { field: FIELDS.boolean, value: false }], tagIds: ['tag_b'] },
      matches: (item) => item.category_id === 'cat_1' && item.tags.some((tag) => tag.id === 'tag_a') && item.tags.some((tag) => tag.id === 'tag_b')
        && item.fields.fld_sel === 's' && item.fields.fld_bool === false,
    },
  ]
  for (const { filter, matches } of filters) {
    for (const direction of ['desc', 'asc'] as const) {
      const base: ContentQuery = { visibility: { kind: 'public', now: at(0) }, sort: { key: 'published_at', direction }, limit: 7, ...filter }
      const expected = everything
        .filter((item) => item.status === 'published' && item.published_at !== null && item.published_at <= at(0) && matches(item))
        .sort((x, y) => ((x.published_at ?? '') < (y.published_at ?? '') ? -1 : (x.published_at ?? '') > (y.published_at ?? '') ? 1 : x.id < y.id ? -1 : 1) * (direction === 'asc' ? 1 : -1))
        .map((item) => item.id)
      assert.ok(expected.length > 20, JSON.stringify(filter))
      const walked: string[] = []
      let after: ContentQuery['after']
      for (let page = 0; page < 200; page++) {
        const got = await store.listContents(T, { ...base, ...(after === undefined ? {} : { after }) })
        walked.push(...got.map((item) => item.id))
        const last = got.at(-1)
        if (got.length < 7 || last === undefined) break
        after = { value: last.published_at, id: last.id }
      }
      assert.equal(walked, expected, `${JSON.stringify(filter)} ${direction}`)
    }
  }
  assert.ok(statements.some((sql) => sql.includes(' INTERSECT ')), 'the filters were merged')
  await cleanup()
})

test('a key read before it was disabled or deleted by another process is refused on the next read', async () => {
  const { store, path, cleanup } = openTempStore()
  await store.createTenant(aTenant(T))
  await store.createApiKey(anApiKey(T, 'key_1', { hash: 'h1' }))
  await store.createApiKey(anApiKey(T, 'key_2', { hash: 'h2' }))
  assert.is((await store.findApiKeyByHash('h1'))?.key.disabled_at, null)
  assert.is((await store.findApiKeyByHash('h1'))?.key.disabled_at, null)
  assert.ok(await store.findApiKeyByHash('h2'))
  inAnotherProcess(path, `UPDATE api_keys SET disabled_at = '${at(1)}' WHERE id = 'key_1'; DELETE FROM api_keys WHERE id = 'key_2'`)
  assert.is((await store.findApiKeyByHash('h1'))?.key.disabled_at, at(1))
  assert.is(await store.findApiKeyByHash('h2'), null)
  // A change through this store's own writer is seen too.
  await store.updateApiKey('key_1', { disabled_at: at(2) })
  assert.is((await store.findApiKeyByHash('h1'))?.key.disabled_at, at(2))
  await cleanup()
})

test('categories read before another process changed them are read again on the next request', async () => {
  const { store, path, cleanup } = openTempStore()
  await store.createTenant(aTenant(T))
  await store.transaction(async (tx) => {
    await tx.putCategory(aCategory(T, 'cat_1'))
  })
  assert.is((await store.listCategories(T))[0]?.name, 'Category cat_1')
  assert.is((await store.getCategory(T, 'cat_1'))?.active, true)
  inAnotherProcess(path, `UPDATE categories SET name = 'Renamed', active = 0 WHERE id = 'cat_1'`)
  assert.is((await store.listCategories(T))[0]?.name, 'Renamed')
  assert.is((await store.getCategory(T, 'cat_1'))?.active, false)
  await cleanup()
})

test('a remembered record is shared, so it is frozen: a caller cannot change what the next one reads', async () => {
  const { store, cleanup } = openTempStore({ memo: true })
  await store.createTenant(aTenant(T))
  await store.transaction(async (tx) => {
    await tx.putCategory(aCategory(T, 'cat_1', { fields: [FIELDS.select] }))
  })
  const categories = await store.listCategories(T)
  assert.throws(() => categories.push(aCategory(T, 'cat_2')))
  assert.throws(() => {
    const first = categories[0]
    if (first !== undefined) first.name = 'changed'
  })
  assert.throws(() => categories[0]?.fields[0]?.options?.push('xl'))
  assert.is((await store.listCategories(T))[0]?.name, 'Category cat_1')
  await cleanup()
})

test.run()
