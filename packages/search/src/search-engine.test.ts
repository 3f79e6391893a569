import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { CategoryRecord, ContentRecord, SearchQuery, SearchResult } from '@frontdesk/core'
import { parseQuery, parseQueryTerms, PHRASE_CANDIDATE_LIMIT, SHORT_PREFIX_WORDS } from '@frontdesk/core'
import { aCategory, aContent, aTag, aTenant, createScanSearch } from '@frontdesk/core/testing'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { openSqliteStore } from '@frontdesk/adapter-sqlite'
import type { SqliteStore } from '@frontdesk/adapter-sqlite'
import { createSearchEngine } from './search-engine.ts'
import type { SearchEngine, SearchEngineStore } from './search-engine.ts'

interface World {
  dir: string
  store: SqliteStore
  /** A second store on the same file: another connection, as another process would have. */
  other: SqliteStore
  search: SearchEngine
}

const test = suite<World>('search engine over the port')

test.before.each((ctx) => {
  ctx.dir = mkdtempSync(join(tmpdir(), 'frontdesk-search-'))
  const path = join(ctx.dir, 'search.db')
  ctx.store = openSqliteStore({ path })
  ctx.other = openSqliteStore({ path })
  ctx.search = createSearchEngine({ store: ctx.store })
})

test.after.each(async (ctx) => {
  await ctx.search.close()
  await ctx.other.close()
  await ctx.store.close()
  rmSync(ctx.dir, { recursive: true, force: true })
})

const NOW = '2025-07-01T00:00:00.000Z'

function query(text: string, over: Partial<SearchQuery> = {}): SearchQuery {
  return { terms: parseQueryTerms(text), now: NOW, categoryId: null, tags: null, filters: [], sort: { kind: 'relevance' }, from: 0, size: 100, ...over }
}

async function seed(store: SqliteStore, tenantId: string, categories: CategoryRecord[], contents: ContentRecord[]): Promise<void> {
  if ((await store.getTenant(tenantId)) === null) await store.createTenant(aTenant(tenantId))
  await store.transaction(async (tx) => {
    for (const category of categories) await tx.putCategory(category)
    for (const content of contents) {
      for (const tag of content.tags) await tx.putTag({ ...tag, tenant_id: tenantId })
      await tx.putContent(content)
    }
  })
}

const ids = (result: SearchResult): string[] => result.hits.map((hit) => hit.id)

