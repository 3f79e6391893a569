// `frontdesk import` killed with SIGKILL at any moment (the binary in a child process, rebuilt
// here first): the database holds the whole import or none of it, the snapshot the next start
// reads is the previous one or one of the import's, never a part of one, the start answers as
// an index built from the database, and the next write of the snapshot removes what the killed
// process left in the snapshot directory.
import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { admin, adminQuery, postgresSuite } from '@frontdesk/adapter-postgres/testing'
import { openStore } from '../src/session.ts'
import { frontdesk, startAndCompare } from './util/bin-import.ts'

const root = fileURLToPath(new URL('../../..', import.meta.url))
const ITEMS = 600
const WORDS = ['lighthouse', 'harbour', 'keeper', 'lamp', 'museum', 'ship', 'anchor', 'tide']
/** What the starts are asked: every word, each version's marker and a pair. */
const TEXTS = [...WORDS, 'v0', 'v1', 'v2', 'v3', 'v4', 'v5', 'v6', 'lamp anchor']

const test = suite<{ dir: string; db: string; searchDir: string }>('frontdesk import killed at any moment', { dir: '', db: '', searchDir: '' })
test.before(() => {
  // Hint: always rebuilt, so that the binary matches the source this test opens the database with.
  const built = spawnSync(process.execPath, [join(root, 'scripts/build.mjs')], { encoding: 'utf8', timeout: 60_000 })
  assert.is(built.status, 0, built.stderr)
})
test.before.each((context) => {
  context.dir = mkdtempSync(join(tmpdir(), 'frontdesk-import-killed-'))
  context.db = join(context.dir, 'frontdesk.db')
  context.searchDir = join(context.dir, 'search')
})
test.after.each((context) => {
  rmSync(context.dir, { recursive: true, force: true })
})

/** Every item in its version `version` (the title says which); `padding`: that many more words in each body. */
function items(dir: string, version: number, padding = 0): string {
  const path = join(dir, `v${version}.ndjson`)
  const lines = [JSON.stringify({ kind: 'category', code: 'news', name: 'News' })]
  for (let i = 0; i < ITEMS; i++) {
    const words = [0, 1, 2].map((k) => WORDS[(i * 3 + k * 5 + version) % WORDS.length]).join(' ')
    const more = `${WORDS[i % WORDS.length]} `.repeat(padding)
    lines.push(JSON.stringify({ kind: 'content', slug: `item-${i}`, title: `v${version} ${words}`, body: `<p>${words} ${more}${i}</p>`, category_code: 'news', status: 'published', published_at: '2025-01-01T00:00:00Z' }))
  }
  writeFileSync(path, `${lines.join('\n')}\n`)
  return path
}

/** The versions the database holds (one when an import applied wholly or not at all). */
async function versionsIn(db: string): Promise<Set<string>> {
  const store = await openStore(db)
  try {
    const tenant = await store.getTenantByCode('acme')
    const all = await store.listContents(tenant?.id ?? '', { visibility: { kind: 'all' }, sort: { key: 'id', direction: 'asc' }, limit: ITEMS + 1 })
    assert.is(all.length, ITEMS)
    return new Set(all.map((item) => item.title.split(' ')[0] ?? ''))
  }
  finally {
    await store.close()
  }
}

