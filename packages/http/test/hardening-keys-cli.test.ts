// Keys and rate limits as an operator sets them up with the real `frontdesk` binary: keys and
// a preview token created by the CLI and used over HTTPS against `frontdesk serve
// --default-rate-limit N`; then the database file, its WAL and shared-memory files and the
// server's output are scanned for the plain secrets — only their hashes may be there.
import type { ChildProcess } from 'node:child_process'
import { spawn, spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { testRequest } from './util/test-server.ts'

const ROOT = fileURLToPath(new URL('../../../', import.meta.url))
const BIN = join(ROOT, 'packages/cli/bin/frontdesk.js')

interface World {
  dir: string
  db: string
  server: ChildProcess | null
  /** Settles when the server has exited, however late it is asked. */
  serverExited: Promise<void>
  url: string
  ca: string
  output: { stdout: string; stderr: string }
  /** Every secret the CLI printed: keys and the preview token. */
  secrets: Record<string, string>
}

const test = suite<World>('keys, preview tokens and rate limits through the CLI')

function cli(world: World, args: string[], input = ''): string {
  const result = spawnSync(process.execPath, [BIN, '--db', world.db, ...args], { input, encoding: 'utf8', timeout: 30_000, env: { PATH: process.env['PATH'] ?? '' } })
  assert.is(result.status, 0, `frontdesk ${args.join(' ')}: ${result.stderr}`)
  return result.stdout
}

test.before(async (world) => { try { await setup(world) } catch (error) { console.error(error); throw error } })
async function setup(world: World): Promise<void> {
  world.server = null
  if (!existsSync(join(ROOT, 'packages/cli/dist/bundle/cli.js'))) {
    const built = spawnSync(process.execPath, [join(ROOT, 'scripts/build.mjs')], { encoding: 'utf8', timeout: 120_000 })
    assert.is(built.status, 0, built.stderr)
  }
  world.dir = mkdtempSync(join(tmpdir(), 'frontdesk-keys-'))
  world.db = join(world.dir, 'frontdesk.db')
  world.secrets = {}
  world.output = { stdout: '', stderr: '' }
  cli(world, ['tenant', 'create', 'acme'])
  const file = join(world.dir, 'seed.ndjson')
  writeFileSync(file, [
    { kind: 'category', code: 'news', name: 'News' },
    { kind: 'content', slug: 'live', title: 'Live', category_code: 'news', status: 'published', published_at: '2025-01-01T00:00:00Z' },
    { kind: 'content', slug: 'secret-draft', title: 'Draft', category_code: 'news' },
  ].map((record) => JSON.stringify(record)).join('\n'))
  cli(world, ['import', file, '--tenant', 'acme'])
  world.secrets.plain = JSON.parse(cli(world, ['key', 'create', '--tenant', 'acme', '--name', 'default', '--permissions', 'cms:read', '--json'])).key
  world.secrets.limited = JSON.parse(cli(world, ['key', 'create', '--tenant', 'acme', '--name', 'limited', '--permissions', 'cms:read', '--rate-limit', '1', '--json'])).key
  world.secrets.preview = JSON.parse(cli(world, ['preview', 'create', '--tenant', 'acme', '--content', 'secret-draft', '--json'])).token
  for (const [name, secret] of Object.entries(world.secrets)) assert.match(secret, /^fd[kpv]_[0-9A-Za-z]{38}$/, name)

  const server = spawn(process.execPath, [BIN, '--db', world.db, 'serve', '--dev-cert', '--port', '0', '--default-rate-limit', '3'], {
    env: { PATH: process.env['PATH'] ?? '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  world.server = server
  world.serverExited = new Promise((resolve) => server.once('exit', () => resolve()))
  server.stdout?.on('data', (chunk: Buffer) => void (world.output.stdout += chunk.toString('utf8')))
  server.stderr?.on('data', (chunk: Buffer) => void (world.output.stderr += chunk.toString('utf8')))
  world.url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start: ${world.output.stdout}${world.output.stderr}`)), 30_000)
    const look = () => {
      const url = /serving (https:\/\/[^/\s]+)/.exec(world.output.stderr)?.[1]
      if (url !== undefined) {
        clearTimeout(timer)
        resolve(url)
      }
    }
    server.stderr?.on('data', look)
    server.once('error', (error) => {
      clearTimeout(timer)
      reject(error)
    })
    server.once('exit', (code, signal) => {
      clearTimeout(timer)
      reject(new Error(`serve exited (${code ?? signal}): ${world.output.stderr}`))
    })
  })
  world.ca = readFileSync(join(world.dir, '.frontdesk', 'dev-ca.pem'), 'utf8')
}

test.after(async (world) => {
  // Hint: whatever `setup` got to; a throw here would end the whole test run.
  if (world.server?.pid !== undefined) {
    world.server.kill('SIGKILL')
    await world.serverExited
  }
  if (world.dir !== undefined) rmSync(world.dir, { recursive: true, force: true })
})

const get = (world: World, path: string, headers: Record<string, string>) => testRequest(world.url, world.ca, 'GET', path, { headers })

test('a server started with --default-rate-limit 3 gives keys without their own limit 3/s (burst 6), and --rate-limit 1 keys 1/s', async (world) => {
  const first = await get(world, '/v1/cms/categories', { 'x-api-key': world.secrets.plain ?? '' })
  assert.is(first.status, 200)
  assert.is(first.headers['ratelimit-limit'], '6')
  assert.is(first.headers['ratelimit-policy'], '6;w=2')
  const statuses = [first.status]
  for (let i = 0; i < 9 && !statuses.includes(429); i++) statuses.push((await get(world, '/v1/cms/categories', { 'x-api-key': world.secrets.plain ?? '' })).status)
  // A burst of 6 (plus what refills while the requests run), then 429.
  assert.ok(statuses.indexOf(429) >= 6, statuses.join())
  const limited = await get(world, '/v1/cms/categories', { 'x-api-key': world.secrets.limited ?? '' })
  assert.is(limited.status, 200)
  assert.is(limited.headers['ratelimit-limit'], '2')
  assert.is(limited.headers['ratelimit-remaining'], '1')
})

test('the preview token and the keys work over HTTPS, in headers and in the query string', async (world) => {
  const headers = { 'x-api-key': world.secrets.limited ?? '' }
  await new Promise((resolve) => setTimeout(resolve, 2_100)) // refill the 1/s bucket
  const draft = await get(world, `/v1/cms/contents/slug/secret-draft?preview_token=${world.secrets.preview}`, headers)
  assert.is(draft.status, 200, draft.text)
  const viaHeader = await get(world, '/v1/cms/contents/slug/secret-draft', { ...headers, 'x-preview-token': world.secrets.preview ?? '' })
  assert.is(viaHeader.status, 200, viaHeader.text)
  // A wrong key and a key in the query string: refused, and neither may be echoed or logged.
  const wrong = await get(world, `/v1/cms/contents?api_key=${world.secrets.plain}`, {})
  assert.is(wrong.status, 401)
  assert.not.ok(wrong.text.includes(world.secrets.plain ?? ''))
})

/** Where `needle` occurs in `haystack` (as UTF-8 bytes), for the report. */
function occurs(haystack: Buffer | string, needle: string): boolean {
  return (typeof haystack === 'string' ? Buffer.from(haystack) : haystack).includes(Buffer.from(needle))
}

function scan(world: World, files: Record<string, Buffer | string>): void {
  for (const [name, secret] of Object.entries(world.secrets)) {
    const body = secret.slice(4, 36)
    for (const [file, bytes] of Object.entries(files)) {
      assert.not.ok(occurs(bytes, secret), `the plain ${name} secret is in ${file}`)
      assert.not.ok(occurs(bytes, body), `the random part of the ${name} secret is in ${file}`)
    }
  }
}

test('the database, its WAL and shared memory, and the server output hold no plain key or token — only hashes', async (world) => {
  const files = (): Record<string, Buffer> => {
    const found: Record<string, Buffer> = {}
    for (const suffix of ['', '-wal', '-shm']) if (existsSync(world.db + suffix)) found[`frontdesk.db${suffix}`] = readFileSync(world.db + suffix)
    return found
  }
  // While the server runs: the WAL holds the latest writes (last_used_at among them).
  const running = files()
  assert.ok(running['frontdesk.db-wal'] !== undefined && running['frontdesk.db-wal'].length > 0, 'no WAL to scan while serving')
  scan(world, running)
  // The scan can find something: each key's SHA-256 is stored, in the file or its WAL.
  for (const [name, secret] of Object.entries(world.secrets)) {
    const hash = createHash('sha256').update(secret).digest('hex')
    assert.ok(Object.values(running).some((bytes) => occurs(bytes, hash)), `the hash of the ${name} secret is nowhere`)
  }
  // After a graceful stop (a checkpoint folds the WAL into the file).
  const server = world.server
  assert.ok(server !== null)
  server.kill('SIGTERM')
  let timer: NodeJS.Timeout | undefined
  const late = await Promise.race([
    world.serverExited.then(() => false),
    new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), 20_000))),
  ])
  clearTimeout(timer)
  // One still running is killed by the `after` hook.
  assert.not.ok(late, `the server did not exit within 20 s of SIGTERM: ${world.output.stderr}`)
  scan(world, { ...files(), stdout: world.output.stdout, stderr: world.output.stderr })
  assert.match(world.output.stderr, /serving https:/, 'the server output was captured')
})

test.run()