async function eventually(check: () => Promise<boolean>, ms = 1000): Promise<boolean> {
  const until = Date.now() + ms
  for (;;) {
    if (await check()) return true
    if (Date.now() > until) return false
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

const news = aCategory('t1', 'news')

test('finds items by English words, prefixes and a typo; all terms must match, unless no item has them all', async ({ store, search }) => {
  await seed(store, 't1', [news], [
    aContent('t1', 'c1', 'news', { title: 'Office relocation notice', body: '<p>We are moving to <b>Tokyo</b>.</p>' }),
    aContent('t1', 'c2', 'news', { title: 'Quarterly results', summary: 'Revenue grew in Osaka' }),
  ])
  assert.equal(ids(await search.search('t1', query('relocation'))), ['c1'])
  assert.equal(ids(await search.search('t1', query('reloc'))), ['c1'])
  assert.equal(ids(await search.search('t1', query('relokation'))), ['c1'])
  assert.equal(ids(await search.search('t1', query('tokyo office'))), ['c1'])
  assert.equal(ids(await search.search('t1', query('tokyo results'))).sort(), ['c1', 'c2'], 'no item has both: those with one (no dead ends)')
  assert.equal(ids(await search.search('t1', query('osaka'))), ['c2'])
})

test('finds Japanese words inside text without spaces', async ({ store, search }) => {
  await seed(store, 't1', [news], [
    aContent('t1', 'c1', 'news', { title: 'オフィス移転のお知らせ', body: '<p>東京都千代田区へ移転します。</p>' }),
    aContent('t1', 'c2', 'news', { title: '決算短信', summary: '売上高は前年比で増加しました' }),
  ])
  assert.equal(ids(await search.search('t1', query('移転'))), ['c1'])
  assert.equal(ids(await search.search('t1', query('お知らせ'))), ['c1'])
  assert.equal(ids(await search.search('t1', query('千代田区'))), ['c1'])
  assert.equal(ids(await search.search('t1', query('売上'))), ['c2'])
  assert.equal(ids(await search.search('t1', query('移転 売上'))).sort(), ['c1', 'c2'], 'no item has both: those with one (no dead ends)')
  assert.equal(ids(await search.search('t1', query('移動'))), [])
})

test('the title weighs more than the body', async ({ store, search }) => {
  await seed(store, 't1', [news], [
    aContent('t1', 'c1', 'news', { title: 'Something else', summary: '', body: '<p>A story about a garden and other things we like</p>' }),
    aContent('t1', 'c2', 'news', { title: 'Garden news', summary: '', body: '<p>A story about other things we like</p>' }),
  ])
  assert.equal(ids(await search.search('t1', query('garden'))), ['c2', 'c1'])
})

test('tags and text/select custom fields are searched; numbers are not', async ({ store, search }) => {
  const shop = aCategory('t1', 'shop', {
    fields: [
      { id: 'f_colour', name: 'colour', type: 'text', required: false },
      { id: 'f_size', name: 'size', type: 'select', options: ['small', 'large'], required: false },
      { id: 'f_price', name: 'price', type: 'number', required: false },
    ],
  })
  await seed(store, 't1', [shop], [
    aContent('t1', 'c1', 'shop', { title: 'Shirt', tags: [aTag('t1', 'tag_summer', 'summer')], fields: { f_colour: 'turquoise', f_size: 'large', f_price: 4711 } }),
  ])
  assert.equal(ids(await search.search('t1', query('summer'))), ['c1'])
  assert.equal(ids(await search.search('t1', query('turquoise'))), ['c1'])
  assert.equal(ids(await search.search('t1', query('large'))), ['c1'])
  assert.equal(ids(await search.search('t1', query('4711'))), [])
})

test('only visible items match: drafts never, scheduled ones once their time comes', async ({ store, search }) => {
  await seed(store, 't1', [news], [
    aContent('t1', 'c1', 'news', { title: 'Launch day' }),
    aContent('t1', 'c2', 'news', { title: 'Launch draft', status: 'draft', published_at: null }),
    aContent('t1', 'c3', 'news', { title: 'Launch later', published_at: '2025-08-01T00:00:00.000Z' }),
  ])
  assert.equal(ids(await search.search('t1', query('launch'))), ['c1'])
  assert.equal(ids(await search.search('t1', query('launch', { now: '2025-08-01T00:00:00.000Z' }))).sort(), ['c1', 'c3'])
})

test('a write through another connection is searchable within a second', async ({ store, other, search }) => {
  await seed(store, 't1', [news], [aContent('t1', 'c1', 'news', { title: 'First post' })])
  assert.equal(ids(await search.search('t1', query('post'))), ['c1'])
  await seed(other, 't1', [], [aContent('t1', 'c2', 'news', { title: 'Second post' })])
  assert.ok(await eventually(async () => ids(await search.search('t1', query('second'))).join() === 'c2'))
  // Unpublish, then delete, through the other connection.
  await other.transaction(async (tx) => {
    const record = await tx.getContent('t1', 'c1')
    if (record !== null) await tx.putContent({ ...record, status: 'draft', version: record.version + 1 })
  })
  assert.ok(await eventually(async () => ids(await search.search('t1', query('post'))).join() === 'c2'))
  await other.transaction(async (tx) => {
    await tx.deleteContent('t1', 'c2')
  })
  assert.ok(await eventually(async () => (await search.search('t1', query('post'))).total === 0))
  // And publish again.
  await other.transaction(async (tx) => {
    const record = await tx.getContent('t1', 'c1')
    if (record !== null) await tx.putContent({ ...record, status: 'published', title: 'First post again', version: record.version + 1 })
  })
  assert.ok(await eventually(async () => ids(await search.search('t1', query('again'))).join() === 'c1'))
})

/** Runs the writing child process (see test/util/write-items.child.ts) to its end. */
function writeFromAnotherProcess(path: string, args: string[]): Promise<void> {
  const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', fileURLToPath(new URL('../test/util/write-items.child.ts', import.meta.url)), path, ...args], {
    stdio: ['ignore', 'ignore', 'inherit'],
    // A blocked writer fails the test instead of holding up the whole run.
    timeout: 30_000,
    killSignal: 'SIGKILL',
  })
  return new Promise((resolve, reject) => {
    child.once('error', reject)
    child.once('exit', (code, signal) => {
      if (code === 0) resolve()
      else reject(new Error(signal === 'SIGKILL' ? 'the writing process was killed, still running after 30 s' : `the writing process exited with ${code ?? signal}`))
    })
  })
}