test('kill -9 during an import: all or nothing in the database, a whole snapshot and delta or the previous ones, leftovers removed by the next write', async ({ dir, db, searchDir }) => {
  const args = ['--db', db, '--search-dir', searchDir]
  assert.is((await frontdesk([...args, 'tenant', 'create', 'acme'], {})).code, 0)
  const first = await frontdesk([...args, 'import', items(dir, 0), '--tenant', 'acme'], {})
  assert.is(first.code, 0, first.stderr)
  // Hint: an import that rewrites the snapshot every time, one that writes its delta every time (the windows a kill must not break), and one that leaves both.
  // The import writes them itself (FRONTDESK_SEARCH_REFRESH=wait); a refresh of its own process killed is search-refresh.test.ts's.
  const rewrite = { FRONTDESK_SEARCH_CATCH_UP: '0', FRONTDESK_SEARCH_DELTA_ITEMS: '0', FRONTDESK_SEARCH_REFRESH: 'wait' }
  const delta = { FRONTDESK_SEARCH_CATCH_UP: '0', FRONTDESK_SEARCH_REFRESH: 'wait' }
  const modes = [rewrite, {}, delta, rewrite, delta]
  const timings = [60, 300, 550, 800, 1100]
  let killed = 0
  for (const [k, ms] of timings.entries()) {
    const version = k + 1
    const result = await frontdesk([...args, 'import', items(dir, version), '--tenant', 'acme'], modes[k] ?? {}, ms)
    if (result.code === null) killed++
    else assert.is(result.code, 0, result.stderr)
    const versions = await versionsIn(db)
    assert.is(versions.size, 1, `killed after ${ms} ms: ${[...versions].join(', ')}`)
    const build = await startAndCompare(db, searchDir, TEXTS)
    assert.is(build?.source, 'snapshot', `killed after ${ms} ms: the snapshot left is usable`)
  }
  assert.ok(killed > 0, 'some imports were killed before they ended')
  // The next writes of the snapshot and of its delta remove what killed writes of each left.
  for (const [version, env] of [[8, rewrite], [9, delta]] as const) {
    const last = await frontdesk([...args, 'import', items(dir, version), '--tenant', 'acme'], env)
    assert.is(last.code, 0, last.stderr)
  }
  assert.equal(readdirSync(searchDir).filter((name) => !name.endsWith('.index')), [], 'no temporary file is left')
  assert.is(readdirSync(searchDir).length, 2, 'the snapshot and its delta')
  assert.equal([...(await versionsIn(db))], ['v9'])
  assert.is((await startAndCompare(db, searchDir, TEXTS))?.source, 'snapshot')
})

