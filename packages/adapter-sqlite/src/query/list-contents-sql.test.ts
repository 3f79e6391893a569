import Database from 'better-sqlite3'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import type { ContentQuery } from '@frontdesk/core'
import { aCategory, aContent, aTag, aTenant, at, FIELDS } from '@frontdesk/core/testing'
import { openTempStore } from '../../test/util/temp-store.ts'
import { openSqliteStore } from '../sqlite-store.ts'
import type { SqliteStore } from '../sqlite-store.ts'
import { listContentsSql } from './list-contents-sql.ts'

const T = 'ten_1'
const NOW = at(0)
const deep = { value: at(-5_000), id: 'cnt_05000' }
const pub = { kind: 'public', now: NOW } as const

// Lists that must cost the same on page 5,000 as on page 1: the plan seeks into an index in
// sort order (SEARCH … USING INDEX) and neither scans the table nor sorts in a temp B-tree.
const INDEXED: Record<string, ContentQuery> = {
  'published_at:desc, first page': { visibility: pub, sort: { key: 'published_at', direction: 'desc' }, limit: 21 },
  'published_at:desc, deep page': { visibility: pub, sort: { key: 'published_at', direction: 'desc' }, limit: 21, after: deep },
  'published_at:asc, deep page': { visibility: pub, sort: { key: 'published_at', direction: 'asc' }, limit: 21, after: deep },
  'title:asc, first page': { visibility: pub, sort: { key: 'title', direction: 'asc' }, limit: 21 },
  'updated_at:asc, first page': { visibility: pub, sort: { key: 'updated_at', direction: 'asc' }, limit: 21 },
  'id:desc, first page': { visibility: pub, sort: { key: 'id', direction: 'desc' }, limit: 21 },
  'title:asc, deep page': { visibility: pub, sort: { key: 'title', direction: 'asc' }, limit: 21, after: { value: 'T', id: 'cnt_05000' } },
  'updated_at:desc, deep page': { visibility: pub, sort: { key: 'updated_at', direction: 'desc' }, limit: 21, after: deep },
  'id:asc, deep page': { visibility: pub, sort: { key: 'id', direction: 'asc' }, limit: 21, after: deep },
  'one category, deep page': { visibility: pub, categoryIds: ['cat_1'], sort: { key: 'published_at', direction: 'desc' }, limit: 21, after: deep },
  'tags and fields, deep page': {
    visibility: pub, tagNames: ['even'], tagIds: ['tag_even'], fieldEquals: [{ field: FIELDS.number, value: 4 }],
    sort: { key: 'published_at', direction: 'desc' }, limit: 21, after: deep,
  },
  'custom number field:asc, first page': { visibility: pub, sort: { key: { field: FIELDS.number }, direction: 'asc' }, limit: 21 },
  'custom number field:desc, deep page': {
    visibility: pub, sort: { key: { field: FIELDS.number }, direction: 'desc' }, limit: 21, after: { value: 3, id: 'cnt_05000' },
  },
  'custom text field:asc, deep among the items lacking it': {
    visibility: pub, sort: { key: { field: FIELDS.text }, direction: 'asc' }, limit: 21, after: { value: null, id: 'cnt_05000' },
  },
  'export (all, by id)': { visibility: { kind: 'all' }, sort: { key: 'id', direction: 'asc' }, limit: 500, after: deep },
}

async function seed(store: SqliteStore, count: number): Promise<void> {
  await store.createTenant(aTenant(T))
  await store.transaction(async (tx) => {
    await tx.putCategory(aCategory(T, 'cat_1', { fields: Object.values(FIELDS) }))
    await tx.putCategory(aCategory(T, 'cat_2'))
    await tx.putTag(aTag(T, 'tag_even', 'even'))
    for (let n = 0; n < count; n++) {
      await tx.putContent(
        aContent(T, `cnt_${String(n).padStart(5, '0')}`, n % 3 === 0 ? 'cat_2' : 'cat_1', {
          slug: `s${n}`, title: `T${n % 97}`, published_at: at(-n), updated_at: at(-(n % 50)),
          status: n % 10 === 9 ? 'draft' : 'published',
          tags: n % 2 === 0 ? [{ id: 'tag_even', name: 'even' }] : [], fields: { fld_num: n % 7 },
        }),
      )
    }
  })
}

/** The plan of every part of the query, one list per part. */
function plans(store: SqliteStore, query: ContentQuery): string[][] {
  return listContentsSql(T, query).map(({ sql, params }) =>
    (store.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[]).map((row) => row.detail),
  )
}

function plan(store: SqliteStore, query: ContentQuery): string[] {
  return plans(store, query).flat()
}

