// The real binary, as an operator runs it: `frontdesk serve` in a child process, stopped with
// SIGTERM while a request is still uploading its body.
import type { ChildProcess } from 'node:child_process'
import { spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import type { ClientRequest } from 'node:http'
import * as https from 'node:https'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import * as assert from 'uvu/assert'
import pg from 'pg'
import { openPostgresStore } from '@frontdesk/adapter-postgres'
import { createTestDatabase } from '@frontdesk/adapter-postgres/testing'
import { openSqliteStore } from '@frontdesk/adapter-sqlite'
import { createApiKey, createFrontdesk, createTenant, importRecords } from '@frontdesk/core'
import { behaviourSuite, storeOf } from './util/test-server.ts'

const root = fileURLToPath(new URL('../../..', import.meta.url))
const bin = join(root, 'packages/cli/bin/frontdesk.js')

const kind = storeOf(import.meta.url)
const test = await behaviourSuite('frontdesk serve: help, access log and graceful SIGTERM', import.meta.url)

let dir = ''
let db = ''
let key = ''
let drop: () => Promise<void> = async () => {}

test.before(async () => {
  const built = spawnSync(process.execPath, [join(root, 'scripts/build.mjs')], { encoding: 'utf8', timeout: 60_000 })
  assert.is(built.status, 0, built.stderr)
  dir = mkdtempSync(join(tmpdir(), 'frontdesk-ops-'))
  if (kind === 'postgres') {
    const database = await createTestDatabase()
    db = database.url
    drop = database.drop
  } else db = join(dir, 'frontdesk.db')
  const store = kind === 'postgres' ? await openPostgresStore({ url: db }) : openSqliteStore({ path: db })
  try {
    const ctx = createFrontdesk({ store }).context
    await createTenant(ctx, { code: 'acme' })
    key = (await createApiKey(ctx, { tenantCode: 'acme', name: 'k', permissions: ['cms:search'] })).key
    const record = { kind: 'content', slug: 'move', title: 'Office move', category_code: 'news', status: 'published', published_at: '2025-01-01T00:00:00Z' }
    await importRecords(ctx, { tenantCode: 'acme', records: [{ record: { kind: 'category', code: 'news', name: 'News' }, location: '0' }, { record, location: '1' }] })
  } finally {
    await store.close()
  }
})

test.after(async () => {
  // Hint: a throw here would end the whole test run; a database left on the throwaway server is harmless.
  rmSync(dir, { recursive: true, force: true })
  await drop().catch((error: unknown) => console.error(error))
})

test('serve --help documents every flag of the command and the environment variables', () => {
  const help = spawnSync(process.execPath, [bin, 'serve', '--help'], { encoding: 'utf8', timeout: 20_000 })
  assert.is(help.status, 0)
  const flags = ['--host', '--port', '--cert', '--key', '--dev-cert', '--behind-proxy', '--trusted-proxy', '--default-rate-limit', '--no-access-log', '--db', '--allow-public-bind', '--max-connections', '--max-connections-per-address', '--metrics-port', '--metrics-host']
  for (const flag of flags) assert.ok(help.stdout.includes(flag), `${flag} is documented`)
  // Every long flag the help lists has a description after it.
  for (const line of help.stdout.split('\n').filter((l) => /^ {2}--[a-z-]+/.test(l))) assert.match(line, /--[a-z-]+( <[a-z]+>)?\s{2,}\S/)
  for (const name of ['FRONTDESK_DB', 'FRONTDESK_DEBUG', 'SIGTERM', 'SIGHUP', '/healthz', '/v1/openapi.json']) assert.ok(help.stdout.includes(name), `${name} is documented`)
})

function waitFor(child: ChildProcess, output: () => string, pattern: RegExp, ms: number): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    const finish = () => {
      clearTimeout(timer)
      child.stdout?.off('data', check)
      child.stderr?.off('data', check)
      child.off('exit', exit)
    }
    const check = () => {
      const found = pattern.exec(output())
      if (found !== null) {
        finish()
        resolve(found)
      }
    }
    const exit = () => {
      finish()
      reject(new Error(`exited: ${output()}`))
    }
    const timer = setTimeout(() => {
      finish()
      reject(new Error(`timed out waiting for ${pattern}: ${output()}`))
    }, ms)
    child.stdout?.on('data', check)
    child.stderr?.on('data', check)
    child.once('exit', exit)
    check()
    // Hint: a process that has already exited emits no 'exit' any more.
    if (child.exitCode !== null || child.signalCode !== null) exit()
  })
}

