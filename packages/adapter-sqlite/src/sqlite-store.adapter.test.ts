import { spawn } from 'node:child_process'
import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { fileURLToPath } from 'node:url'
import Database from 'better-sqlite3'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { StorageUnavailableError, UsageError } from '@frontdesk/core'
import type { InquiryRecord } from '@frontdesk/core'
import { aCategory, aContent, aTag, aTenant } from '@frontdesk/core/testing'
import { openTempStore, tempDbPath } from '../test/util/temp-store.ts'
import { openSqliteStore } from './sqlite-store.ts'

const T = 'ten_1'

const locking = suite('sqlite store: locks held by other processes')

locking('a write waits asynchronously for another connection’s lock, then fails with StorageUnavailableError', async () => {
  const { store, path, cleanup } = openTempStore({ busyTimeoutMs: 300 })
  const other = new Database(path)
  other.exec('BEGIN IMMEDIATE')
  let ticks = 0
  const timer = setInterval(() => ticks++, 10)
  const started = Date.now()
  const error = await store.createTenant(aTenant(T)).then(() => null, (e: unknown) => e)
  const elapsed = Date.now() - started
  clearInterval(timer)
  assert.instance(error, StorageUnavailableError)
  assert.ok((error as Error).cause, 'the driver error is kept as the cause')
  assert.ok(elapsed >= 250 && elapsed < 3_000, `waited ${elapsed} ms`)
  assert.ok(ticks >= 5, `the event loop kept running while waiting (${ticks} ticks)`)
  const failedTx = await store.transaction(async () => assert.unreachable('work ran without the lock')).then(() => null, (e: unknown) => e)
  assert.instance(failedTx, StorageUnavailableError)
  other.exec('ROLLBACK')
  other.close()
  await store.createTenant(aTenant(T))
  assert.ok(await store.getTenant(T), 'writes work again once the lock is gone')
  await cleanup()
})

locking('a write waiting for a lock goes through as soon as the other connection commits', async () => {
  const { store, path, cleanup } = openTempStore({ busyTimeoutMs: 5_000 })
  const other = new Database(path)
  other.exec('BEGIN IMMEDIATE')
  other.prepare("INSERT INTO tenants (id, code, name, created_at) VALUES ('ten_o', 'other', 'Other', 'now')").run()
  setTimeout(() => other.exec('COMMIT'), 150)
  await store.createTenant(aTenant(T))
  assert.equal((await store.listTenants()).map((t) => t.code), ['other', 'ten-1'])
  other.close()
  await cleanup()
})

locking('reads go on while another connection holds the write lock, and see only committed data', async () => {
  const { store, path, cleanup } = openTempStore({ busyTimeoutMs: 200 })
  await store.createTenant(aTenant(T))
  const other = new Database(path)
  other.exec('BEGIN IMMEDIATE')
  other.prepare("INSERT INTO tenants (id, code, name, created_at) VALUES ('ten_o', 'other', 'Other', 'now')").run()
  assert.equal((await store.listTenants()).map((t) => t.id), [T])
  assert.is(typeof (await store.revision(T)), 'number')
  other.exec('ROLLBACK')
  other.close()
  await cleanup()
})

locking('inquiry writes wait longer for another process’s lock (a long import) than other writes, and land once it is gone', async () => {
  const { store, path, cleanup } = openTempStore({ busyTimeoutMs: 100 })
  await store.createTenant(aTenant(T))
  const other = new Database(path)
  other.exec('BEGIN IMMEDIATE')
  const inquiry: InquiryRecord = {
    tenant_id: T, id: 'inq_1', category_code: 'general', title: 'Hi', content: 'x', priority: 2, inquirer_name: 'Ina',
    inquirer_email: 'ina@example.com', inquirer_phone: null, inquirer_company: null, inquirer_department: null,
    status: 'open', api_key_id: null, created_at: '2025-06-20T12:00:00.000Z',
  }
  // Hint: settled at once, so that an inquiry giving up before the COMMIT below (a stalled
  // machine) fails this test instead of crashing the run with an unhandled rejection.
  const waiting = store.insertInquiry(inquiry).then(() => null, (e: unknown) => e)
  const tenantError = await store.createTenant(aTenant('ten_2')).then(() => null, (e: unknown) => e)
  assert.instance(tenantError, StorageUnavailableError, 'other writes give up after busyTimeoutMs')
  await new Promise((resolve) => setTimeout(resolve, 150))
  other.exec('COMMIT')
  assert.is(await waiting, null, 'the inquiry waited for the lock')
  assert.ok(await store.getInquiry(T, 'inq_1'), 'the inquiry waited (up to 4 × busyTimeoutMs) and landed')
  other.exec('BEGIN IMMEDIATE')
  const started = Date.now()
  const inquiryError = await store.insertInquiry({ ...inquiry, id: 'inq_2' }).then(() => null, (e: unknown) => e)
  assert.instance(inquiryError, StorageUnavailableError, 'a lock held past the inquiry timeout is still a 503')
  assert.ok(Date.now() - started >= 350, `gave up after ${Date.now() - started} ms`)
  other.exec('ROLLBACK')
  other.close()
  await cleanup()
})

