// Two real `frontdesk serve` processes on one PostgreSQL database, changed by real `frontdesk`
// CLI processes: what one process commits must reach every server within 1 s — search, the
// cached list and detail responses, disabled and deleted keys, revoked preview tokens — with
// nothing but the database between them (LISTEN/NOTIFY, and the poll behind it).
import type { ChildProcess } from 'node:child_process'
import { spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import * as assert from 'uvu/assert'
import { createTestDatabase, postgresSuite } from '@frontdesk/adapter-postgres/testing'
import type { TestResponse } from './util/test-server.ts'
import { eventually, testRequest } from './util/test-server.ts'

const ROOT = fileURLToPath(new URL('../../../', import.meta.url))
const BIN = join(ROOT, 'packages/cli/bin/frontdesk.js')
/** What issue 18 allows between a commit in one process and every server seeing it. */
const WITHIN_MS = 1_000

interface Server {
  child: ChildProcess
  /** Settles when the process has exited, however late it is asked. */
  exited: Promise<void>
  url: string
  stderr: () => string
}

interface World {
  dir: string
  db: string
  drop: () => Promise<void>
  servers: Server[]
  ca: string
  key: string
  /** How long each change took to reach each server, for the report. */
  lags: Record<string, number>
}

const test = await postgresSuite<World>('PostgreSQL: two serve processes and the CLI, one database')

function cli(world: World, args: string[], input = ''): string {
  const result = spawnSync(process.execPath, [BIN, '--db', world.db, ...args], { cwd: world.dir, input, encoding: 'utf8', timeout: 60_000, env: { PATH: process.env['PATH'] ?? '' } })
  assert.is(result.status, 0, `frontdesk ${args.join(' ')}: ${result.stderr}`)
  return result.stdout
}

function startServe(world: World, searchDir: string): Promise<Server> {
  const child = spawn(process.execPath, [BIN, '--db', world.db, '--search-dir', searchDir, 'serve', '--dev-cert', '--port', '0', '--default-rate-limit', '0', '--no-access-log'], {
    cwd: world.dir,
    env: { PATH: process.env['PATH'] ?? '' },
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  let stderr = ''
  child.stderr?.on('data', (chunk: Buffer) => void (stderr += chunk.toString('utf8')))
  const started = new Promise<Server>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start within 60 s: ${stderr}`)), 60_000)
    const look = () => {
      const url = /serving (https:\/\/[^/\s]+)/.exec(stderr)?.[1]
      if (url === undefined) return
      clearTimeout(timer)
      child.stderr?.off('data', look)
      resolve({ child, exited, url, stderr: () => stderr })
    }
    child.stderr?.on('data', look)
    child.once('error', (error) => {
      clearTimeout(timer)
      reject(error)
    })
    child.once('exit', (code, signal) => {
      clearTimeout(timer)
      reject(new Error(`serve exited (${code ?? signal}): ${stderr}`))
    })
  })
  // Hint: a server that never said it was serving is in no list the `after` hook stops, so it
  // is killed here (unless it could not be spawned: then it has no pid and emits no 'exit').
  return started.catch(async (error: unknown) => {
    if (child.pid !== undefined) {
      child.kill('SIGKILL')
      await exited
    }
    throw error
  })
}

/** Stops a server with SIGTERM; one still running after 20 s is killed, and that is an error. */
async function stop(server: Server): Promise<void> {
  server.child.kill('SIGTERM')
  let timer: NodeJS.Timeout | undefined
  const late = await Promise.race([
    server.exited.then(() => false),
    new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), 20_000))),
  ])
  clearTimeout(timer)
  if (!late) return
  server.child.kill('SIGKILL')
  await server.exited
  throw new Error(`${server.url} did not exit within 20 s of SIGTERM: ${server.stderr()}`)
}

const line = (record: Record<string, unknown>) => `${JSON.stringify(record)}\n`
const news = line({ kind: 'category', code: 'news', name: 'News' })
const item = (slug: string, title: string, status = 'published') =>
  line({ kind: 'content', slug, title, category_code: 'news', status, ...(status === 'published' ? { published_at: '2025-01-01T00:00:00Z' } : {}) })

// Hint: uvu does not report an error thrown by `before`; it only counts the tests as not passed.
test.before(async (world) => { try { await setup(world) } catch (error) { console.error(error); throw error } })
async function setup(world: World): Promise<void> {
  world.servers = []
  if (!existsSync(join(ROOT, 'packages/cli/dist/bundle/cli.js'))) {
    const built = spawnSync(process.execPath, [join(ROOT, 'scripts/build.mjs')], { encoding: 'utf8', timeout: 120_000 })
    assert.is(built.status, 0, built.stderr)
  }
  world.dir = mkdtempSync(join(tmpdir(), 'frontdesk-pg-processes-'))
  const database = await createTestDatabase()
  world.db = database.url
  world.drop = database.drop
  world.lags = {}
  cli(world, ['tenant', 'create', 'acme'])
  cli(world, ['import', '-', '--tenant', 'acme', '--search-dir', join(world.dir, 'import-search')], news + item('keeper', 'Lighthouse keeper') + item('secret-draft', 'Secret draft', 'draft'))
  world.key = JSON.parse(cli(world, ['key', 'create', '--tenant', 'acme', '--name', 'site', '--permissions', 'cms:*', '--json'])).key
  // Hint: one after the other, so that they do not create the development certificate at once.
  world.servers.push(await startServe(world, join(world.dir, 'search-a')))
  world.servers.push(await startServe(world, join(world.dir, 'search-b')))
  world.ca = readFileSync(join(world.dir, '.frontdesk', 'dev-ca.pem'), 'utf8')
}

test.after(async (world) => {
  // Hint: whatever `before` got to; a throw here would end the whole test run.
  await Promise.all(world.servers.map((server) => stop(server).catch((error: unknown) => console.error(error))))
  if (world.dir !== undefined) rmSync(world.dir, { recursive: true, force: true })
  await world.drop?.().catch((error: unknown) => console.error(error))
  console.log(`   (lags behind the committing process, ms: ${JSON.stringify(world.lags)})`)
})

const request = (server: Server, world: World, method: string, path: string, headers: Record<string, string> = {}, body?: unknown): Promise<TestResponse> =>
  testRequest(server.url, world.ca, method, path, { headers: { 'x-api-key': world.key, ...headers }, ...(body === undefined ? {} : { body }) })

const searchTotal = async (server: Server, world: World, query: string): Promise<number> =>
  (await request(server, world, 'POST', '/v1/cms/search', {}, { query })).body?.pagination?.total ?? -1

/** Waits (at most `WITHIN_MS`) until `probe` holds on every server; records the lag. */
async function onEveryServer(world: World, what: string, probe: (server: Server) => Promise<boolean>): Promise<void> {
  const lags = await Promise.all(world.servers.map((server) => eventually(() => probe(server), WITHIN_MS, `${what} on ${server.url}`)))
  world.lags[what] = Math.round(Math.max(...lags))
}

test('an import by the CLI leaves its search snapshot in the importing machine\'s --search-dir; both servers found what it imported at once', async (world) => {
  assert.equal(readdirSync(join(world.dir, 'import-search')).filter((name) => name.endsWith('.index')).length, 1)
  for (const server of world.servers) assert.is(await searchTotal(server, world, 'lighthouse'), 1)
})

test('content another process imports is found by every server\'s search, and replaces their cached list and detail responses, within 1 s', async (world) => {
  const [a] = world.servers
  assert.ok(a !== undefined)
  const keeper = (await request(a, world, 'GET', '/v1/cms/contents/slug/keeper')).body
  const detail = `/v1/cms/contents/${keeper.id}`
  for (const server of world.servers) {
    // Asked twice: the second answer comes from the response cache.
    for (let i = 0; i < 2; i++) {
      assert.is((await request(server, world, 'GET', detail)).body.title, 'Lighthouse keeper')
      assert.equal((await request(server, world, 'GET', '/v1/cms/contents')).body.items.map((x: { slug: string }) => x.slug), ['keeper'])
    }
    assert.is(await searchTotal(server, world, 'harbour'), 0)
  }
  cli(world, ['import', '-', '--tenant', 'acme', '--search-dir', join(world.dir, 'import-search')], news + item('keeper', 'Lighthouse museum') + item('harbour', 'Harbour lamp'))
  await onEveryServer(world, 'search finds a new item', async (server) => (await searchTotal(server, world, 'harbour')) === 1)
  await onEveryServer(world, 'search finds a changed title', async (server) => (await searchTotal(server, world, 'museum')) === 1)
  await onEveryServer(world, 'detail shows the change', async (server) => (await request(server, world, 'GET', detail)).body.title === 'Lighthouse museum')
  await onEveryServer(world, 'list shows the new item', async (server) => (await request(server, world, 'GET', '/v1/cms/contents')).body.items.length === 2)
})

test('a key disabled, a key deleted and a preview token revoked through the CLI are refused by every server within 1 s', async (world) => {
  const created = (name: string) => JSON.parse(cli(world, ['key', 'create', '--tenant', 'acme', '--name', name, '--permissions', 'cms:read', '--json'])) as { id: string; key: string }
  const disabled = created('to disable')
  const deleted = created('to delete')
  const preview = JSON.parse(cli(world, ['preview', 'create', '--tenant', 'acme', '--content', 'secret-draft', '--json'])) as { id: string; token: string }
  const draft = `/v1/cms/contents/slug/secret-draft`
  for (const server of world.servers) {
    // Known (and remembered) by every server before they go.
    await eventually(async () => (await request(server, world, 'GET', '/v1/cms/categories', { 'x-api-key': disabled.key })).status === 200, WITHIN_MS, 'a new key')
    assert.is((await request(server, world, 'GET', '/v1/cms/categories', { 'x-api-key': deleted.key })).status, 200)
    assert.is((await request(server, world, 'GET', draft, { 'x-preview-token': preview.token })).status, 200)
  }
  cli(world, ['key', 'disable', disabled.id])
  await onEveryServer(world, 'disabled key refused', async (server) => (await request(server, world, 'GET', '/v1/cms/categories', { 'x-api-key': disabled.key })).body?.error?.code === 'API_KEY_DISABLED')
  cli(world, ['key', 'delete', deleted.id])
  await onEveryServer(world, 'deleted key refused', async (server) => (await request(server, world, 'GET', '/v1/cms/categories', { 'x-api-key': deleted.key })).body?.error?.message === 'Invalid API key')
  cli(world, ['preview', 'revoke', preview.id])
  await onEveryServer(world, 'revoked token refused', async (server) => (await request(server, world, 'GET', draft, { 'x-preview-token': preview.token })).body?.error?.code === 'PREVIEW_TOKEN_INVALID')
})

test('a server restarted on its search directory serves search at once, what changed while it was down included', async (world) => {
  const a = world.servers[0]
  assert.ok(a !== undefined)
  // Hint: left in the list until it has exited, so that the `after` hook still stops it if this fails.
  await stop(a)
  world.servers.shift()
  assert.ok(readdirSync(join(world.dir, 'search-a')).some((name) => name.endsWith('.index')), 'the stopped server left its snapshot')
  cli(world, ['import', '-', '--tenant', 'acme', '--search-dir', join(world.dir, 'import-search')], news + item('beacon', 'Beacon tower'))
  const again = await startServe(world, join(world.dir, 'search-a'))
  world.servers.unshift(again)
  assert.is(await searchTotal(again, world, 'beacon'), 1)
  assert.is(await searchTotal(again, world, 'harbour'), 1)
})

test.run()
