import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import * as http from 'node:http'
import * as https from 'node:https'
import { availableParallelism, tmpdir } from 'node:os'
import { join } from 'node:path'
import * as assert from 'uvu/assert'
import { createApiKey, createFrontdesk, createTenant } from '@frontdesk/core'
import { createDevCert, DEFAULT_MAX_CONNECTIONS, DEFAULT_MAX_CONNECTIONS_PER_ADDRESS, SEND_TIMEOUT_MS } from '@frontdesk/http'
import type { CliEnv } from '../env.ts'
import { bufferOutput } from '../env.ts'
import { behaviourSuite, storeOf } from '../../test/util/cli-fixture.ts'
import { main } from '../main.ts'
import { defaultSearchDir, openStore } from '../session.ts'
import type { ServeOptions } from './serve.ts'
import { DEFAULT_GC_HEADROOM, parseGcHeadroom, parseSendTimeout, parseWorkers, serve, startServer, workerCount } from './serve.ts'

const kind = storeOf(import.meta.url)
const test = await behaviourSuite('frontdesk serve', import.meta.url)
let dir: string
/** PostgreSQL databases made for the current test (dropped after it). */
let drops: (() => Promise<void>)[] = []

test.before.each(() => {
  dir = mkdtempSync(join(tmpdir(), 'frontdesk-serve-'))
})

test.after.each(async () => {
  rmSync(dir, { recursive: true, force: true })
  await Promise.all(drops.splice(0).map((drop) => drop()))
})

/** The database a test serves: a file `name` in the test's directory, or a new PostgreSQL database. */
async function database(name: string): Promise<string> {
  if (kind === 'sqlite') return join(dir, name)
  const { createTestDatabase } = await import('@frontdesk/adapter-postgres/testing')
  const created = await createTestDatabase()
  drops.push(created.drop)
  return created.url
}

/** Tests of options refused before any database is opened run on SQLite only: the store plays no part. */
const optionsTest = kind === 'sqlite' ? test : () => {}

function testEnv(): CliEnv & { stdout: ReturnType<typeof bufferOutput>; stderr: ReturnType<typeof bufferOutput> } {
  return { stdout: bufferOutput(), stderr: bufferOutput(), stdin: process.stdin, vars: {}, cwd: dir }
}

async function run(...args: string[]): Promise<{ code: number; stderr: string }> {
  const env = testEnv()
  const code = await main(['node', 'frontdesk', ...args], env)
  return { code, stderr: env.stderr.text() }
}

/** A database with tenant `acme` and a `cms:read` key. */
async function seeded(dbPath: string): Promise<string> {
  const store = await openStore(dbPath)
  try {
    const ctx = createFrontdesk({ store }).context
    await createTenant(ctx, { code: 'acme' })
    return (await createApiKey(ctx, { tenantCode: 'acme', name: 'k', permissions: ['cms:read'] })).key
  } finally {
    await store.close()
  }
}

/** Runs `serve` until the returned `stop` is called; resolves once it prints its URL. */
async function serving(dbPath: string, options: ServeOptions): Promise<{ url: string; env: ReturnType<typeof testEnv>; stop: () => Promise<void> }> {
  const env = testEnv()
  const controller = new AbortController()
  const done = serve(dbPath, { port: 0, ...options }, env, controller.signal)
  // Hint: the serving line itself, not any line saying "serving": the public-bind warning comes
  // first, and `serve` aborted before it listens waits for a stop that never comes. Up to 30 s,
  // for a loaded machine (the whole suite under c8).
  const started = /serving (\S+)\/v1\//
  for (let i = 0; i < 1_200 && !started.test(env.stderr.text()); i++) {
    const failed = await Promise.race([done.then(() => true, () => true), new Promise<false>((r) => setTimeout(() => r(false), 25))])
    if (failed) break
  }
  const url = started.exec(env.stderr.text())?.[1]
  if (url === undefined) {
    controller.abort()
    await done
    throw new Error(`serve did not start: ${env.stdout.text()} ${env.stderr.text()}`)
  }
  return {
    url,
    env,
    async stop() {
      controller.abort()
      await done
    },
  }
}