test('a write committed by another process is searchable within a second, a deletion too', async ({ dir, store, search }) => {
  await seed(store, 't1', [news], [aContent('t1', 'c1', 'news', { title: 'Harbour one' })])
  assert.is((await search.search('t1', query('harbour'))).total, 1)
  await writeFromAnotherProcess(join(dir, 'search.db'), ['t1', 'c2', 'Harbour two'])
  const committed = performance.now()
  assert.ok(await eventually(async () => ids(await search.search('t1', query('harbour'))).join() === 'c1,c2' || ids(await search.search('t1', query('harbour'))).join() === 'c2,c1', 1000))
  assert.ok(performance.now() - committed < 1000)
  await writeFromAnotherProcess(join(dir, 'search.db'), ['t1', 'c1'])
  assert.ok(await eventually(async () => ids(await search.search('t1', query('harbour'))).join() === 'c2', 1000))
})

test('switching a category off hides its items, switching it on shows them again', async ({ store, other, search }) => {
  await seed(store, 't1', [news, aCategory('t1', 'blog')], [
    aContent('t1', 'c1', 'news', { title: 'Alpha one' }),
    aContent('t1', 'c2', 'blog', { title: 'Alpha two' }),
  ])
  assert.is((await search.search('t1', query('alpha'))).total, 2)
  await seed(other, 't1', [{ ...news, active: false }], [])
  assert.ok(await eventually(async () => ids(await search.search('t1', query('alpha'))).join() === 'c2'))
  await seed(other, 't1', [{ ...news, active: true }], [])
  assert.ok(await eventually(async () => (await search.search('t1', query('alpha'))).total === 2))
})

test('renaming a tag re-indexes its items', async ({ store, other, search }) => {
  await seed(store, 't1', [news], [aContent('t1', 'c1', 'news', { title: 'Tagged', tags: [aTag('t1', 'tag_1', 'oldname')] })])
  assert.equal(ids(await search.search('t1', query('oldname'))), ['c1'])
  await other.transaction(async (tx) => tx.putTag(aTag('t1', 'tag_1', 'newname')))
  assert.ok(await eventually(async () => ids(await search.search('t1', query('newname', { tags: ['newname'] }))).join() === 'c1'))
  assert.equal(ids(await search.search('t1', query('oldname'))), [])
})

test('changing a category’s fields re-indexes the custom text of its items', async ({ store, other, search }) => {
  const shop = aCategory('t1', 'shop', { fields: [{ id: 'f_a', name: 'a', type: 'number', required: false }] })
  await seed(store, 't1', [shop], [aContent('t1', 'c1', 'shop', { title: 'Item', fields: { f_a: 'mauve' } })])
  assert.equal(ids(await search.search('t1', query('mauve'))), [])
  await seed(other, 't1', [{ ...shop, fields: [{ id: 'f_a', name: 'a', type: 'text', required: false }] }], [])
  assert.ok(await eventually(async () => ids(await search.search('t1', query('mauve'))).join() === 'c1'))
})