/** `promise`, or a rejection with `message` if it has not settled within `ms`. */
function within<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(message)), ms)))
  return Promise.race([promise, late]).finally(() => clearTimeout(timer))
}

test('SIGTERM lets a slow request in flight finish, refuses new connections, closes the database and exits 0', async () => {
  // Hint: in the test's directory, where --dev-cert keeps its certificate for a PostgreSQL database.
  const child = spawn(process.execPath, [bin, '--db', db, 'serve', '--dev-cert', '--port', '0'], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'], env: { PATH: process.env['PATH'] ?? '' } })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
  let slow: ClientRequest | null = null
  try {
    const [, url = ''] = await waitFor(child, () => stderr, /serving (https:\/\/\S+?)\/v1\//, 20_000)
    const body = Buffer.from(JSON.stringify({ query: 'office' }))
    // A search whose body arrives in two parts: the second only after SIGTERM.
    let resolveResponse: (value: { status: number; text: string }) => void = () => {}
    const answered = new Promise<{ status: number; text: string }>((resolve) => (resolveResponse = resolve))
    slow = https.request(new URL('/v1/cms/search', url), {
      method: 'POST',
      rejectUnauthorized: false, // the dev certificate; TLS itself is tested elsewhere
      agent: false,
      headers: { 'x-api-key': key, 'content-type': 'application/json', 'content-length': String(body.length), 'x-request-id': 'slow-request-1' },
    }, (res) => {
      let text = ''
      res.on('data', (chunk: Buffer) => (text += chunk.toString()))
      res.on('end', () => resolveResponse({ status: res.statusCode ?? 0, text }))
    })
    slow.on('error', (error) => resolveResponse({ status: -1, text: String(error) }))
    slow.write(body.subarray(0, 5))
    await new Promise((resolve) => setTimeout(resolve, 300))
    child.kill('SIGTERM')
    await waitFor(child, () => stderr, /stopping/, 5_000)
    const refused = await new Promise<string>((resolve) => {
      const probe = https.get(new URL('/healthz', url), { rejectUnauthorized: false, agent: false }, (res) => {
        res.resume()
        resolve(`answered ${res.statusCode}`)
      })
      probe.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'))
      // Hint: a timer of our own: https.get's `timeout` (TLS, agent: false) fires after twice its
      // value. Resolved before the destroy, whose error would otherwise read as ECONNRESET.
      const timer = setTimeout(() => {
        resolve('no answer within 20 s')
        probe.destroy()
      }, 20_000)
      probe.on('close', () => clearTimeout(timer))
    })
    // Hint: a connection already in the kernel's backlog when the listener closed is reset rather than refused.
    assert.ok(refused === 'ECONNREFUSED' || refused === 'ECONNRESET', `no new connection is served once stopping (got ${refused})`)
    slow.end(body.subarray(5))
    const response = await within(answered, 20_000, 'the slow request was not answered within 20 s')
    assert.is(response.status, 200, response.text)
    assert.is(JSON.parse(response.text).items[0].title, 'Office move')
    assert.is(await within(exited, 20_000, 'the server had not exited 20 s after SIGTERM'), 0, stderr)
    const log = stdout.split('\n').filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as Record<string, unknown>)
    const entry = log.find((line) => line.request_id === 'slow-request-1')
    assert.equal([entry?.method, entry?.path, entry?.status, entry?.tenant], ['POST', '/v1/cms/search', 200, 'acme'])
    assert.not.ok(stdout.includes(key), 'the key is never logged')
    if (kind === 'sqlite') {
      assert.not.ok(existsSync(`${db}-wal`), 'the database was closed cleanly: its WAL was checkpointed and removed')
      const store = openSqliteStore({ path: db })
      await store.close()
    } else {
      // Closed cleanly: none of its connections (the pool's, the LISTEN one) is left on the server.
      const client = new pg.Client({ connectionString: db })
      // Hint: a connection the server ends fails the query; an 'error' without a listener would end the test process.
      client.on('error', () => {})
      await client.connect()
      const left = (await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'frontdesk'`)).rows[0]?.n
      await client.end()
      assert.is(left, 0, 'the server left no connection behind')
    }
  } finally {
    slow?.destroy()
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
    await exited
  }
})

test.run()