function get(url: string, headers: Record<string, string>, ca?: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const client = url.startsWith('https:') ? https : http
    client
      .get(url, { headers, agent: false, ...(ca === undefined ? {} : { ca }) }, (res) => {
        res.resume()
        resolve(res.statusCode ?? 0)
      })
      .on('error', reject)
  })
}

optionsTest('serve refuses to start without TLS material or --behind-proxy, in one line, touching nothing', async () => {
  const db = join(dir, 'x.db')
  const result = await run('serve', '--db', db, '--port', '0')
  assert.is(result.code, 1)
  assert.match(result.stderr, /^frontdesk: refusing to serve without TLS: pass --cert FILE --key FILE, --dev-cert .*, or --behind-proxy .*\n$/)
  assert.not.ok(existsSync(db))
})

optionsTest('serve refuses contradictory or incomplete options', async () => {
  const db = join(dir, 'x.db')
  const cases: [string[], RegExp][] = [
    [['--dev-cert', '--behind-proxy'], /choose one of/],
    [['--cert', join(dir, 'c.pem')], /--cert and --key go together/],
    [['--dev-cert', '--trusted-proxy', '10.0.0.1'], /--trusted-proxy needs --behind-proxy/],
    [['--dev-cert', '--allow-public-bind'], /--allow-public-bind needs --behind-proxy/],
    [['--behind-proxy', '--host', '0.0.0.0'], /refusing to serve plain HTTP \(--behind-proxy\) on 0\.0\.0\.0, every interface: .*--allow-public-bind/],
    [['--behind-proxy', '--host', '::'], /refusing to serve plain HTTP \(--behind-proxy\) on ::, every interface/],
    [['--behind-proxy', '--host', ''], /refusing to serve plain HTTP \(--behind-proxy\) on an empty --host \(""\), every interface: .*--allow-public-bind/],
    [['--behind-proxy', '--host', '203.0.113.7'], /refusing to serve plain HTTP \(--behind-proxy\) on 203\.0\.113\.7, public address 203\.0\.113\.7/],
    [['--behind-proxy', '--trusted-proxy', 'proxy.local'], /Invalid trusted proxy address: proxy\.local/],
    [['--dev-cert', '--port', '70000'], /invalid port: 70000/],
    [['--cert', join(dir, 'missing.pem'), '--key', join(dir, 'missing.key')], /no such file or directory/],
  ]
  for (const [args, message] of cases) {
    const result = await run('serve', '--db', db, '--port', '0', ...args)
    assert.is(result.code, 1, args.join(' '))
    assert.match(result.stderr, message)
    assert.is(result.stderr.trim().split('\n').length, 1)
  }
})

test('serve --behind-proxy on a wildcard address needs --allow-public-bind, and warns', async () => {
  const db = await database('public.db')
  const key = await seeded(db)
  const server = await serving(db, { behindProxy: true, host: '0.0.0.0', allowPublicBind: true })
  try {
    const lines = server.env.stderr.text().split('\n')
    assert.match(lines[0] ?? '', /^frontdesk: warning: serving plain HTTP on 0\.0\.0\.0 \(every interface\); make sure only the proxy can reach this port$/)
    assert.equal(lines.slice(1).filter((line) => line !== '' && !line.startsWith('frontdesk: serving ')), [])
    const port = /:(\d+)$/.exec(server.url)?.[1]
    assert.is(await get(`http://127.0.0.1:${port}/v1/cms/categories`, { 'x-api-key': key, 'x-forwarded-proto': 'https' }), 200)
  } finally {
    await server.stop()
  }
  const quiet = await serving(db, { behindProxy: true, host: '127.0.0.1' })
  try {
    assert.equal(quiet.env.stderr.text().split('\n').filter((line) => line !== '' && !line.startsWith('frontdesk: serving ')), [])
  } finally {
    await quiet.stop()
  }
})

