// An import that leaves the search snapshot too far behind hands its refresh to a process of
// its own (`frontdesk search-snapshot --if-idle`, the binary, rebuilt here first) and returns:
// that process writes the delta, a start restores it, one refresh runs per tenant at a time, a
// refresh killed with SIGKILL at any moment leaves what a start can use and is taken over by
// the next import, and `serve` waits for one in progress.
import type { ChildProcess } from 'node:child_process'
import { spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { directorySnapshots, snapshotIsBehind } from '@frontdesk/search'
import { createTestDatabase, postgresSuite } from '@frontdesk/adapter-postgres/testing'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { bufferOutput } from '../src/env.ts'
import { waitForRefreshes } from '../src/search-refresh.ts'
import { openStore } from '../src/session.ts'
import { frontdesk, startAndCompare } from './util/bin-import.ts'
import { heldRefresh, refreshesRunning, refreshRuns, settled } from './util/refreshes.ts'
import { buildCli } from './util/serve-process.ts'

const ITEMS = 120
const WORDS = ['lighthouse', 'harbour', 'keeper', 'lamp', 'museum', 'ship', 'anchor', 'tide']
const TEXTS = [...WORDS, 'v0', 'v1', 'v2', 'v3', 'v4', 'v5', 'v6', 'v7', 'lamp anchor']
/** Every import leaves the snapshot too far behind: each one hands a refresh off. */
const BEHIND = { FRONTDESK_SEARCH_CATCH_UP: '0' }

const test = suite<{ dir: string; db: string; searchDir: string; args: string[] }>('an import hands the search snapshot\'s refresh to a process of its own', { dir: '', db: '', searchDir: '', args: [] })
test.before(() => buildCli())
test.before.each(async (context) => {
  context.dir = mkdtempSync(join(tmpdir(), 'frontdesk-refresh-'))
  context.db = join(context.dir, 'frontdesk.db')
  context.searchDir = join(context.dir, 'search')
  context.args = ['--db', context.db, '--search-dir', context.searchDir]
  assert.is((await frontdesk([...context.args, 'tenant', 'create', 'acme'], {})).code, 0)
  const first = await frontdesk([...context.args, 'import', items(context.dir, 0), '--tenant', 'acme'], {})
  assert.is(first.code, 0, first.stderr)
})
test.after.each(async (context) => {
  // Hint: a refresh still running would write into the directory removed below.
  await settled(context.searchDir)
  rmSync(context.dir, { recursive: true, force: true })
})

/** Every item in its version `version` (the title says which). */
function items(dir: string, version: number): string {
  const path = join(dir, `v${version}.ndjson`)
  const lines = [JSON.stringify({ kind: 'category', code: 'news', name: 'News' })]
  for (let i = 0; i < ITEMS; i++) {
    const words = [0, 1, 2].map((k) => WORDS[(i * 3 + k * 5 + version) % WORDS.length]).join(' ')
    lines.push(JSON.stringify({ kind: 'content', slug: `item-${i}`, title: `v${version} ${words}`, body: `<p>${words} ${i}</p>`, category_code: 'news', status: 'published', published_at: '2025-01-01T00:00:00Z' }))
  }
  writeFileSync(path, `${lines.join('\n')}\n`)
  return path
}

async function tenantId(db: string): Promise<string> {
  const store = await openStore(db)
  try {
    return (await store.getTenantByCode('acme'))?.id ?? ''
  } finally {
    await store.close()
  }
}

/** Whether the snapshot with its delta holds every change of the feed. */
async function upToDate(db: string, searchDir: string): Promise<boolean> {
  const store = await openStore(db)
  try {
    return await snapshotIsBehind(store, directorySnapshots(searchDir), (await store.getTenantByCode('acme'))?.id ?? '', { catchUpLimit: 0 })
  } finally {
    await store.close()
  }
}

const lockOf = (searchDir: string, tenant: string) => join(searchDir, `refresh-${tenant}.lock`)
const deltaOf = (searchDir: string, tenant: string) => join(searchDir, `${tenant}-delta.index`)

/** Polls `check` every millisecond, at most `ms`; whether it came true. A refresh of this test's small tenant holds its lock for tens of ms only. */
async function eventually(check: () => boolean, ms: number): Promise<boolean> {
  for (const started = Date.now(); Date.now() - started < ms; ) {
    if (check()) return true
    await new Promise((resolve) => setTimeout(resolve, 1))
  }
  return check()
}

/** A process that only waits, to hold a lock with a live id; stopped with `kill`. */
function sleeper(seconds: number): ChildProcess {
  return spawn('sleep', [String(seconds)], { stdio: 'ignore' })
}

test('the import returns, and a process of its own writes the delta a start then restores', async ({ dir, db, searchDir, args }) => {
  const tenant = await tenantId(db)
  const gate = join(dir, 'gate')
  const result = await frontdesk([...args, 'import', items(dir, 1), '--tenant', 'acme'], { ...BEHIND, ...heldRefresh(gate) })
  assert.is(result.code, 0, result.stderr)
  assert.is(result.stderr, '', 'nothing said off a terminal')
  // The import has ended; the refresh it started waits at the gate.
  assert.is(refreshesRunning(searchDir).length, 1, 'a process of its own refreshes')
  assert.not.ok(existsSync(deltaOf(searchDir, tenant)), 'the import did not write the delta')
  writeFileSync(gate, '')
  await settled(searchDir)
  assert.ok(existsSync(deltaOf(searchDir, tenant)), 'the delta is written')
  assert.not.ok(existsSync(lockOf(searchDir, tenant)), 'the lock is released')
  assert.is(readFileSync(join(searchDir, 'refresh.log'), 'utf8'), '', 'the refresh logged no error')
  assert.is((await startAndCompare(db, searchDir, TEXTS))?.source, 'snapshot')
  assert.ok(await upToDate(db, searchDir), 'the delta holds every change')
  // Run in the foreground, the command finds nothing left to do.
  const now = await frontdesk([...args, 'search-snapshot', '--tenant', 'acme'], BEHIND)
  assert.is(now.code, 0, now.stderr)
})

test('a refresh killed with SIGKILL at any moment leaves a snapshot a start uses; the next import takes its lock over', async ({ dir, db, searchDir, args }) => {
  const tenant = await tenantId(db)
  // Hint: the lock is linked into place already naming its holder, and a refresh that has ended is no longer among those running.
  const holding = () => {
    let pid: number
    try {
      pid = Number(readFileSync(lockOf(searchDir, tenant), 'utf8'))
    } catch {
      return 0
    }
    return refreshRuns(pid, searchDir) ? pid : 0
  }
  let killed = 0
  // When each refresh is killed: waiting at a gate before it starts, or so many ms after the test sees it hold its lock.
  for (const [k, moment] of (['gate', 0, 0, 40, 120, 250] as const).entries()) {
    const gate = join(dir, `gate-${k}`)
    const result = await frontdesk([...args, 'import', items(dir, k + 1), '--tenant', 'acme'], { ...BEHIND, ...(moment === 'gate' ? heldRefresh(gate) : {}) })
    assert.is(result.code, 0, result.stderr)
    if (moment === 'gate') {
      const [waiting] = refreshesRunning(searchDir)
      assert.ok(waiting !== undefined, 'the refresh waits at its gate')
      process.kill(waiting, 'SIGKILL')
      killed++
    } else {
      if (await eventually(() => holding() !== 0, 5_000)) {
        await new Promise((resolve) => setTimeout(resolve, moment))
        const pid = holding()
        try {
          if (pid !== 0) {
            process.kill(pid, 'SIGKILL')
            killed++
          }
        } catch {
          // Hint: it ended (and was reaped) after the look.
        }
      }
    }
    await settled(searchDir)
    const build = await startAndCompare(db, searchDir, TEXTS)
    assert.is(build?.source, 'snapshot', `killed at ${moment}: the snapshot left is usable`)
  }
  assert.ok(killed > 0, 'some refreshes were killed')
  // Hint: a lock whose holder has ended, whether or not a kill above left one: the next import's refresh must take it over.
  if (!existsSync(lockOf(searchDir, tenant))) writeFileSync(lockOf(searchDir, tenant), `${spawnSync('true').pid}\n`)
  const last = await frontdesk([...args, 'import', items(dir, 7), '--tenant', 'acme'], BEHIND)
  assert.is(last.code, 0, last.stderr)
  await settled(searchDir)
  assert.equal(readdirSync(searchDir).filter((name) => name.endsWith('.tmp') || name.endsWith('.lock')), [], 'no lock nor temporary file is left')
  assert.is((await startAndCompare(db, searchDir, TEXTS))?.source, 'snapshot')
  assert.ok(await upToDate(db, searchDir), 'the next refresh brought it up to date')
})

test('a refresh in progress: the import starts none, serve waits for it, and a foreground run waits too', async ({ dir, db, searchDir, args }) => {
  const tenant = await tenantId(db)
  const holder = sleeper(30)
  try {
    writeFileSync(lockOf(searchDir, tenant), `${holder.pid}\n`)
    const result = await frontdesk([...args, 'import', items(dir, 1), '--tenant', 'acme'], BEHIND)
    assert.is(result.code, 0, result.stderr)
    await new Promise((resolve) => setTimeout(resolve, 1_000))
    assert.not.ok(existsSync(deltaOf(searchDir, tenant)), 'no second refresh was started')
    const stderr = bufferOutput()
    const waiting = waitForRefreshes(searchDir, { stdout: bufferOutput(), stderr, stdin: process.stdin, vars: {}, cwd: dir })
    let done = false
    void waiting.then(() => (done = true))
    await new Promise((resolve) => setTimeout(resolve, 500))
    assert.not.ok(done, 'a start waits while the refresh runs')
    assert.match(stderr.text(), new RegExp(`^frontdesk: waiting for the search snapshot refresh in progress \\(pid ${holder.pid}\\) to finish\\n$`))
    const foreground = frontdesk([...args, 'search-snapshot', '--tenant', 'acme'], BEHIND)
    holder.kill('SIGKILL')
    await waiting
    // The holder died without releasing: its lock is taken over by the foreground run, which does the work.
    const ran = await foreground
    assert.is(ran.code, 0, ran.stderr)
    assert.ok(existsSync(deltaOf(searchDir, tenant)), 'the delta is written')
    assert.is((await startAndCompare(db, searchDir, TEXTS))?.source, 'snapshot')
    assert.ok(await upToDate(db, searchDir))
  } finally {
    holder.kill('SIGKILL')
  }
})

test('content publish, unpublish and delete hand the refresh off as an import does', async ({ db, searchDir, args }) => {
  const tenant = await tenantId(db)
  for (const action of ['unpublish', 'publish', 'delete']) {
    rmSync(deltaOf(searchDir, tenant), { force: true })
    const result = await frontdesk([...args, 'content', action, 'item-3', '--tenant', 'acme'], BEHIND)
    assert.is(result.code, 0, result.stderr)
    assert.ok(await eventually(() => existsSync(deltaOf(searchDir, tenant)), 20_000), `${action}: the delta is written`)
    await settled(searchDir)
    assert.is((await startAndCompare(db, searchDir, TEXTS))?.source, 'snapshot')
    assert.ok(await upToDate(db, searchDir), action)
  }
})

test('search-snapshot: an unknown tenant is one error line', async ({ args }) => {
  const result = await frontdesk([...args, 'search-snapshot', '--tenant', 'nobody'], {})
  assert.is(result.code, 1)
  assert.is(result.stderr, 'frontdesk: Unknown tenant: nobody\n')
})

test.run()

const onPostgres = await postgresSuite<{ dir: string; drop: () => Promise<void> }>('an import on PostgreSQL hands the refresh to a process of its own', { dir: '', drop: async () => undefined })
onPostgres.before.each((context) => {
  context.dir = mkdtempSync(join(tmpdir(), 'frontdesk-refresh-pg-'))
})
onPostgres.after.each(async (context) => {
  await settled(join(context.dir, 'search'))
  await context.drop()
  rmSync(context.dir, { recursive: true, force: true })
})

onPostgres('the database reaches the refresh by the environment, and the delta it writes is restored', async (context) => {
  const database = await createTestDatabase()
  context.drop = database.drop
  const searchDir = join(context.dir, 'search')
  const args = ['--db', database.url, '--search-dir', searchDir]
  assert.is((await frontdesk([...args, 'tenant', 'create', 'acme'], {})).code, 0)
  assert.is((await frontdesk([...args, 'import', items(context.dir, 0), '--tenant', 'acme'], {})).code, 0)
  const result = await frontdesk([...args, 'import', items(context.dir, 1), '--tenant', 'acme'], BEHIND)
  assert.is(result.code, 0, result.stderr)
  const tenant = await tenantId(database.url)
  assert.ok(await eventually(() => existsSync(deltaOf(searchDir, tenant)), 20_000), 'the delta is written')
  await settled(searchDir)
  assert.is(readFileSync(join(searchDir, 'refresh.log'), 'utf8'), '', 'the refresh logged no error')
  assert.is((await startAndCompare(database.url, searchDir, TEXTS))?.source, 'snapshot')
  assert.ok(await upToDate(database.url, searchDir))
})

onPostgres.run()