test('an import refused by a full disk: the database and the snapshot as they were, one error line, and the next import applies', async ({ dir, db, searchDir }) => {
  const args = ['--db', db, '--search-dir', searchDir]
  assert.is((await frontdesk([...args, 'tenant', 'create', 'acme'], {})).code, 0)
  assert.is((await frontdesk([...args, 'import', items(dir, 0), '--tenant', 'acme'], {})).code, 0)
  const snapshot = () => readdirSync(searchDir).map((name) => [name, readFileSync(join(searchDir, name))] as const)
  const before = snapshot()
  // Hint: the files may grow by a little, far less than the next import's items need (their bodies are ~100 times larger).
  const largest = Math.max(...[db, `${db}-wal`, ...readdirSync(searchDir).map((name) => join(searchDir, name))].map((path) => (existsSync(path) ? statSync(path).size : 0)))
  for (const [version, env] of [[1, {}], [2, { FRONTDESK_SEARCH_CATCH_UP: '0', FRONTDESK_SEARCH_REFRESH: 'wait' }]] as const) {
    const full = await frontdesk([...args, 'import', items(dir, version, 200), '--tenant', 'acme'], env, undefined, largest / 1024 + 64)
    assert.is.not(full.code, 0, 'the import fails')
    assert.is(full.stderr.trim().split('\n').length, 1, full.stderr)
    assert.match(full.stderr, /^frontdesk: Storage is temporarily unavailable \(SQLITE_(FULL|IOERR)\w*: /, 'says why')
    assert.equal([...(await versionsIn(db))], ['v0'], 'nothing of it in the database')
    assert.equal(snapshot(), before, 'the snapshot untouched')
    assert.is((await startAndCompare(db, searchDir, TEXTS))?.source, 'snapshot')
  }
  const next = await frontdesk([...args, 'import', items(dir, 3, 200), '--tenant', 'acme'], { FRONTDESK_SEARCH_CATCH_UP: '0', FRONTDESK_SEARCH_REFRESH: 'wait' })
  assert.is(next.code, 0, next.stderr)
  assert.equal([...(await versionsIn(db))], ['v3'])
  assert.is((await startAndCompare(db, searchDir, TEXTS))?.source, 'snapshot')
})

test.run()

interface Throwaway {
  url: string
  halt(): Promise<void>
  resume(): Promise<void>
  stop(): Promise<void>
}

const onPostgres = await postgresSuite<{ dir: string; pg: Throwaway | null }>('frontdesk import on PostgreSQL when the database goes away', { dir: '', pg: null })
onPostgres.before(async (context) => {
  context.dir = mkdtempSync(join(tmpdir(), 'frontdesk-import-pg-gone-'))
  // Hint: a server of its own, stopped mid-import; a path in a variable, so that the type checker does not follow it out of the package.
  const script = new URL('../../../scripts/test-postgres.mjs', import.meta.url).href
  const { startTestPostgres } = (await import(script)) as { startTestPostgres: () => Promise<Throwaway> }
  context.pg = await startTestPostgres()
  await admin(context.pg.url, 'CREATE DATABASE frontdesk')
})
onPostgres.after(async (context) => {
  await context.pg?.stop()
  rmSync(context.dir, { recursive: true, force: true })
})

onPostgres('the database stopped during an import: all of it or none in the database, the snapshot usable, one error line, and the next import applies', async ({ dir, pg }) => {
  const url = new URL(pg?.url ?? '')
  url.pathname = '/frontdesk'
  const db = url.toString()
  const searchDir = join(dir, 'search')
  const args = ['--db', db, '--search-dir', searchDir]
  assert.is((await frontdesk([...args, 'tenant', 'create', 'acme'], {})).code, 0)
  assert.is((await frontdesk([...args, 'import', items(dir, 0), '--tenant', 'acme'], {})).code, 0)
  /** Whether the import's transaction is under way (one of the database's has run for 100 ms). */
  const importing = async () => {
    const rows = await adminQuery(pg?.url ?? '', "SELECT 1 FROM pg_stat_activity WHERE datname = 'frontdesk' AND pid <> pg_backend_pid() AND now() - xact_start > interval '100 ms'")
    return rows.length > 0
  }
  let interrupted = 0
  for (const [k, ms] of [0, 500].entries()) {
    const version = k + 1
    let ended = false
    const running = frontdesk([...args, 'import', items(dir, version, 100), '--tenant', 'acme'], k % 2 === 0 ? { FRONTDESK_SEARCH_CATCH_UP: '0', FRONTDESK_SEARCH_REFRESH: 'wait' } : {})
    void running.then(() => (ended = true))
    for (const started = Date.now(); !ended && Date.now() - started < 30_000 && !(await importing()); ) await new Promise((resolve) => setTimeout(resolve, 20))
    await new Promise((resolve) => setTimeout(resolve, ms))
    await pg?.halt()
    const result = await running
    await pg?.resume()
    if (result.code !== 0) {
      interrupted++
      assert.is(result.stderr.trim().split('\n').length, 1, result.stderr)
      assert.match(result.stderr, /^frontdesk: /)
    }
    const versions = await versionsIn(db)
    assert.is(versions.size, 1, `stopped after ${ms} ms: ${[...versions].join(', ')}`)
    assert.is((await startAndCompare(db, searchDir, TEXTS))?.source, 'snapshot', `stopped after ${ms} ms: the snapshot left is usable`)
  }
  assert.ok(interrupted > 0, 'some imports were cut off by the stop')
  const last = await frontdesk([...args, 'import', items(dir, 9), '--tenant', 'acme'], { FRONTDESK_SEARCH_CATCH_UP: '0', FRONTDESK_SEARCH_REFRESH: 'wait' })
  assert.is(last.code, 0, last.stderr)
  assert.equal([...(await versionsIn(db))], ['v9'])
  assert.is((await startAndCompare(db, searchDir, TEXTS))?.source, 'snapshot')
})

onPostgres.run()
