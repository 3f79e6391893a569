import { spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { SearchQuery, SnapshotStore } from '@frontdesk/core'
import { parseQueryTerms } from '@frontdesk/core'
import { aCategory, aContent, aTag, aTenant } from '@frontdesk/core/testing'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { openSqliteStore } from '@frontdesk/adapter-sqlite'
import type { SqliteStore } from '@frontdesk/adapter-sqlite'
import type { SearchBuildInfo, SearchEngineOptions } from '../search-engine.ts'
import { createSearchEngine } from '../search-engine.ts'
import { directorySnapshots, processRuns, readWhole } from './directory-snapshots.ts'
import { snapshotAfterImport, snapshotIsBehind } from './after-import.ts'
import { snapshotBacklog } from './snapshot-backlog.ts'

interface World {
  dir: string
  snapshots: string
  store: SqliteStore
  builds: SearchBuildInfo[]
}

const test = suite<World>('search snapshots')

test.before.each(async (ctx) => {
  ctx.dir = mkdtempSync(join(tmpdir(), 'frontdesk-snapshot-'))
  ctx.snapshots = join(ctx.dir, 'db.search')
  ctx.store = openSqliteStore({ path: join(ctx.dir, 'db.sqlite') })
  ctx.builds = []
  await ctx.store.createTenant(aTenant('t1'))
  await ctx.store.transaction(async (tx) => {
    await tx.putCategory(aCategory('t1', 'news'))
    await tx.putTag(aTag('t1', 'tag_a', 'alpha'))
    await tx.putContent(aContent('t1', 'c1', 'news', { title: 'Lighthouse keeper', tags: [aTag('t1', 'tag_a', 'alpha')] }))
    await tx.putContent(aContent('t1', 'c2', 'news', { title: 'Lighthouse museum' }))
  })
})

test.after.each(async (ctx) => {
  await ctx.store.close()
  rmSync(ctx.dir, { recursive: true, force: true })
})

const q = (text: string): SearchQuery => ({ terms: parseQueryTerms(text), now: '2026-01-01T00:00:00.000Z', categoryId: null, tags: null, filters: [], sort: { kind: 'relevance' }, from: 0, size: 10 })

function open(ctx: World, store: SqliteStore = ctx.store, options: Partial<SearchEngineOptions> = {}) {
  return createSearchEngine({ store, warmUp: false, snapshots: directorySnapshots(ctx.snapshots), onBuild: (info) => ctx.builds.push(info), ...options })
}

const ids = async (search: ReturnType<typeof open>, text: string) => (await search.search('t1', q(text))).hits.map((hit) => hit.id).sort()

/** `snapshotAfterImport`, holding `snapshotIsBehind` (what an import checks before handing the work off) to what it then did. */
async function afterImport(...args: Parameters<typeof snapshotAfterImport>): ReturnType<typeof snapshotAfterImport> {
  const behind = await snapshotIsBehind(args[0], args[1], args[2], args[3])
  const outcome = await snapshotAfterImport(...args)
  assert.is(behind, outcome === 'behind', `snapshotIsBehind said ${behind}, then ${outcome}`)
  return outcome
}

test('a built index is saved, restored on the next start and caught up with changes made meanwhile', async (ctx) => {
  const first = open(ctx)
  assert.equal(await ids(first, 'lighthouse'), ['c1', 'c2'])
  await first.close()
  assert.equal(readdirSync(ctx.snapshots), ['t1.index'])

  // Changes while no search index runs: an edit, a deletion, a new item, a renamed tag.
  await ctx.store.transaction(async (tx) => {
    await tx.putContent(aContent('t1', 'c2', 'news', { title: 'Harbour museum', version: 2 }))
    await tx.putContent(aContent('t1', 'c3', 'news', { title: 'Lighthouse lamp' }))
    await tx.deleteContent('t1', 'c1')
    await tx.putTag(aTag('t1', 'tag_a', 'beta'))
  })
  const second = open(ctx)
  assert.equal(await ids(second, 'lighthouse'), ['c3'])
  assert.equal(await ids(second, 'harbour'), ['c2'])
  assert.equal(ctx.builds.map((b) => b.source), ['store', 'snapshot'])
  assert.is(ctx.builds[1]?.items, 2)
  await second.close()

  const third = open(ctx)
  assert.equal(await ids(third, 'lamp'), ['c3'])
  assert.equal(ctx.builds.map((b) => b.source), ['store', 'snapshot', 'snapshot'])
  await third.close()
})

test('a snapshot of another database is not used', async (ctx) => {
  const first = open(ctx)
  await first.search('t1', q('lighthouse'))
  await first.close()
  const otherDir = mkdtempSync(join(tmpdir(), 'frontdesk-snapshot-other-'))
  const other = openSqliteStore({ path: join(otherDir, 'db.sqlite') })
  try {
    await other.createTenant(aTenant('t1'))
    await other.transaction(async (tx) => {
      await tx.putCategory(aCategory('t1', 'news'))
      await tx.putContent(aContent('t1', 'x1', 'news', { title: 'Other place' }))
      await tx.putContent(aContent('t1', 'x2', 'news', { title: 'Other thing' }))
      await tx.putTag(aTag('t1', 'tag_z', 'zeta'))
    })
    const search = open(ctx, other)
    assert.equal(await ids(search, 'lighthouse'), [])
    assert.equal(await ids(search, 'other'), ['x1', 'x2'])
    assert.is(ctx.builds[1]?.source, 'store')
    await search.close()
  } finally {
    await other.close()
    rmSync(otherDir, { recursive: true, force: true })
  }
})

test('an unreadable snapshot is ignored and the index is built from the database', async (ctx) => {
  const first = open(ctx)
  await first.search('t1', q('lighthouse'))
  await first.close()
  writeFileSync(join(ctx.snapshots, 't1.index'), 'FDSX{"format": 3, "truncated')
  const second = open(ctx)
  assert.equal(await ids(second, 'lighthouse'), ['c1', 'c2'])
  assert.equal(ctx.builds.map((b) => b.source), ['store', 'store'])
  await second.close()
})

test('a tenant rebuilt after many changes is built from the database, not from its older snapshot', async (ctx) => {
  const search = open(ctx, ctx.store, { rebuildThreshold: 3 })
  assert.equal(await ids(search, 'lighthouse'), ['c1', 'c2'])
  await ctx.store.transaction(async (tx) => {
    for (let i = 3; i < 10; i++) await tx.putContent(aContent('t1', `c${i}`, 'news', { title: `Lighthouse ${i}` }))
  })
  assert.is((await search.search('t1', q('lighthouse'))).total, 9)
  assert.equal(ctx.builds.map((b) => b.source), ['store', 'store'])
  await search.close()
})

test('a snapshot further behind than the rebuild threshold is not caught up item by item: the database is read instead', async (ctx) => {
  const first = open(ctx, ctx.store, { rebuildThreshold: 3 })
  await first.search('t1', q('lighthouse'))
  await first.close()
  await ctx.store.transaction(async (tx) => {
    for (let i = 3; i < 10; i++) await tx.putContent(aContent('t1', `c${i}`, 'news', { title: `Lighthouse ${i}` }))
  })
  const second = open(ctx, ctx.store, { rebuildThreshold: 3 })
  assert.is((await second.search('t1', q('lighthouse'))).total, 9)
  assert.equal(ctx.builds.map((b) => b.source), ['store', 'store'])
  await second.close()
})

test('saveSnapshot writes what another process restores; a running index far behind restores it instead of rebuilding', async (ctx) => {
  const server = open(ctx, ctx.store, { rebuildThreshold: 3 })
  assert.equal(await ids(server, 'lighthouse'), ['c1', 'c2'])
  // An import in another process: many changes in one commit, then its own index saves the snapshot.
  const cli = openSqliteStore({ path: join(ctx.dir, 'db.sqlite') })
  try {
    await cli.transaction(async (tx) => {
      for (let i = 3; i < 10; i++) await tx.putContent(aContent('t1', `c${i}`, 'news', { title: `Lighthouse ${i}` }))
    })
    const importer = open(ctx, cli, { rebuildThreshold: 3 })
    assert.is(await importer.saveSnapshot('t1'), true)
    assert.is(await importer.saveSnapshot('t1'), true, 'an up-to-date snapshot is not written again')
    await importer.close()
  } finally {
    await cli.close()
  }
  assert.is((await server.search('t1', q('lighthouse'))).total, 9)
  assert.equal(ctx.builds.map((b) => b.source), ['store', 'store', 'snapshot'])
  await server.close()
})

test('saveSnapshot answers false when the snapshot cannot be written; searching still works', async (ctx) => {
  writeFileSync(join(ctx.dir, 'not-a-dir'), '')
  const search = open(ctx, ctx.store, { snapshots: directorySnapshots(join(ctx.dir, 'not-a-dir', 'db.search')) })
  assert.is(await search.saveSnapshot('t1'), false)
  assert.is(await search.saveSnapshot('t1'), false)
  assert.equal(await ids(search, 'lighthouse'), ['c1', 'c2'])
  await search.close()
  const none = open(ctx, ctx.store, { snapshots: null })
  assert.is(await none.saveSnapshot('t1'), false)
  await none.close()
})

test('snapshots are written once per change, private to their owner, and none without a place for them', async (ctx) => {
  const first = open(ctx)
  await first.search('t1', q('lighthouse'))
  assert.equal(readdirSync(ctx.snapshots), ['t1.index'])
  assert.is(statSync(ctx.snapshots).mode & 0o777, 0o700)
  assert.is(statSync(join(ctx.snapshots, 't1.index')).mode & 0o777, 0o600)
  const written = statSync(join(ctx.snapshots, 't1.index')).mtimeMs
  await new Promise((resolve) => setTimeout(resolve, 20))
  await first.close()
  assert.is(statSync(join(ctx.snapshots, 't1.index')).mtimeMs, written, 'an unchanged index is not written again on close')
  rmSync(ctx.snapshots, { recursive: true, force: true })
  const off = createSearchEngine({ store: ctx.store, warmUp: false })
  await off.search('t1', q('lighthouse'))
  assert.is(await off.saveSnapshot('t1'), false)
  await off.close()
  assert.not.ok(existsSync(ctx.snapshots))
})

test('a snapshot written in many pieces, long runs of empty ones among them, is written whole', async (ctx) => {
  const snapshots = directorySnapshots(ctx.snapshots)
  const pieces = [new Uint8Array([1]), ...Array.from({ length: 3000 }, () => new Uint8Array(0)), new Uint8Array([2, 3]), ...Array.from({ length: 1500 }, (_, i) => new Uint8Array(i % 700 === 0 ? [4] : []))]
  assert.is(await snapshots.write('t1', pieces), true)
  assert.equal(Array.from((await snapshots.read('t1')) ?? []), [1, 2, 3, 4, 4, 4])
})

test('a snapshot is read whole whatever the size of the pieces it is read in; an empty one too', async (ctx) => {
  mkdirSync(ctx.snapshots, { recursive: true })
  const bytes = Uint8Array.from({ length: 1000 }, (_, i) => (i * 7) % 256)
  writeFileSync(join(ctx.snapshots, 't1.index'), bytes)
  for (const piece of [1, 3, 64, 999, 1000, 4096]) assert.equal(Array.from(await readWhole(join(ctx.snapshots, 't1.index'), piece)), Array.from(bytes), `pieces of ${piece}`)
  writeFileSync(join(ctx.snapshots, 't2.index'), new Uint8Array(0))
  assert.equal(Array.from((await directorySnapshots(ctx.snapshots).read('t2')) ?? [9]), [])
  assert.is(await directorySnapshots(ctx.snapshots).read('t3'), null)
})

test('a write removes the temporary files of its name left by processes that no longer run, and only those', async (ctx) => {
  const dead = spawnSync(process.execPath, ['-e', '0']).pid ?? 0
  mkdirSync(ctx.snapshots, { recursive: true })
  const left = [`t1.index.${dead}.0badc0de.tmp`, `t1.index.${process.pid}.0badc0de.tmp`, `t2.index.${dead}.0badc0de.tmp`, `t1.index.${dead}.notours.tmp`]
  for (const name of left) writeFileSync(join(ctx.snapshots, name), 'half a snapshot')
  assert.is(await directorySnapshots(ctx.snapshots).write('t1', [new Uint8Array([1])]), true)
  assert.equal(readdirSync(ctx.snapshots).sort(), ['t1.index', ...left.slice(1)].sort())
})

test('a process that ended but was not reaped (a zombie) does not run; its parent, alive, does', async () => {
  // Hint: the shell's background child is left to a parent that never waits for it (sleep), as an orphaned refresh is left to an init that does not reap.
  const parent = spawn('/bin/sh', ['-c', 'sleep 30 & echo $!; exec sleep 30'], { stdio: ['ignore', 'pipe', 'ignore'] })
  try {
    const child = Number(await new Promise<string>((resolve) => parent.stdout.once('data', (chunk: Buffer) => resolve(chunk.toString()))))
    assert.ok(processRuns(child))
    process.kill(child, 'SIGKILL')
    for (let waited = 0; waited < 5_000 && !readFileSync(`/proc/${child}/stat`, 'latin1').includes(') Z'); waited += 10) await new Promise((resolve) => setTimeout(resolve, 10))
    process.kill(child, 0)
    assert.not.ok(processRuns(child), 'a zombie')
    assert.ok(processRuns(parent.pid ?? 0), 'its parent')
  } finally {
    parent.kill('SIGKILL')
  }
})

test('a snapshot store never reads nor writes a name that is no plain file name', async (ctx) => {
  const snapshots = directorySnapshots(ctx.snapshots)
  for (const name of ['../escape', 'a/b', '', '.', 'x'.repeat(65)]) {
    assert.is(await snapshots.write(name, [new Uint8Array([1, 2, 3])]), false, JSON.stringify(name))
    assert.is(await snapshots.read(name), null)
  }
  assert.not.ok(existsSync(join(ctx.dir, 'escape.index')))
  assert.is(await snapshots.write('ten_1', [new Uint8Array([1, 2]), new Uint8Array([3])]), true)
  assert.equal(Array.from((await snapshots.read('ten_1')) ?? []), [1, 2, 3])
})

test('closing after the store was closed still succeeds; an unchanged index is not written again', async (ctx) => {
  const store = openSqliteStore({ path: join(ctx.dir, 'db.sqlite') })
  const search = open(ctx, store)
  await search.search('t1', q('lighthouse'))
  rmSync(ctx.snapshots, { recursive: true, force: true })
  await store.close()
  await search.close()
  assert.equal(readdirSync(ctx.dir).includes('db.search'), false)
})

/** The directory's snapshots, counting whole reads and writes. */
function counted(dir: string): SnapshotStore & { reads: number; writes: number } {
  const inner = directorySnapshots(dir)
  const store = {
    reads: 0,
    writes: 0,
    read: (name: string) => {
      store.reads++
      return inner.read(name)
    },
    readStart: (name: string, length: number) => inner.readStart?.(name, length) ?? Promise.resolve(null),
    write: (name: string, chunks: readonly Uint8Array[]) => {
      store.writes++
      return inner.write(name, chunks)
    },
  }
  return store
}

test('after an import, a snapshot a few changes behind is left as it is (only its lead is read); beyond the limit a delta is written, the snapshot kept', async (ctx) => {
  const first = open(ctx)
  await first.saveSnapshot('t1')
  await first.close()
  const snapshots = counted(ctx.snapshots)
  const base = readFileSync(join(ctx.snapshots, 't1.index'))
  assert.equal(await snapshotBacklog(ctx.store, snapshots, 't1', 3), { items: 2, changes: 0 })
  const edit = (n: number) => ctx.store.transaction(async (tx) => {
    await tx.putContent(aContent('t1', `c${n}`, 'news', { title: `Lighthouse lens ${n}` }))
  })
  for (let n = 3; n <= 5; n++) {
    await edit(n)
    assert.is(await afterImport(ctx.store, snapshots, 't1', { catchUpLimit: 3 }), 'behind')
  }
  assert.equal([snapshots.reads, snapshots.writes], [0, 0], 'a snapshot at most 3 changes behind is neither read whole nor written')
  assert.equal(await snapshotBacklog(ctx.store, snapshots, 't1', 3), { items: 2, changes: 3 })
  await edit(6)
  assert.equal(await snapshotBacklog(ctx.store, snapshots, 't1', 3), { items: 2, changes: 4 }, 'counted up to the limit + 1')
  assert.is(await afterImport(ctx.store, snapshots, 't1', { catchUpLimit: 3 }), 'delta')
  assert.equal([snapshots.reads, snapshots.writes], [0, 1], 'only the delta is written; the snapshot is not read whole')
  assert.ok(readFileSync(join(ctx.snapshots, 't1.index')).equals(base), 'the snapshot is left as it was')
  // A delete and a few more edits: the next delta holds the old one's items and the new ones.
  await ctx.store.transaction(async (tx) => {
    await tx.deleteContent('t1', 'c2')
  })
  for (let n = 7; n <= 9; n++) await edit(n)
  assert.is(await afterImport(ctx.store, snapshots, 't1', { catchUpLimit: 3 }), 'delta')
  await edit(10)
  assert.is(await afterImport(ctx.store, snapshots, 't1', { catchUpLimit: 3 }), 'behind')
  // A start restores the snapshot, the delta over it and the change after it; it does not touch the store's other items.
  const server = open(ctx, ctx.store, { snapshots: { read: (name) => directorySnapshots(ctx.snapshots).read(name), write: async () => false } })
  assert.equal(await ids(server, 'lens'), ['c10', 'c3', 'c4', 'c5', 'c6', 'c7', 'c8', 'c9'])
  assert.equal(await ids(server, 'museum'), [], 'removed by the delta')
  assert.equal(ctx.builds.map((b) => b.source), ['store', 'snapshot'])
  await server.close()
  // A delta that would hold more items than allowed: the snapshot is written again, and the old delta, made over the old snapshot, is never applied.
  for (let n = 11; n <= 14; n++) await edit(n)
  assert.is(await afterImport(ctx.store, snapshots, 't1', { catchUpLimit: 3, deltaItems: 5 }), 'saved')
  assert.equal(await snapshotBacklog(ctx.store, snapshots, 't1', 3), { items: 13, changes: 0 })
  await edit(15)
  const again = open(ctx)
  assert.is((await again.search('t1', q('lens'))).total, 13)
  assert.equal(await ids(again, 'keeper'), ['c1'])
  assert.equal(ctx.builds.at(-1)?.source, 'snapshot')
  await again.close()
})

test('a delta of another tenant, snapshot, version or layout (an older one\'s too), or a damaged one, is never applied', async (ctx) => {
  const first = open(ctx)
  await first.saveSnapshot('t1')
  await first.close()
  for (let n = 3; n <= 6; n++) {
    await ctx.store.transaction(async (tx) => {
      await tx.putContent(aContent('t1', `c${n}`, 'news', { title: `Lighthouse lens ${n}` }))
    })
  }
  assert.is(await afterImport(ctx.store, directorySnapshots(ctx.snapshots), 't1', { catchUpLimit: 2 }), 'delta')
  const file = join(ctx.snapshots, 't1-delta.index')
  const good = readFileSync(file)
  const lead = good.subarray(0, 300).toString('latin1')
  const damaged: Buffer[] = []
  for (const [from, to] of [['"format":', '"format":9'], ['"analyzer":', '"analyzer":9'], ['"delta":2', '"delta":1'], ['"tenantId":"t1"', '"tenantId":"t2"'], ['"base":"', '"base":"9'], ['FDSD', 'FDSL']] as const) {
    const at = lead.indexOf(from)
    assert.ok(at >= 0, from)
    const bad = Buffer.from(good)
    bad.write(to, at, 'latin1')
    damaged.push(bad)
  }
  damaged.push(good.subarray(0, good.length - 10), good.subarray(0, good.length - 12))
  // A delta as the version before analysed terms wrote it (no layout in its lead, the items' records in its body): a start does not read it.
  const leadLength = good.readUInt32LE(4)
  const { delta: _layout, ...olderLead } = JSON.parse(good.subarray(8, 8 + leadLength).toString('utf8')) as Record<string, unknown>
  const records = (await ctx.store.getContents('t1', ['c3', 'c4', 'c5', 'c6'])).filter((record) => record !== null)
  const olderLeadBytes = Buffer.from(JSON.stringify(olderLead))
  const olderStart = Buffer.alloc(8)
  olderStart.write('FDSD', 0, 'latin1')
  olderStart.writeUInt32LE(olderLeadBytes.length, 4)
  damaged.push(Buffer.concat([olderStart, olderLeadBytes, Buffer.from(JSON.stringify({ categories: [aCategory('t1', 'news')], records, removed: [] }))]))
  // A delta that is not applied leaves more changes to replay than the start allows (2): it builds from the store, and answers right.
  for (const bad of damaged) {
    writeFileSync(file, bad)
    const server = open(ctx, ctx.store, { rebuildThreshold: 2, snapshots: { read: (name) => directorySnapshots(ctx.snapshots).read(name), write: async () => false } })
    assert.equal(await ids(server, 'lens'), ['c3', 'c4', 'c5', 'c6'])
    assert.is(ctx.builds.at(-1)?.source, 'store')
    await server.close()
  }
  writeFileSync(file, good)
  const server = open(ctx, ctx.store, { rebuildThreshold: 2, snapshots: { read: (name) => directorySnapshots(ctx.snapshots).read(name), write: async () => false } })
  assert.equal(await ids(server, 'lens'), ['c3', 'c4', 'c5', 'c6'])
  assert.is(ctx.builds.at(-1)?.source, 'snapshot')
  await server.close()
})

test('a snapshot of another format, analyzer version or layout is never trusted: an import writes it again, a start builds from the store', async (ctx) => {
  const first = open(ctx)
  await first.saveSnapshot('t1')
  await first.close()
  const file = join(ctx.snapshots, 't1.index')
  const good = readFileSync(file)
  const lead = good.subarray(0, 200).toString('latin1')
  for (const [from, to] of [['"format":', '"format":9'], ['"analyzer":', '"analyzer":9'], ['FDSL', 'FDSX']] as const) {
    const at = lead.indexOf(from)
    assert.ok(at >= 0, from)
    const bad = Buffer.from(good)
    bad.write(to, at, 'latin1')
    writeFileSync(file, bad)
    assert.is(await snapshotBacklog(ctx.store, directorySnapshots(ctx.snapshots), 't1', 100), null, to)
    await ctx.store.transaction(async (tx) => {
      await tx.putContent(aContent('t1', 'c9', 'news', { title: `Lighthouse ${to}` }))
    })
    const server = open(ctx, ctx.store, { snapshots: { read: (name) => directorySnapshots(ctx.snapshots).read(name), write: async () => false } })
    assert.equal(await ids(server, 'lighthouse'), ['c1', 'c2', 'c9'])
    assert.is(ctx.builds.at(-1)?.source, 'store', to)
    await server.close()
    assert.is(await afterImport(ctx.store, directorySnapshots(ctx.snapshots), 't1', { catchUpLimit: 100 }), 'saved', to)
    assert.equal(await snapshotBacklog(ctx.store, directorySnapshots(ctx.snapshots), 't1', 100), { items: 3, changes: 0 })
    writeFileSync(file, good)
  }
})

test.run()
