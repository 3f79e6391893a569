import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openSqliteStore } from '@frontdesk/adapter-sqlite'
import type { SqliteStore } from '@frontdesk/adapter-sqlite'
import { SqliteFaults } from '@frontdesk/adapter-sqlite/test-faults'
import type { CategoryRecord, ContentRecord, SearchSourceItem, TagRecord } from '@frontdesk/core'
import { aCategory, aContent, aTag, aTenant } from '@frontdesk/core/testing'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import type { TenantSnapshot } from '../tenant/tenant-index.ts'
import { TenantSearchIndex } from '../tenant/tenant-index.ts'
import { buildTenantIndex } from './bulk-build.ts'
import { RangeIndexer } from './range-indexer.ts'
import type { ListSpill } from './list-spill.ts'
import { fileSpill } from './list-spill.ts'

interface World {
  dir: string
  path: string
  store: SqliteStore
  categories: CategoryRecord[]
}

const test = suite<World>('bulk build')

// A deterministic mix: English words (a long tail), Japanese runs (bigrams), Korean, marks, HTML, tags, custom fields.
const WORDS = ['lighthouse', 'harbour', 'museum', 'keeper', 'lamp', 'sensor', 'privacy', "don't", 'e-mail', '3.14', 'example.com', 'café', 'ﬁsh', 'ＡＢＣ']
const RUNS = ['オフィス移転のお知らせ', '夏季休業', 'ｶﾞｲﾄﾞ', '個人情報保護方針', '서울 지사', '葛󠄀飾区', 'カ\u3099ラス']

function corpus(n: number): { tags: TagRecord[]; items: ContentRecord[]; categories: CategoryRecord[] } {
  let seed = 12345
  const next = (m: number) => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0
    return (seed >>> 8) % m
  }
  const pick = <T>(list: readonly T[]) => list[next(list.length)] as T
  const text = (words: number) => Array.from({ length: words }, () => (next(3) === 0 ? pick(RUNS) : next(4) === 0 ? `rare${next(500)}` : pick(WORDS))).join(' ')
  const categories = [
    aCategory('t1', 'news', { fields: [{ id: 'f_area', name: 'area', type: 'select', options: ['東京', 'Osaka'], required: false }, { id: 'f_note', name: 'note', type: 'text', required: false }, { id: 'f_n', name: 'n', type: 'number', required: false }] }),
    aCategory('t1', 'blog'),
  ]
  const tags = Array.from({ length: 8 }, (_, i) => aTag('t1', `tag_${i}`, i % 2 === 0 ? `tag ${text(1)} ${i}` : `お知らせ${i}`))
  const items = Array.from({ length: n }, (_, i) => {
    const news = next(2) === 0
    const itemTags = tags.filter(() => next(4) === 0)
    return aContent('t1', `c${(i * 7919) % 100_003}`, news ? 'news' : 'blog', {
      title: text(1 + next(4)),
      summary: next(3) === 0 ? '' : text(next(12)),
      body: `<p>${text(next(80))}</p><ul><li>${text(next(5))}</li></ul>&amp; ${text(next(10))}`,
      status: next(6) === 0 ? 'draft' : 'published',
      published_at: next(8) === 0 ? null : `2025-0${1 + next(9)}-01T00:00:00.000Z`,
      tags: itemTags.map(({ id, name }) => ({ id, name })),
      fields: news ? { f_area: pick(['東京', 'Osaka']), ...(next(2) === 0 ? { f_note: text(3) } : {}), f_n: next(100) / 7 } : {},
    })
  })
  // A word 300 times (a frequency beyond the packed form's 127) and a long Japanese run.
  items.push(aContent('t1', 'c_many', 'blog', { body: `<p>${'lighthouse '.repeat(300)}${'移転'.repeat(200)}</p>` }))
  return { tags, items, categories }
}