locking.run()

const shared = suite('sqlite store: several stores on one file')

shared('a second store on the same file sees the first one’s writes and revision changes', async () => {
  const { store: first, path, cleanup } = openTempStore()
  const second = openSqliteStore({ path })
  await first.createTenant(aTenant(T))
  assert.ok(await second.getTenant(T))
  const before = await second.revision(T)
  assert.is(await second.revision(T), before)
  await first.transaction((tx) => tx.putCategory(aCategory(T, 'cat_1')))
  const after = await second.revision(T)
  assert.is.not(after, before)
  await second.transaction((tx) => tx.putTag(aTag(T, 'tag_1')))
  assert.is.not(await first.revision(T), after)
  assert.ok(await first.getTag(T, 'tag_1'))
  await second.close()
  await cleanup()
})

shared('change_log gets one row per content item, category and tag changed in a transaction, links and fields included', async () => {
  const { store, cleanup } = openTempStore()
  await store.createTenant(aTenant(T))
  const log = () => store.db.prepare('SELECT tenant_id, entity, entity_id FROM change_log ORDER BY seq').all() as object[]
  await store.transaction(async (tx) => {
    await tx.putCategory(aCategory(T, 'cat_1'))
    await tx.putTag(aTag(T, 'tag_1'))
    await tx.putContent(aContent(T, 'cnt_1', 'cat_1', { tags: [{ id: 'tag_1', name: '1' }], fields: { f: 1 } }))
  })
  const entries = log()
  assert.equal(entries.slice(0, 2), [
    { tenant_id: T, entity: 'category', entity_id: 'cat_1' },
    { tenant_id: T, entity: 'tag', entity_id: 'tag_1' },
  ])
  assert.equal(entries, [
    { tenant_id: T, entity: 'category', entity_id: 'cat_1' },
    { tenant_id: T, entity: 'tag', entity_id: 'tag_1' },
    { tenant_id: T, entity: 'content', entity_id: 'cnt_1' },
  ], 'one row for the item with its tag link and field value')
  const count = entries.length
  await store.transaction(async (tx) => {
    await tx.putContent(aContent(T, 'cnt_1', 'cat_1', { tags: [], fields: { f: 2 }, title: 'New' }))
    await tx.putContent(aContent(T, 'cnt_1', 'cat_1', { tags: [{ id: 'tag_1', name: '1' }], fields: { f: 1 }, title: 'Newer' }))
  })
  assert.is(log().length, count + 1, 'an item changed twice in a transaction is logged once')
  await store.transaction((tx) => tx.deleteContent(T, 'cnt_1'))
  assert.is(log().length, count + 2)
  assert.equal(log().at(-1), { tenant_id: T, entity: 'content', entity_id: 'cnt_1' })
  await store.transaction((tx) => tx.deleteContent(T, 'cnt_1'))
  assert.is(log().length, count + 2, 'deleting nothing logs nothing')
  await cleanup()
})

shared('change_log keeps only its newest rows, as many as changeLogRetention says', async () => {
  const { store, cleanup } = openTempStore({ changeLogRetention: 3 })
  await store.createTenant(aTenant(T))
  await store.transaction((tx) => tx.putCategory(aCategory(T, 'cat_1')))
  for (let n = 0; n < 5; n++) await store.transaction((tx) => tx.putTag(aTag(T, `tag_${n}`)))
  const rows = store.db.prepare('SELECT entity_id FROM change_log ORDER BY seq').pluck().all()
  assert.equal(rows, ['tag_2', 'tag_3', 'tag_4'])
  await cleanup()
})