test('serve --max-connections-per-address limits one address; the help states the server’s own defaults', async () => {
  const db = await database('limits.db')
  const key = await seeded(db)
  const pems = await createDevCert()
  writeFileSync(join(dir, 'cert.pem'), pems.cert)
  writeFileSync(join(dir, 'key.pem'), pems.key)
  const server = await serving(db, { cert: 'cert.pem', key: 'key.pem', maxConnectionsPerAddress: 1 })
  try {
    // A kept-alive connection stays open after its answer, holding the address's one place.
    const agent = new https.Agent({ keepAlive: true, ca: pems.ca })
    const first = await new Promise<number>((resolve, reject) => {
      https.get(`${server.url}/v1/cms/categories`, { headers: { 'x-api-key': key }, agent }, (res) => {
        res.resume()
        res.on('end', () => resolve(res.statusCode ?? 0))
      }).on('error', reject)
    })
    assert.is(first, 200)
    const second = await get(`${server.url}/v1/cms/categories`, { 'x-api-key': key }, pems.ca).then(String, (error: NodeJS.ErrnoException) => error.code)
    assert.is(second, 'ECONNRESET', 'a second connection from the same address is refused')
    agent.destroy()
  } finally {
    await server.stop()
  }
  const help = testEnv()
  await main(['node', 'frontdesk', 'serve', '--help'], help)
  const text = help.stdout.text().replace(/\s+/g, ' ')
  assert.match(text, new RegExp(`--max-connections <n> .*\\(default: ${DEFAULT_MAX_CONNECTIONS},`))
  assert.match(text, new RegExp(`--max-connections-per-address <n> .*\\(default: ${DEFAULT_MAX_CONNECTIONS_PER_ADDRESS},`))
  const bad = await run('serve', '--db', join(dir, 'x.db'), '--dev-cert', '--max-connections', '-1')
  assert.is(bad.code, 1)
  assert.match(bad.stderr, /--max-connections.*must be an integer ≥ 0/)
  assert.match(text, new RegExp(`--gc-headroom <percent> .*\\(default: ${DEFAULT_GC_HEADROOM};`))
  for (const value of ['-1', '1001', '5.5', 'half', '']) {
    const refused = await run('serve', '--db', join(dir, 'x.db'), '--dev-cert', '--gc-headroom', value)
    assert.is(refused.code, 1, value)
    assert.match(refused.stderr, /--gc-headroom.*must be an integer percentage from 0 to 1000/, value)
  }
  assert.is(parseGcHeadroom('0'), 0)
  assert.is(parseGcHeadroom('1000'), 1000)
  assert.match(text, new RegExp(`--send-timeout <seconds> .*\\(default: ${SEND_TIMEOUT_MS / 1_000}, 0 = never\\)`))
  for (const value of ['-1', '3601', '1e3', 'soon', '']) {
    const refused = await run('serve', '--db', join(dir, 'x.db'), '--dev-cert', '--send-timeout', value)
    assert.is(refused.code, 1, value)
    assert.match(refused.stderr, /--send-timeout.*must be a number of seconds from 0 to 3600/, value)
  }
  assert.is(parseSendTimeout('1.5'), 1.5)
  assert.is(parseSendTimeout('0'), 0)
})

optionsTest('serve names the file and what is wrong with a certificate or key that does not fit', async () => {
  const db = join(dir, 'x.db')
  const good = await createDevCert()
  const other = await createDevCert()
  const files: Record<string, string> = { 'cert.pem': good.cert, 'key.pem': good.key, 'other-key.pem': other.key, 'text.txt': 'hello' }
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text)
  const cases: [string, string, RegExp][] = [
    ['text.txt', 'key.pem', /^frontdesk: --cert \/.*\/text\.txt is not a PEM certificate/],
    ['cert.pem', 'text.txt', /^frontdesk: --key \/.*\/text\.txt is not a PEM private key/],
    ['key.pem', 'cert.pem', /^frontdesk: --cert \/.*\/key\.pem holds a private key and --key \/.*\/cert\.pem a certificate: they are swapped/],
    ['key.pem', 'key.pem', /^frontdesk: --cert \/.*\/key\.pem holds a private key, not a certificate/],
    ['cert.pem', 'other-key.pem', /^frontdesk: --key \/.*\/other-key\.pem does not belong to the certificate in --cert \/.*\/cert\.pem/],
  ]
  for (const [cert, key, message] of cases) {
    const result = await run('serve', '--db', db, '--port', '0', '--cert', cert, '--key', key)
    assert.is(result.code, 1, `${cert} ${key}`)
    assert.match(result.stderr, message)
    assert.not.match(result.stderr, /unexpected|ERR_OSSL/)
    assert.is(result.stderr.trim().split('\n').length, 1)
  }
})

