import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openSqliteStore } from '@frontdesk/adapter-sqlite'
import type { SqliteStore } from '@frontdesk/adapter-sqlite'
import type { CategoryRecord, ContentRecord, ContentWriter, SnapshotStore, TagRecord } from '@frontdesk/core'
import { aCategory, aContent, aTag, aTenant } from '@frontdesk/core/testing'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { createSearchEngine } from '../search-engine.ts'
import { directorySnapshots } from '../snapshots/directory-snapshots.ts'
import { indexWhileImporting } from './import-index.ts'

interface World {
  dir: string
  path: string
  store: SqliteStore
}

const test = suite<World>('indexing while importing')

test.before.each(async (ctx) => {
  ctx.dir = mkdtempSync(join(tmpdir(), 'frontdesk-import-index-'))
  ctx.path = join(ctx.dir, 'frontdesk.db')
  ctx.store = openSqliteStore({ path: ctx.path })
  await ctx.store.createTenant(aTenant('t1'))
  await ctx.store.createTenant(aTenant('t2'))
})

test.after.each(async (ctx) => {
  await ctx.store.close()
  rmSync(ctx.dir, { recursive: true, force: true })
})

const snapshotFileName = (tenantId: string) => `${tenantId}.index`
const snapshotsOf = (ctx: World) => directorySnapshots(`${ctx.path}.search`)

const WORDS = ['lighthouse', 'harbour', 'museum', 'keeper', 'lamp', "don't", '3.14', 'café', 'ＡＢＣ', 'オフィス移転のお知らせ', '夏季休業', '서울 지사', 'カ\u3099ラス']

/** A deterministic mix of categories (one with text, select and number fields), tags and items, their ids out of order. */
function corpus(n: number): { categories: CategoryRecord[]; tags: TagRecord[]; items: ContentRecord[] } {
  let seed = 777
  const next = (m: number) => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0
    return (seed >>> 8) % m
  }
  const text = (words: number) => Array.from({ length: words }, () => (next(4) === 0 ? `rare${next(300)}` : WORDS[next(WORDS.length)])).join(' ')
  const categories = [
    aCategory('t1', 'news', { fields: [{ id: 'f_area', name: 'area', type: 'select', options: ['東京', 'Osaka'], required: false }, { id: 'f_note', name: 'note', type: 'text', required: false }, { id: 'f_n', name: 'n', type: 'number', required: false }] }),
    aCategory('t1', 'blog'),
  ]
  const tags = Array.from({ length: 6 }, (_, i) => aTag('t1', `tag_${i}`, i % 2 === 0 ? `tag ${text(1)}` : `お知らせ${i}`))
  const items = Array.from({ length: n }, (_, i) => {
    const news = next(2) === 0
    return aContent('t1', `c${(i * 7919) % 100_003}`, news ? 'news' : 'blog', {
      title: text(1 + next(4)),
      summary: next(3) === 0 ? '' : text(next(10)),
      body: `<p>${text(next(60))}</p>&amp; ${text(next(5))}`,
      status: next(6) === 0 ? 'draft' : 'published',
      published_at: next(8) === 0 ? null : `2025-0${1 + next(9)}-01T00:00:00.000Z`,
      tags: tags.filter(() => next(4) === 0).map(({ id, name }) => ({ id, name })),
      // Hint: keys out of field id order on purpose (the build reads them in order).
      fields: news ? { f_note: text(2), f_area: next(2) === 0 ? '東京' : 'Osaka', f_n: next(100) / 7 } : {},
    })
  })
  return { categories, tags, items }
}

/** Runs `work` as the next transaction of the store, indexed alongside; the outcome after the commit, or of a failed one. */
async function importing(ctx: World, work: (tx: ContentWriter) => Promise<void>): Promise<string> {
  const indexing = indexWhileImporting({ tenantId: 't1', snapshots: snapshotsOf(ctx) })
  try {
    await ctx.store.transaction(work, { bulk: true, observer: indexing.observer })
  } catch (error) {
    await indexing.abandon()
    throw error
  }
  return indexing.finish()
}