test.before.each(async (ctx) => {
  ctx.dir = mkdtempSync(join(tmpdir(), 'frontdesk-bulk-'))
  ctx.path = join(ctx.dir, 'db.sqlite')
  ctx.store = openSqliteStore({ path: ctx.path })
  await ctx.store.createTenant(aTenant('t1'))
  await ctx.store.createTenant(aTenant('t2'))
  const { tags, items, categories } = corpus(400)
  ctx.categories = categories
  await ctx.store.transaction(async (tx) => {
    for (const category of categories) await tx.putCategory(category)
    for (const tag of tags) await tx.putTag(tag)
    for (const item of items) await tx.putContent(item)
    // Another tenant's items are never read.
    await tx.putCategory(aCategory('t2', 'news'))
    for (let i = 0; i < 30; i++) await tx.putContent(aContent('t2', `c${i}`, 'news', { title: 'lighthouse elsewhere' }))
  })
})

test.after.each(async (ctx) => {
  await ctx.store.close()
  rmSync(ctx.dir, { recursive: true, force: true })
})

/** The index as the build used to make it: every record of the store, upserted one by one in id order. */
async function oneByOne(ctx: World): Promise<TenantSearchIndex> {
  const index = new TenantSearchIndex(ctx.categories)
  const records = await ctx.store.listContents('t1', { visibility: { kind: 'all' }, sort: { key: 'id', direction: 'asc' }, limit: 10_000 })
  for (const record of records) index.upsert(record)
  return index
}

function plain(snapshot: TenantSnapshot) {
  const { postings, docs, ...rest } = snapshot
  const { json, ...columns } = docs
  // Hint: typed arrays as arrays of strings (NaN, never visible, is not equal to itself), the items' JSON as one text.
  const values = Object.fromEntries(Object.entries(columns).map(([key, value]) => [key, ArrayBuffer.isView(value) ? Array.from(value as Float64Array, String) : value]))
  return { ...rest, docs: { ...values, json: Buffer.concat(json instanceof Uint8Array ? [json] : [...json]).toString() }, postings: postings.flatMap((piece) => Array.from(piece)) }
}

/** Every item of t1, as the store gives a build. */
async function sourceItems(ctx: World): Promise<SearchSourceItem[]> {
  return ctx.store.readSearchItems('t1', { after: null }, 10_000)
}

for (const pageSize of [7, 500]) {
  test(`pages of ${pageSize}: the same index as upserting every item in id order`, async (ctx) => {
    const expected = plain((await oneByOne(ctx)).toSnapshot())
    const built = await buildTenantIndex(ctx.store, 't1', ctx.categories, { pageSize })
    assert.is(built.size, 401)
    const actual = plain(built.toSnapshot())
    assert.equal(actual.docs, expected.docs)
    assert.equal(actual.index, expected.index)
    assert.ok(actual.postings.length === expected.postings.length && actual.postings.every((p, i) => p === expected.postings[i]), 'same postings')
  })
}

test('per-document lists split over many chunks, kept or spilled to a file, give the same postings', async (ctx) => {
  const items = await sourceItems(ctx)
  const run = (chunkSize?: number, spill: ListSpill | null = null) => {
    const indexer = new RangeIndexer(ctx.categories, chunkSize, spill)
    for (const item of items) indexer.add(item)
    const { postings, used, terms, fieldTotals } = indexer.finish(0, [0, 0, 0, 0, 0])
    return { postings: Array.from(postings), used: Array.from(used), terms, fieldTotals }
  }
  const whole = run()
  for (const size of [1, 7, 64, 1000]) {
    assert.equal(run(size), whole, `chunks of ${size}`)
    assert.equal(run(size, fileSpill()), whole, `chunks of ${size}, spilled`)
  }
})