shared.run()

const misuse = suite('sqlite store: misuse fails loudly')

misuse('a transaction inside a transaction, or a store write inside one, is refused instead of deadlocking', async () => {
  const { store, cleanup } = openTempStore()
  await store.createTenant(aTenant(T))
  const nested = await store
    .transaction(async () => store.transaction(async () => 1))
    .then(() => null, (e: unknown) => e)
  assert.match(String(nested), /do not nest/)
  const write = await store.transaction(async () => store.createTenant(aTenant('ten_2'))).then(() => null, (e: unknown) => e)
  assert.match(String(write), /do not nest/)
  assert.is(await store.getTenant('ten_2'), null)
  await cleanup()
})

misuse('a transaction object used after its transaction ended is refused', async () => {
  const { store, cleanup } = openTempStore()
  await store.createTenant(aTenant(T))
  let leaked: Parameters<Parameters<typeof store.transaction>[0]>[0] | undefined
  await store.transaction(async (tx) => {
    leaked = tx
  })
  const error = await leaked?.putTag(aTag(T, 'tag_1')).then(() => null, (e: unknown) => e)
  assert.match(String(error), /already ended/)
  assert.is(await store.getTag(T, 'tag_1'), null)
  await cleanup()
})

misuse('a closed store refuses work; closing twice is harmless', async () => {
  const { store, cleanup } = openTempStore()
  await store.close()
  await store.close()
  assert.match(String(await store.getTenant(T).catch((e: unknown) => e)), /closed/)
  assert.match(String(await store.createTenant(aTenant(T)).catch((e: unknown) => e)), /closed/)
  await cleanup()
})

misuse('close lets writes already requested finish, then closes', async () => {
  const { store, path, cleanup } = openTempStore()
  const writes = ['ten_1', 'ten_2', 'ten_3'].map((id) => store.createTenant(aTenant(id)))
  await store.close()
  await Promise.all(writes)
  const reopened = openSqliteStore({ path })
  assert.is((await reopened.listTenants()).length, 3)
  await reopened.close()
  await cleanup()
})

misuse('a file that is not a database is refused with a usage error naming no path', async () => {
  const { path, cleanup } = openTempStore()
  await cleanup()
  mkdirSync(dirname(path), { recursive: true })
  writeFileSync(path, 'this is not a database, just some text that is long enough to have a header '.repeat(20))
  const error = (() => {
    try {
      openSqliteStore({ path })
      return null
    } catch (caught) {
      return caught
    }
  })()
  assert.instance(error, UsageError)
  assert.not.match((error as Error).message, path)
  rmSync(dirname(path), { recursive: true, force: true })
})

misuse('opening while another process holds the write lock past the timeout fails with StorageUnavailableError', async () => {
  const { store, path, cleanup } = openTempStore()
  await store.close()
  const other = new Database(path)
  other.exec('BEGIN EXCLUSIVE')
  let error: unknown
  try {
    openSqliteStore({ path, busyTimeoutMs: 50 })
  } catch (caught) {
    error = caught
  }
  assert.instance(error, StorageUnavailableError)
  other.exec('ROLLBACK')
  other.close()
  await cleanup()
})

misuse.run()

const durability = suite('sqlite store: durability')

durability('every acknowledged inquiry survives kill -9 of the process the moment after', async () => {
  const { store, path, cleanup } = openTempStore()
  await store.createTenant(aTenant(T))
  const child = spawn(
    process.execPath,
    ['--conditions=source', '--import', 'tsx', fileURLToPath(new URL('../test/util/insert-inquiries.child.ts', import.meta.url)), path],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  )
  const acked: string[] = []
  await new Promise<void>((resolve, reject) => {
    const timeout = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error('the child acknowledged too few inquiries in time'))
    }, 20_000)
    let buffer = ''
    child.stdout.on('data', (chunk: Buffer) => {
      buffer += chunk.toString()
      const lines = buffer.split('\n')
      buffer = lines.pop() ?? ''
      for (const line of lines) acked.push(line.replace(/^ack /, ''))
      if (acked.length >= 20 && !child.killed) {
        child.kill('SIGKILL')
        clearTimeout(timeout)
      }
    })
    child.on('exit', () => resolve())
  })
  assert.ok(acked.length >= 20)
  const reopened = openSqliteStore({ path })
  for (const id of acked) assert.ok(await reopened.getInquiry(T, id), `${id} was acknowledged and must be there`)
  await reopened.close()
  await cleanup()
})