test('tenants are isolated: results, totals and scores', async ({ store, other, search }) => {
  const shared = { title: 'Harbour festival', summary: 'Lanterns by the harbour', body: '<p>Boats</p>' }
  await seed(store, 't1', [aCategory('t1', 'news')], [aContent('t1', 'c1', 'news', shared)])
  await seed(store, 't2', [aCategory('t2', 'news')], [aContent('t2', 'c1', 'news', shared)])
  const before = await search.search('t1', query('harbour'))
  const beforeT2 = await search.search('t2', query('harbour'))
  assert.is(before.total, 1)
  // Many more harbour items in t2 change t2's statistics, never t1's.
  await seed(other, 't2', [], Array.from({ length: 30 }, (_, i) => aContent('t2', `x${i}`, 'news', { title: `Harbour ${i}`, summary: 'harbour harbour' })))
  const after = await search.search('t1', query('harbour'))
  assert.equal(after, before)
  const t2 = await search.search('t2', query('harbour'))
  assert.is(t2.total, 31)
  assert.ok(t2.hits.every((hit) => hit.id === 'c1' || hit.id.startsWith('x')))
  assert.is.not(t2.hits.find((hit) => hit.id === 'c1')?.score, beforeT2.hits[0]?.score)
})

test('filters, tags (any) and sorts apply, and total counts every match', async ({ store, search }) => {
  const shop = aCategory('t1', 'shop', { fields: [{ id: 'f_price', name: 'price', type: 'number', required: false }] })
  await seed(store, 't1', [shop, news], [
    aContent('t1', 'a', 'shop', { title: 'Lamp one', fields: { f_price: 30 }, published_at: '2025-01-03T00:00:00.000Z', tags: [aTag('t1', 'tag_x', 'x')] }),
    aContent('t1', 'b', 'shop', { title: 'Lamp two', fields: { f_price: 10 }, published_at: '2025-01-01T00:00:00.000Z', tags: [aTag('t1', 'tag_y', 'y')] }),
    aContent('t1', 'c', 'shop', { title: 'Lamp three', fields: {}, published_at: '2025-01-02T00:00:00.000Z' }),
    aContent('t1', 'd', 'news', { title: 'Lamp news', published_at: '2025-01-04T00:00:00.000Z' }),
  ])
  const price = (ops: object) => ({ key: 'custom_price', byFieldId: new Map([['f_price', ops]]) })
  assert.equal(ids(await search.search('t1', query('lamp', { sort: { kind: 'published_at', direction: 'desc' } }))), ['d', 'a', 'c', 'b'])
  assert.equal(ids(await search.search('t1', query('lamp', { sort: { kind: 'published_at', direction: 'asc' } }))), ['b', 'c', 'a', 'd'])
  assert.equal(ids(await search.search('t1', query('lamp', { sort: { kind: 'field', fieldIds: ['f_price'], direction: 'asc' } }))), ['b', 'a', 'c', 'd'])
  assert.equal(ids(await search.search('t1', query('lamp', { sort: { kind: 'field', fieldIds: ['f_price'], direction: 'desc' } }))), ['a', 'b', 'd', 'c'])
  assert.equal(ids(await search.search('t1', query('lamp', { filters: [price({ gte: 20 })] }))), ['a'])
  assert.equal(ids(await search.search('t1', query('lamp', { categoryId: 'shop', sort: { kind: 'published_at', direction: 'asc' } }))), ['b', 'c', 'a'])
  assert.equal(ids(await search.search('t1', query('lamp', { tags: ['x', 'y'], sort: { kind: 'published_at', direction: 'asc' } }))), ['b', 'a'])
  const page = await search.search('t1', query('lamp', { from: 1, size: 2, sort: { kind: 'published_at', direction: 'asc' } }))
  assert.equal([page.total, ids(page)], [4, ['c', 'a']])
})