test('finishInOrder: items added shuffled, some twice, over many chunks, give what adding the live ones in order gives', async (ctx) => {
  const items = await sourceItems(ctx)
  const expected = (() => {
    const indexer = new RangeIndexer(ctx.categories)
    for (const item of items) indexer.add(item)
    const { postings, used, terms, cjk, docs, fieldTotals } = indexer.finish(3, [10, 20, 30, 40, 50])
    return { postings: Array.from(postings), used: Array.from(used), terms, cjk: Array.from(cjk), docs, fieldTotals }
  })()
  for (const [size, spill] of [1, 7, 1000, undefined].flatMap((size) => [[size, false], [size, true]] as const)) {
    const indexer = new RangeIndexer(ctx.categories, size, spill ? fileSpill() : null)
    const numbers = new Map<string, number>()
    // A stale copy of every third item first (its later copy wins), then all of them back to front.
    for (const [i, item] of items.entries()) {
      if (i % 3 !== 0) continue
      numbers.set(item.doc.id, indexer.size)
      indexer.add({ ...item, title: `${item.title} stale words only here`, body: '' })
    }
    for (const item of [...items].reverse()) {
      numbers.set(item.doc.id, indexer.size)
      indexer.add(item)
    }
    const order = Int32Array.from(items, (item) => numbers.get(item.doc.id) ?? -1)
    const { postings, used, terms, cjk, docs, fieldTotals } = indexer.finishInOrder(order, 3, [10, 20, 30, 40, 50])
    assert.equal({ postings: Array.from(postings), used: Array.from(used), terms, cjk: Array.from(cjk), docs, fieldTotals }, expected, `chunks of ${size ?? 'default'}${spill ? ', spilled' : ''}`)
  }
})

test('finishInPieces: the postings in pieces of at most so many, joined, are finish\'s and finishInOrder\'s, and so is the rest', async (ctx) => {
  const items = await sourceItems(ctx)
  const made = (order: Int32Array | null, maxPostings: number, spill: boolean) => {
    const indexer = new RangeIndexer(ctx.categories, 1000, spill ? fileSpill() : null)
    for (const item of items) indexer.add(item)
    if (maxPostings === 0) {
      const { postings, ...rest } = order === null ? indexer.finish(3, [10, 20, 30, 40, 50]) : indexer.finishInOrder(order, 3, [10, 20, 30, 40, 50])
      return { ...rest, used: Array.from(rest.used), cjk: Array.from(rest.cjk), postings: Array.from(postings), pieces: 1 }
    }
    const { postings, ...rest } = indexer.finishInPieces(order, 3, [10, 20, 30, 40, 50], maxPostings)
    const before = { ...rest, used: Array.from(rest.used), cjk: Array.from(rest.cjk) }
    const pieces = [...postings]
    const biggestTerm = Math.max(...before.used)
    assert.ok(pieces.every((piece) => piece.length <= Math.max(maxPostings, biggestTerm)), 'no piece larger than asked (or than one term)')
    return { ...before, postings: pieces.flatMap((piece) => Array.from(piece)), pieces: pieces.length }
  }
  const reversed = Int32Array.from(items.keys()).reverse().filter((n) => n % 5 !== 0)
  for (const order of [null, reversed]) {
    const expected = made(order, 0, false)
    for (const [maxPostings, spill] of [[1, false], [50, true], [777, false], [777, true], [Infinity, true]] as const) {
      const { pieces, ...got } = made(order, maxPostings, spill)
      assert.equal({ ...got, pieces: 1 }, expected, `pieces of ${maxPostings}${spill ? ', spilled' : ''}${order === null ? '' : ', in another order'}`)
      if (maxPostings < 1000) assert.ok(pieces > 1, `several pieces of ${maxPostings}`)
    }
  }
})

test('a tenant without items builds an empty index', async (ctx) => {
  const built = await buildTenantIndex(ctx.store, 'nobody', [], { pageSize: 10 })
  assert.is(built.size, 0)
})

test('a storage fault during the build fails it cleanly; the next build succeeds', async (ctx) => {
  const faults = SqliteFaults.install(ctx.path)
  try {
    for (let skip = 0; skip < 8; skip++) {
      faults.failNext('SQLITE_IOERR', Number.POSITIVE_INFINITY, { skip })
      const failed = await buildTenantIndex(ctx.store, 't1', ctx.categories, { pageSize: 50 }).then(() => false, () => true)
      faults.clear()
      assert.ok(failed, `a fault past ${skip} statements fails the build`)
      assert.not.ok(ctx.store.db.inTransaction, `after a fault past ${skip} statements`)
    }
  } finally {
    faults.uninstall()
  }
  assert.is((await buildTenantIndex(ctx.store, 't1', ctx.categories, { pageSize: 50 })).size, 401)
})

test.run()