test('serve --cert/--key serves HTTPS until stopped, then shuts down and releases the database', async () => {
  const db = await database('site.db')
  const key = await seeded(db)
  const pems = await createDevCert()
  writeFileSync(join(dir, 'cert.pem'), pems.cert)
  writeFileSync(join(dir, 'key.pem'), pems.key, { mode: 0o600 })
  const server = await serving(db, { cert: 'cert.pem', key: 'key.pem' })
  assert.match(server.url, /^https:\/\/127\.0\.0\.1:\d+$/)
  assert.is(await get(`${server.url}/v1/cms/categories`, { 'x-api-key': key }, pems.ca), 200)
  await server.stop()
  assert.match(server.env.stderr.text(), /^frontdesk: serving https:\S+\nfrontdesk: stopping /)
  const lines = server.env.stdout.text().trimEnd().split('\n')
  assert.ok(lines.length >= 1)
  for (const line of lines) assert.type(JSON.parse(line), 'object', `stdout holds JSON lines only: ${line}`)
  assert.not.ok(await get(`${server.url}/v1/cms/categories`, { 'x-api-key': key }, pems.ca).then(() => true, () => false), 'no longer listening')
})

test('serve keeps the search snapshots in its search directory (built at start), none beside the database; by default <db>.search, or .frontdesk/search-<host>-<port>-<database> in the working directory for PostgreSQL', async () => {
  const db = await database('site.db')
  await seeded(db)
  const server = await serving(db, { behindProxy: true, searchDir: join(dir, 'snapshots') })
  await server.stop()
  assert.ok(readdirSync(join(dir, 'snapshots')).some((name) => name.endsWith('.index')))
  assert.not.ok(existsSync(`${db}.search`))
  const byDefault = await serving(db, { behindProxy: true })
  await byDefault.stop()
  const expected = kind === 'sqlite' ? `${db}.search` : join(dir, '.frontdesk', `search-127.0.0.1-${new URL(db).port}-${new URL(db).pathname.slice(1)}`)
  assert.is(defaultSearchDir(db, dir), expected)
  assert.ok(readdirSync(expected).some((name) => name.endsWith('.index')), expected)
})

test('a start whose search snapshot is damaged or of another version builds the index from the database, says so in one line, and writes a new one', async () => {
  const db = await database('site.db')
  await seeded(db)
  const searchDir = join(dir, 'snapshots')
  const first = await serving(db, { behindProxy: true, searchDir })
  await first.stop()
  const [name] = readdirSync(searchDir).filter((file) => file.endsWith('.index'))
  assert.ok(name !== undefined)
  writeFileSync(join(searchDir, name), 'FDSX{"format":1')
  const second = await serving(db, { behindProxy: true, searchDir })
  await second.stop()
  const said = second.env.stderr.text().split('\n').filter((line) => line.includes('search snapshot'))
  assert.equal(said.length, 1, second.env.stderr.text())
  assert.match(said[0] ?? '', /^frontdesk: the search snapshot of tenant \S+ was written by another version or is damaged: its index was built from the database instead \(0 items in \d+\.\d s\)$/)
  const third = await serving(db, { behindProxy: true, searchDir })
  await third.stop()
  assert.not.match(third.env.stderr.text(), /search snapshot/)
})

test('a server told to only read the snapshots (the workers after the first) restores them and never writes one', async () => {
  const db = join(dir, 'site.db')
  await seeded(db)
  const snapshots = join(dir, 'snapshots')
  const reader = await startServer(db, { behindProxy: true }, { port: 0, searchDir: snapshots, snapshots: 'read' })
  await reader.stop()
  assert.not.ok(existsSync(snapshots), 'nothing written')
  const writer = await startServer(db, { behindProxy: true }, { port: 0, searchDir: snapshots, snapshots: 'write', saveSnapshots: true })
  await writer.stop()
  const written = readdirSync(snapshots)
  assert.ok(written.some((name) => name.endsWith('.index')))
  const again = await startServer(db, { behindProxy: true }, { port: 0, searchDir: snapshots, snapshots: 'read' })
  await again.stop()
  assert.equal(readdirSync(snapshots), written)
})