/** The snapshot file saved beside the database, and the one a build from the database writes now. */
async function bothSnapshots(ctx: World, inDirectory = true): Promise<{ imported: Buffer; rebuilt: Buffer }> {
  const rebuiltDir = join(ctx.dir, 'rebuilt')
  const search = createSearchEngine({ store: ctx.store, warmUp: false, snapshots: directorySnapshots(rebuiltDir) })
  try {
    assert.ok(await search.saveSnapshot('t1'))
  } finally {
    await search.close()
  }
  const rebuilt = readFileSync(join(rebuiltDir, snapshotFileName('t1')))
  return { imported: inDirectory ? readFileSync(join(`${ctx.path}.search`, snapshotFileName('t1'))) : Buffer.alloc(0), rebuilt }
}

const snapshotPath = (ctx: World) => join(`${ctx.path}.search`, snapshotFileName('t1'))

test('items written out of id order, some twice, some deleted: the snapshot a build from the database writes, byte for byte', async (ctx) => {
  const { categories, tags, items } = corpus(300)
  const outcome = await importing(ctx, async (tx) => {
    for (const category of categories) await tx.putCategory(category)
    for (const tag of tags) await tx.putTag(tag)
    for (const item of items) await tx.putContent(item)
    // Written again (changed), deleted, and another tenant's items: none of them as first written.
    for (const item of items.slice(0, 40)) await tx.putContent({ ...item, title: `${item.title} lighthouse again`, fields: {} })
    for (const item of items.slice(40, 60)) await tx.deleteContent('t1', item.id)
    await tx.putCategory(aCategory('t2', 'news'))
    await tx.putContent(aContent('t2', 'c_other', 'news', { title: 'lighthouse elsewhere' }))
    // A category changed in a way the index does not see (its name), after its items.
    await tx.putCategory({ ...(categories[1] as CategoryRecord), name: 'Renamed' })
  })
  assert.is(outcome, 'saved')
  assert.equal(readdirSync(`${ctx.path}.search`), [snapshotFileName('t1')], 'published, no temporary file left')
  const { imported, rebuilt } = await bothSnapshots(ctx)
  assert.ok(imported.equals(rebuilt), 'same bytes')
})

test('a category whose indexed fields change after its items were analysed: not used, nothing written', async (ctx) => {
  const { categories, tags, items } = corpus(20)
  const news = categories[0] as CategoryRecord
  const outcome = await importing(ctx, async (tx) => {
    for (const category of categories) await tx.putCategory(category)
    for (const tag of tags) await tx.putTag(tag)
    for (const item of items) await tx.putContent(item)
    await tx.putCategory({ ...news, fields: news.fields.filter((field) => field.id !== 'f_note') })
  })
  assert.is(outcome, 'unused')
  assert.not.ok(existsSync(snapshotPath(ctx)))
})

test('a tag renamed after items carrying it were analysed: not used', async (ctx) => {
  const { categories, tags, items } = corpus(40)
  const outcome = await importing(ctx, async (tx) => {
    for (const category of categories) await tx.putCategory(category)
    for (const tag of tags) await tx.putTag(tag)
    for (const item of items) await tx.putContent(item)
    for (const tag of tags) await tx.putTag({ ...tag, name: `${tag.name} renamed` })
  })
  assert.is(outcome, 'unused')
})

test('a tenant that already has items: not used (the import is indexed from the database afterwards)', async (ctx) => {
  const { categories, tags, items } = corpus(10)
  await ctx.store.transaction(async (tx) => {
    for (const category of categories) await tx.putCategory(category)
    for (const tag of tags) await tx.putTag(tag)
    await tx.putContent(items[0] as ContentRecord)
  })
  const outcome = await importing(ctx, async (tx) => {
    for (const item of items.slice(1)) await tx.putContent(item)
  })
  assert.is(outcome, 'unused')
  assert.not.ok(existsSync(snapshotPath(ctx)))
})