test('a feed that no longer reaches back to the index (changes pruned unseen) rebuilds the index', async ({ store, other, search }) => {
  await seed(store, 't1', [news], [aContent('t1', 'c1', 'news', { title: 'Before pruning' })])
  assert.is((await search.search('t1', query('pruning'))).total, 1)
  await seed(other, 't1', [], [aContent('t1', 'c2', 'news', { title: 'During pruning' })])
  // Hint: the reader connection is query_only; prune through a plain connection as an operator would.
  const { default: Database } = await import('better-sqlite3')
  const raw = new Database(store.path)
  raw.exec('DELETE FROM change_log')
  raw.close()
  await seed(other, 't1', [], [aContent('t1', 'c3', 'news', { title: 'After pruning' })])
  assert.ok(await eventually(async () => (await search.search('t1', query('pruning'))).total === 3))
})

test('a catch-up that fails (storage busy) is retried by the next search', async ({ store, other, search }) => {
  await seed(store, 't1', [news], [aContent('t1', 'c1', 'news', { title: 'Retry one' })])
  assert.is((await search.search('t1', query('retry'))).total, 1)
  await seed(other, 't1', [], [aContent('t1', 'c2', 'news', { title: 'Retry two' })])
  const getContents = store.getContents.bind(store)
  store.getContents = () => Promise.reject(new Error('busy'))
  const failed = await search.search('t1', query('retry')).then(() => false, () => true)
  store.getContents = getContents
  assert.ok(failed)
  assert.is((await search.search('t1', query('retry'))).total, 2)
})

test('a tenant with many changes at once is rebuilt rather than patched', async ({ store, other }) => {
  const search = createSearchEngine({ store, rebuildThreshold: 5, pageSize: 7 })
  await seed(store, 't1', [news], [aContent('t1', 'c0', 'news', { title: 'Bulk zero' })])
  assert.is(await search.indexedCount('t1'), 1)
  await seed(other, 't1', [], Array.from({ length: 20 }, (_, i) => aContent('t1', `b${String(i).padStart(2, '0')}`, 'news', { title: `Bulk ${i}` })))
  assert.is((await search.search('t1', query('bulk'))).total, 21)
  assert.is(await search.indexedCount('t1'), 21)
  await search.warmUp()
  await search.ping()
  await search.close()
  const closed = await search.search('t1', query('bulk')).then(() => false, () => true)
  assert.ok(closed, 'a closed index refuses searches')
  assert.ok(await search.ping().then(() => false, () => true), 'a closed index fails its health check')
})