durability.run()

const secrets = suite('sqlite store: instance secrets across processes')

/** A child process of `test/util/`, its output so far, and a wait for a line of it that fails as soon as the child exits without it. */
function spawnChild(script: string, args: string[]) {
  const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', fileURLToPath(new URL(`../test/util/${script}`, import.meta.url)), ...args], {
    stdio: ['pipe', 'pipe', 'inherit'],
  })
  let output = ''
  let exited = false
  // Hint: a child that died before a line was sent to it fails the wait for its answer; the
  // write's EPIPE must not end the whole test run as an 'error' nobody listens to.
  child.stdin.on('error', () => {})
  child.stdout.on('data', (chunk: Buffer) => void (output += chunk.toString()))
  child.on('exit', () => void (exited = true))
  const line = (pattern: RegExp, timeoutMs = 30_000) =>
    new Promise<string>((resolve, reject) => {
      const done = (error: Error | null, found = '') => {
        clearTimeout(timer)
        child.stdout.off('data', look)
        child.off('exit', gone)
        if (error === null) resolve(found)
        else reject(error)
      }
      const look = () => {
        const found = pattern.exec(output)
        if (found !== null) done(null, found[1] ?? '')
      }
      const gone = () => {
        look()
        done(new Error(`${script} exited without ${pattern}: ${output}`))
      }
      const timer = setTimeout(() => done(new Error(`no ${pattern} from ${script} in ${timeoutMs} ms: ${output}`)), timeoutMs)
      child.stdout.on('data', look)
      child.on('exit', gone)
      look()
      if (exited) gone()
    })
  return {
    line,
    output: () => output,
    send: (text: string) => child.stdin.end(text),
    // Hint: a child left waiting on its stdin would keep the test process (and the whole run) alive.
    kill: () => void (exited || child.kill('SIGKILL')),
  }
}

/** Starts the race child for `path`; resolves once it has opened the store. */
async function secretChild(path: string, candidate: string, started: { kill: () => void }[]): Promise<{ go: () => Promise<string> }> {
  const child = spawnChild('instance-secret.child.ts', [path, candidate])
  started.push(child)
  await child.line(/^ready()$/m)
  return {
    go: () => {
      child.send('go\n')
      return child.line(/^secret (\S+)$/m)
    },
  }
}

secrets('two processes asking for a new secret at the same moment get the same one, and it survives a reopen', async () => {
  const { path, remove } = tempDbPath()
  const started: { kill: () => void }[] = []
  try {
    const children = await Promise.all([secretChild(path, 'candidate-of-the-first-process', started), secretChild(path, 'candidate-of-the-second-process', started)])
    const got = await Promise.all(children.map((child) => child.go()))
    assert.is(got[0], got[1])
    assert.ok(['candidate-of-the-first-process', 'candidate-of-the-second-process'].includes(got[0] ?? ''), String(got[0]))
    const reopened = openSqliteStore({ path })
    assert.is(await reopened.instanceSecret('cursor-hmac', 'a third candidate'), got[0])
    await reopened.close()
  } finally {
    for (const child of started) child.kill()
    remove()
  }
})

secrets.run()

const opening = suite('sqlite store: processes opening a new file together')

opening('two processes opening and migrating the same new file at the same moment both succeed, round after round', async () => {
  // Hint: before openConnection retried turning a new file to WAL, 7 rounds in 40 failed with SQLITE_BUSY.
  const { dir, remove } = tempDbPath()
  const rounds = 40
  const children = [spawnChild('open-race.child.ts', [dir, String(rounds), '60']), spawnChild('open-race.child.ts', [dir, String(rounds), '60'])]
  try {
    await Promise.all(children.map((child) => child.line(/^ready()$/m)))
    const start = Date.now() + 200
    for (const child of children) child.send(`go ${start}\n`)
    await Promise.all(children.map((child) => child.line(new RegExp(`^round ${rounds - 1} (ok|failed.*)$`, 'm'))))
    for (const child of children) {
      const failed = child.output().split('\n').filter((line) => line.includes('failed'))
      assert.equal(failed, [], child.output())
    }
  } finally {
    for (const child of children) child.kill()
    remove()
  }
})

opening.run()