test('--workers takes auto (one per core) or 1 to 256', () => {
  assert.is(workerCount(undefined), 1)
  assert.is(workerCount(3), 3)
  assert.is(workerCount('auto'), availableParallelism())
  assert.is(parseWorkers('auto'), 'auto')
  assert.is(parseWorkers('4'), 4)
  for (const bad of ['0', '-1', '1.5', 'two', '257', '']) assert.throws(() => parseWorkers(bad), /auto \(one per core\) or an integer from 1 to 256/, bad)
})

test(kind === 'sqlite' ? 'serve --dev-cert creates the certificate and its CA beside the database once, and names the CA to trust' : 'serve --dev-cert on PostgreSQL creates the certificate in .frontdesk/ of the working directory once', async () => {
  const db = await database('dev.db')
  const key = await seeded(db)
  const server = await serving(db, { devCert: true })
  const caPath = join(dir, '.frontdesk', 'dev-ca.pem')
  const certPath = join(dir, '.frontdesk', 'dev-cert.pem')
  let pem = ''
  try {
    assert.ok(existsSync(certPath))
    pem = readFileSync(certPath, 'utf8')
    assert.match(server.env.stderr.text(), `clients trust its CA ${caPath}`)
    assert.is(await get(`${server.url}/v1/cms/categories`, { 'x-api-key': key }, readFileSync(caPath, 'utf8')), 200)
  } finally {
    await server.stop()
  }
  const again = await serving(db, { devCert: true })
  try {
    assert.is(readFileSync(certPath, 'utf8'), pem, 'the same certificate on the next start')
  } finally {
    await again.stop()
  }
})

test('serve --metrics-port serves /metrics on a loopback listener of its own; --metrics-host needs it', async () => {
  const db = await database('metrics.db')
  const key = await seeded(db)
  const server = await serving(db, { devCert: true, metricsPort: 0 })
  try {
    const ca = readFileSync(join(dir, '.frontdesk', 'dev-ca.pem'), 'utf8')
    assert.is(await get(`${server.url}/v1/cms/categories`, { 'x-api-key': key }, ca), 200)
    const url = /metrics at (http:\/\/127\.0\.0\.1:\d+\/metrics)\n/.exec(server.env.stderr.text())?.[1]
    assert.ok(url, server.env.stderr.text())
    const text = await new Promise<string>((resolve, reject) => {
      http.get(url, (res) => {
        let body = ''
        res.on('data', (chunk: Buffer) => (body += chunk.toString()))
        res.on('end', () => resolve(body))
      }).on('error', reject)
    })
    assert.match(text, /^frontdesk_http_requests_total\{route="\/v1\/cms\/categories",method="GET",status="200"\} 1$/m)
    assert.is(await get(`${server.url}/metrics`, {}, ca), 404)
  } finally {
    await server.stop()
  }
  const refused = await run('--db', db, 'serve', '--dev-cert', '--metrics-host', '127.0.0.1')
  assert.is(refused.code, 1)
  assert.match(refused.stderr, '--metrics-host needs --metrics-port')
})

test('serve --behind-proxy serves plain HTTP only to a trusted proxy saying https', async () => {
  const db = await database('proxy.db')
  const key = await seeded(db)
  const server = await serving(db, { behindProxy: true })
  try {
    assert.match(server.url, /^http:\/\/127\.0\.0\.1:\d+$/)
    assert.is(await get(`${server.url}/v1/cms/categories`, { 'x-api-key': key, 'x-forwarded-proto': 'https' }), 200)
    assert.is(await get(`${server.url}/v1/cms/categories`, { 'x-api-key': key }), 403)
  } finally {
    await server.stop()
  }
  const strict = await serving(db, { behindProxy: true, trustedProxy: ['10.0.0.0/8'] })
  try {
    assert.is(await get(`${strict.url}/v1/cms/categories`, { 'x-api-key': key, 'x-forwarded-proto': 'https' }), 403)
  } finally {
    await strict.stop()
  }
})

test.run()