test('with a store that watches for changes, a search trusts its last position until woken, then catches up at once', async ({ store, other }) => {
  await seed(store, 't1', [news], [aContent('t1', 'c1', 'news', { title: 'Watched one' })])
  const listeners = new Set<() => void>()
  let readings = 0
  const watching: SearchEngineStore = {
    feedPosition: () => {
      readings++
      return store.feedPosition()
    },
    readChanges: (after, limit, tenantId) => store.readChanges(after, limit, tenantId),
    watchChanges: (listener) => {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    readSearchItems: (tenantId, range, limit) => store.readSearchItems(tenantId, range, limit),
    getCategory: (tenantId, id) => store.getCategory(tenantId, id),
    getContents: (tenantId, ids) => store.getContents(tenantId, ids),
    listCategories: (tenantId) => store.listCategories(tenantId),
    listContents: (tenantId, q) => store.listContents(tenantId, q),
    listTenants: () => store.listTenants(),
  }
  const search = createSearchEngine({ store: watching, warmUp: false, pollMs: 60_000 })
  try {
    assert.is((await search.search('t1', query('watched'))).total, 1)
    const before = readings
    for (let i = 0; i < 5; i++) await search.search('t1', query('watched'))
    assert.is(readings, before, 'no position read while nothing woke the engine')
    await seed(other, 't1', [], [aContent('t1', 'c2', 'news', { title: 'Watched two' })])
    assert.is((await search.search('t1', query('watched'))).total, 1, 'a change nobody announced waits for the poll')
    for (const listener of listeners) listener()
    assert.ok(await eventually(async () => (await search.search('t1', query('watched'))).total === 2))
    assert.ok(readings > before)
  } finally {
    await search.close()
  }
  assert.is(listeners.size, 0, 'closing stops watching')
})

test('with a watch, a lost wake-up costs at most pollMs', async ({ store, other }) => {
  await seed(store, 't1', [news], [aContent('t1', 'c1', 'news', { title: 'Polled one' })])
  const watching: SearchEngineStore = {
    feedPosition: () => store.feedPosition(),
    readChanges: (after, limit, tenantId) => store.readChanges(after, limit, tenantId),
    watchChanges: () => () => undefined,
    readSearchItems: (tenantId, range, limit) => store.readSearchItems(tenantId, range, limit),
    getCategory: (tenantId, id) => store.getCategory(tenantId, id),
    getContents: (tenantId, ids) => store.getContents(tenantId, ids),
    listCategories: (tenantId) => store.listCategories(tenantId),
    listContents: (tenantId, q) => store.listContents(tenantId, q),
    listTenants: () => store.listTenants(),
  }
  const search = createSearchEngine({ store: watching, warmUp: false, pollMs: 100 })
  try {
    assert.is((await search.search('t1', query('polled'))).total, 1)
    await seed(other, 't1', [], [aContent('t1', 'c2', 'news', { title: 'Polled two' })])
    assert.ok(await eventually(async () => (await search.search('t1', query('polled'))).total === 2, 1000))
  } finally {
    await search.close()
  }
})

test('a phrase of words more items share than the bound is looked for among the newest of them, as the scan reference looks', async ({ store, search }) => {
  // Items holding both words, most of them side by side, published a minute apart (some at the same minute: ties by id), with ids out of date order.
  const count = PHRASE_CANDIDATE_LIMIT + 60
  const items = Array.from({ length: count }, (_, i) =>
    aContent('ten_a', `p${String((i * 7919) % count).padStart(5, '0')}`, 'cat_a', {
      title: i % 3 === 0 ? 'lights on the harbour' : 'harbour lights tonight',
      published_at: new Date(Date.parse('2025-01-01T00:00:00.000Z') + Math.floor(i / 2) * 60_000).toISOString(),
    }),
  )
  await seed(store, 'ten_a', [aCategory('ten_a', 'cat_a')], items)
  const reference = createScanSearch(store)
  for (const text of ['"harbour lights"', '"lights on the harbour" tonight', '"harbour lights" -tonight']) {
    const asked: SearchQuery = { ...query(text), ...parseQuery(text), size: 100, sort: { kind: 'published_at', direction: 'desc' } }
    const [found, expected] = [await search.search('ten_a', asked), await reference.search('ten_a', asked)]
    // Scores are each engine's own (see `createScanSearch`): the page and the total must be the same.
    assert.equal([found.total, ids(found)], [expected.total, ids(expected)], text)
  }
  const all = await search.search('ten_a', { ...query('"harbour lights"'), ...parseQuery('"harbour lights"') })
  assert.ok(all.total > 0 && all.total < PHRASE_CANDIDATE_LIMIT, `${all.total}: among the newest ${PHRASE_CANDIDATE_LIMIT} having both words only`)
})

test('a phrase is looked for among the items holding its words whole: newer items with longer words beginning with them do not push its holders out', async ({ store, search }) => {
  // 1,000 newer items with `harbours lights` (its words as prefixes, not the phrase), 20 older ones holding `harbour lights`.
  const minute = (i: number) => new Date(Date.parse('2025-01-01T00:00:00.000Z') + i * 60_000).toISOString()
  const items = [
    ...Array.from({ length: 20 }, (_, i) => aContent('ten_w', `w${String(i).padStart(5, '0')}`, 'cat_w', { title: 'harbour lights tonight', published_at: minute(i) })),
    ...Array.from({ length: PHRASE_CANDIDATE_LIMIT }, (_, i) => aContent('ten_w', `x${String(i).padStart(5, '0')}`, 'cat_w', { title: 'harbours lightship', published_at: minute(100 + i) })),
  ]
  await seed(store, 'ten_w', [aCategory('ten_w', 'cat_w')], items)
  const reference = createScanSearch(store)
  for (const text of ['"harbour lights"', '"harbour"', '"harbour lights" tonight', '"harbours lights"']) {
    const asked: SearchQuery = { ...query(text), ...parseQuery(text), sort: { kind: 'published_at', direction: 'desc' } }
    const [found, expected] = [await search.search('ten_w', asked), await reference.search('ten_w', asked)]
    assert.equal([found.total, ids(found)], [expected.total, ids(expected)], text)
  }
  assert.is((await search.search('ten_w', { ...query('"harbour lights"'), ...parseQuery('"harbour lights"') })).total, 20)
})

test('a one-character word matches as a prefix only the words beginning with it that the most live items hold, as the scan reference finds them', async ({ store, search }) => {
  // Twelve words beginning with `q` (and twelve CJK terms with `ノ`), word k in 13 - k items; ties (two of 9) go to the shorter word, then the first.
  const words = ['quay', 'quest', 'quiet', 'quota', 'quick', 'quill', 'quaint', 'quorum', 'qi', 'quiz', 'quartz', 'quench']
  const kanji = [...'東西南北春夏秋冬朝昼夜空']
  const counts = [12, 11, 10, 9, 9, 8, 7, 6, 5, 4, 3, 2]
  const items: ContentRecord[] = []
  words.forEach((word, k) => {
    for (let i = 0; i < (counts[k] ?? 0); i++) items.push(aContent('ten_q', `q${k}-${i}`, 'cat_q', { title: `${word} notes${k === 11 && i === 0 ? ' q' : ''}`, summary: `の${kanji[k] ?? ''}`, body: '' }))
  })
  await seed(store, 'ten_q', [aCategory('ten_q', 'cat_q')], items)
  assert.ok(words.length > SHORT_PREFIX_WORDS)
  // Deleted items keep their postings until a compaction: `quay` and `quest` are then held by fewer live items than `quill`, `quaint` and `quorum`.
  assert.is((await search.search('ten_q', query('notes'))).total, items.length)
  await store.transaction(async (tx) => {
    for (let i = 0; i < 8; i++) for (const k of [0, 1]) await tx.deleteContent('ten_q', `q${k}-${i}`)
  })
  const reference = createScanSearch(store)
  for (const text of ['q', 'Q notes', 'notes -q', 'q z y', 'の', 'の q', '"q" notes', 'quay q']) {
    const asked: SearchQuery = { ...query(text), ...parseQuery(text), sort: { kind: 'published_at', direction: 'desc' } }
    const [found, expected] = [await search.search('ten_q', asked), await reference.search('ten_q', asked)]
    assert.equal([found.total, ids(found)], [expected.total, ids(expected)], text)
  }
  // The eight kept by live items: `quiet` 10, `quick` and `quota` 9, `quill` 8, `quaint` 7, `quorum` 6, `qi` 5, `quay` 4 (of 12, before `quiz`: a tie); and `q` itself.
  const found = new Set(ids(await search.search('ten_q', { ...query('q'), size: 200 })).map((id) => id.split('-')[0]))
  assert.equal([...found].sort(), ['q0', 'q11', 'q2', 'q3', 'q4', 'q5', 'q6', 'q7', 'q8'])
  // The same for `の` (as `ノ`): the eight bigrams after it the most live items hold; of the two held by 4, `ノ昼` (U+663C) before `ノ東` (U+6771).
  const after = new Set(ids(await search.search('ten_q', { ...query('の'), size: 200 })).map((id) => id.split('-')[0]))
  assert.equal([...after].sort(), ['q2', 'q3', 'q4', 'q5', 'q6', 'q7', 'q8', 'q9'])
})

test.run()