test('a rolled-back import leaves no snapshot', async (ctx) => {
  const { categories, tags, items } = corpus(30)
  let failure: unknown = null
  try {
    await importing(ctx, async (tx) => {
      for (const category of categories) await tx.putCategory(category)
      for (const tag of tags) await tx.putTag(tag)
      for (const item of items) await tx.putContent(item)
      throw new Error('bad record')
    })
  } catch (error) {
    failure = error
  }
  assert.match(String(failure), /bad record/)
  assert.not.ok(existsSync(`${ctx.path}.search`))
})

test('abandoned after the commit (the caller gives up): no snapshot written', async (ctx) => {
  const { categories, tags, items } = corpus(50)
  const indexing = indexWhileImporting({ tenantId: 't1', snapshots: snapshotsOf(ctx) })
  await ctx.store.transaction(async (tx) => {
    for (const category of categories) await tx.putCategory(category)
    for (const tag of tags) await tx.putTag(tag)
    for (const item of items) await tx.putContent(item)
  }, { observer: indexing.observer })
  // Hint: give the worker time to hand its snapshot over first.
  await new Promise((resolve) => setTimeout(resolve, 300))
  await indexing.abandon()
  assert.equal(existsSync(`${ctx.path}.search`) ? readdirSync(`${ctx.path}.search`) : [], [])
})

test('a snapshot directory that cannot be created: unwritable, the import stands', async (ctx) => {
  const { categories, tags, items } = corpus(10)
  // Hint: a file where the snapshot directory would be.
  writeFileSync(`${ctx.path}.search`, 'not a directory')
  const outcome = await importing(ctx, async (tx) => {
    for (const category of categories) await tx.putCategory(category)
    for (const tag of tags) await tx.putTag(tag)
    for (const item of items) await tx.putContent(item)
  })
  assert.is(outcome, 'unwritable')
})

test('a snapshot store without staging files gets the same snapshot, written after the commit; a directory leaves no temporary file', async (ctx) => {
  const { categories, tags, items } = corpus(120)
  const saved = new Map<string, Uint8Array>()
  const memory: SnapshotStore = {
    read: async (name) => saved.get(name) ?? null,
    write: async (name, chunks) => {
      saved.set(name, Buffer.concat(chunks))
      return true
    },
  }
  const write = async (tx: ContentWriter) => {
    for (const category of categories) await tx.putCategory(category)
    for (const tag of tags) await tx.putTag(tag)
    for (const item of items) await tx.putContent(item)
  }
  const indexing = indexWhileImporting({ tenantId: 't1', snapshots: memory })
  await ctx.store.transaction(write, { bulk: true, observer: indexing.observer })
  assert.is(await indexing.finish(), 'saved')
  const { rebuilt } = await bothSnapshots(ctx, false)
  assert.ok(Buffer.from(saved.get('t1') ?? []).equals(rebuilt), 'same bytes')
})

test('without a place for snapshots: nothing is indexed alongside', async (ctx) => {
  const indexing = indexWhileImporting({ tenantId: 't1', snapshots: null })
  await ctx.store.transaction(async (tx) => tx.putCategory(aCategory('t1', 'news')), { observer: indexing.observer })
  assert.is(await indexing.finish(), 'unused')
})

test('an observer that sees nothing (no transaction ran): unused, and the worker stops', async () => {
  const indexing = indexWhileImporting({ tenantId: 't1', snapshots: directorySnapshots(join(tmpdir(), 'frontdesk-never-written')) })
  assert.is(await indexing.finish(), 'unused')
  await indexing.abandon()
  assert.not.ok(existsSync(join(tmpdir(), 'frontdesk-never-written')))
})

test.run()