test('every default-sort list seeks an index in order: no table scan, no temp B-tree, before and after ANALYZE', async () => {
  const { store: fresh, path, cleanup } = openTempStore()
  await seed(fresh, 2_000)
  let store = fresh
  for (const analyzed of [false, true]) {
    if (analyzed) {
      // Statistics are loaded when a connection opens: analyse, then plan on a new store.
      const raw = new Database(path)
      raw.exec('ANALYZE')
      raw.close()
      store = openSqliteStore({ path })
    }
    for (const [name, query] of Object.entries(INDEXED)) {
      for (const details of plans(store, query)) {
        const where = `${name}${analyzed ? ' (analyzed)' : ''}: ${details.join(' | ')}`
        assert.ok(details.some((d) => /^SEARCH (c|sf) USING (COVERING )?INDEX/.test(d)), where)
        assert.not.ok(details.some((d) => /^SCAN /.test(d) || d.includes('TEMP B-TREE')), where)
      }
    }
  }
  await store.close()
  await cleanup()
})

test('a summary list newest first, per category or by title reads its covering index only (schema v7): no row of contents', async () => {
  const { store, cleanup } = openTempStore()
  await seed(store, 10)
  const covered: [string, string][] = [
    ['published_at:desc, first page', 'contents_by_published'],
    ['published_at:desc, deep page', 'contents_by_published'],
    ['one category, deep page', 'contents_by_category'],
    ['title:asc, first page', 'contents_by_title'],
    ['title:asc, deep page', 'contents_by_title'],
  ]
  for (const [name, index] of covered) {
    const query = { ...(INDEXED[name] as ContentQuery), view: 'summary' } as const
    const details = plan(store, query)
    assert.ok(details.some((d) => d.startsWith(`SEARCH c USING COVERING INDEX ${index} `)), `${name}: ${details.join(' | ')}`)
  }
  await cleanup()
})

test('a list driven by one tag or field filter reads its link rows first, checks the other filters on them, then fetches survivors by key', async () => {
  const { store, cleanup } = openTempStore()
  await seed(store, 10)
  const query = INDEXED['tags and fields, deep page'] as ContentQuery
  for (const driver of [{ kind: 'tagName', index: 0 }, { kind: 'tagId', index: 0 }, { kind: 'field', index: 0 }] as const) {
    const details = listContentsSql(T, { ...query, categoryIds: ['cat_1'] }, driver).flatMap(({ sql, params }) =>
      (store.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[]).map((row) => row.detail),
    )
    const where = `${driver.kind}: ${details.join(' | ')}`
    const index = driver.kind === 'field' ? 'content_fields_by_number' : 'content_tags_by_tag'
    const scanAt = details.indexOf('SCAN d')
    // The link rows, then every tag and field check on them (inside the co-routine), then the item by its key.
    assert.ok(details.some((d) => d.startsWith(`SEARCH d USING COVERING INDEX ${index}`)), where)
    assert.ok(scanAt > 0 && details.slice(0, scanAt).filter((d) => /^SEARCH (ct|f)\b/.test(d)).length >= 2, where)
    assert.ok(details.slice(scanAt).some((d) => /^SEARCH c USING INDEX sqlite_autoindex_contents_1 \(tenant_id=\? AND id=\?\)/.test(d)), where)
    assert.not.ok(details.some((d) => /^SCAN (c|ct|f)\b/.test(d)), where)
  }
  await cleanup()
})

test('a deep newest-first page seeks to its keyset position (the bound is in the index search)', async () => {
  const { store, cleanup } = openTempStore()
  await seed(store, 10)
  const details = plan(store, INDEXED['published_at:desc, deep page'] as ContentQuery)
  assert.ok(details.some((d) => d.includes('(published_at,id)<(?,?)')), details.join(' | '))
  await cleanup()
})

test('a newest-first position later than now still lists exactly the items visible now', async () => {
  const { store, cleanup } = openTempStore()
  await seed(store, 30)
  const sort = { key: 'published_at', direction: 'desc' } as const
  const all = await store.listContents(T, { visibility: pub, sort, limit: 100 })
  const fromFuture = await store.listContents(T, { visibility: pub, sort, limit: 100, after: { value: at(60), id: 'cnt_x' } })
  assert.equal(fromFuture.map((i) => i.id), all.map((i) => i.id))
  const fromNow = await store.listContents(T, { visibility: pub, sort, limit: 100, after: { value: NOW, id: 'cnt_00000' } })
  assert.equal(fromNow.map((i) => i.id), all.map((i) => i.id).slice(1))
  await cleanup()
})

test.run()
