// The packages as a user gets them: every workspace package is packed (`npm pack`, which runs
// its `prepack` build), the tarballs are installed into a scratch project in a temporary
// directory outside the repository, and there, with plain `node` (no tsx, no conditions, no
// workspace links), a service embeds core + adapter-sqlite + http in a node:http server and the
// client talks to it; the CLI runs through `npx frontdesk`; `tsc` type-checks a consumer file,
// the examples and the README's snippets against the published declarations; and the examples
// and README snippets run as printed.
//
// Third-party dependencies come from the npm registry through the npm cache
// (`--prefer-offline`). better-sqlite3 is pinned to the repository's version and its native
// addon is copied from the repository's install: its install script would compile SQLite from
// source (about a minute on two cores, no prebuilt binaries can be downloaded here), which
// tests better-sqlite3, not frontdesk. tsx (to run the TypeScript examples, as their comments
// say) and @types/node are installed in the scratch project like a user would; tsc is the
// repository's. Bounded in time: every child process has a timeout, or is stopped, SIGKILL
// at the latest, whatever fails while it runs.
import type { ChildProcess, SpawnSyncReturns } from 'node:child_process'
import { spawn, spawnSync } from 'node:child_process'
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import * as https from 'node:https'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'

const root = fileURLToPath(new URL('..', import.meta.url))
const test = suite('the packed packages, installed outside the repository')
let scratch = ''
const timings: string[] = []

/** The environment of a child: no npm_* variables of an enclosing `npm test`, scratch's binaries first. */
function childEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {}
  for (const [name, value] of Object.entries(process.env)) {
    if (!/^(npm_|NODE_OPTIONS$|FORCE_COLOR$)/i.test(name)) env[name] = value
  }
  env['PATH'] = `${join(scratch, 'node_modules/.bin')}:${process.env['PATH'] ?? ''}`
  env['NO_COLOR'] = '1'
  return { ...env, ...extra }
}

function run(command: string, args: string[], options: { cwd?: string; env?: Record<string, string>; timeout?: number; input?: string } = {}): SpawnSyncReturns<string> {
  const started = performance.now()
  const result = spawnSync(command, args, {
    cwd: options.cwd ?? scratch,
    env: childEnv(options.env),
    encoding: 'utf8',
    timeout: options.timeout ?? 60_000,
    input: options.input ?? '',
  })
  timings.push(`${[command, ...args].join(' ').slice(0, 60)}: ${Math.round(performance.now() - started)} ms`)
  return result
}

function ok(result: SpawnSyncReturns<string>, what: string): string {
  assert.is(result.status, 0, `${what} failed (${result.status ?? result.signal}):\n${result.stdout}\n${result.stderr}\n${result.error?.message ?? ''}`)
  return result.stdout
}

/** The workspace packages (`packages/<dir>` → `@frontdesk/<name>`), as the build finds them. */
const workspaces = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { workspaces: string[] }).workspaces.map((dir) => ({
  dir,
  name: (JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8')) as { name: string }).name,
}))

const version = (name: string) => (JSON.parse(readFileSync(join(root, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version

test.before(() => {
  scratch = mkdtempSync(join(tmpdir(), 'frontdesk-packed-'))
  const tarballs = join(scratch, 'tarballs')
  mkdirSync(tarballs)
  const packed = JSON.parse(ok(run('npm', ['pack', '--workspaces', '--pack-destination', tarballs, '--json', '--loglevel=error'], { cwd: root, timeout: 120_000 }), 'npm pack')) as { name: string; filename: string }[]
  assert.equal(packed.map((p) => p.name).sort(), workspaces.map((w) => w.name).sort())
  writeFileSync(join(scratch, 'package.json'), JSON.stringify({ name: 'scratch', private: true, type: 'module', overrides: { 'better-sqlite3': version('better-sqlite3') } }, null, 2))
  ok(
    run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error', ...packed.map((p) => join(tarballs, p.filename)), `@types/node@${version('@types/node')}`, `tsx@${version('tsx')}`], { timeout: 180_000 }),
    'npm install',
  )
  const addon = 'node_modules/better-sqlite3/build/Release'
  mkdirSync(join(scratch, addon), { recursive: true })
  copyFileSync(join(root, addon, 'better_sqlite3.node'), join(scratch, addon, 'better_sqlite3.node'))
})

test.after(() => {
  if (scratch !== '') rmSync(scratch, { recursive: true, force: true })
  console.log(`\n  pack-install timings:\n    ${timings.join('\n    ')}`)
})

test('the installed packages hold dist/ (JavaScript, declarations, maps) and no tests', () => {
  for (const { name } of workspaces) {
    const dir = join(scratch, 'node_modules', name)
    const dist = readdirSync(join(dir, 'dist'))
    for (const file of ['index.js', 'index.js.map', 'index.d.ts', 'index.d.ts.map']) assert.ok(dist.includes(file), `${name}/dist/${file}`)
    const all = readdirSync(dir, { recursive: true }).map(String)
    assert.not.ok(all.some((file) => /\.test\.ts$|test-util|tsbuildinfo/.test(file)), `${name} ships no tests or build state`)
  }
})

const EMBED = `
import { once } from 'node:events'
import * as http from 'node:http'
import { openSqliteStore } from '@frontdesk/adapter-sqlite'
import { FrontdeskClient } from '@frontdesk/client'
import { createApiKey, createFrontdesk, createTenant, importRecords, listInquiries } from '@frontdesk/core'
import { createHandler } from '@frontdesk/http'
import { createSearchEngine } from '@frontdesk/search'

const store = openSqliteStore({ path: 'embedded.db' })
const search = createSearchEngine({ store })
const frontdesk = createFrontdesk({ store, search })
const ctx = frontdesk.context
await createTenant(ctx, { code: 'acme' })
const { key } = await createApiKey(ctx, { tenantCode: 'acme', name: 'site', permissions: ['cms:*', 'inquiry:create'] })
const records = [
  { kind: 'category', code: 'news', name: 'News' },
  { kind: 'inquiry_category', code: 'sales', name: 'Sales' },
  ...[1, 2, 3, 4, 5].map((n) => ({ kind: 'content', slug: 'item-' + n, title: 'Office news ' + n, category_code: 'news', status: 'published', published_at: '2025-06-0' + n + 'T00:00:00Z' })),
]
await importRecords(ctx, { tenantCode: 'acme', records: records.map((record, i) => ({ record, location: 'line ' + (i + 1) })) })

const api = createHandler(frontdesk)
const server = http.createServer((req, res) => api(req, res, () => res.writeHead(200, { 'content-type': 'text/plain' }).end('host route')))
server.listen(0, '127.0.0.1')
await once(server, 'listening')
const base = 'http://127.0.0.1:' + server.address().port
// As the host's TLS-terminating proxy on this machine forwards it.
const proxied = { 'x-forwarded-proto': 'https' }
const result = { resolved: import.meta.resolve('@frontdesk/core') }
const keyed = await fetch(base + '/v1/cms/contents?limit=1', { headers: { 'x-api-key': key, ...proxied } })
result.keyed = { status: keyed.status, items: (await keyed.json()).items.length }
result.host = await (await fetch(base + '/elsewhere')).text()
const cms = new FrontdeskClient({ baseUrl: base, apiKey: key, allowHttp: true, headers: proxied })
result.walked = []
for await (const item of cms.contents.all({ category_code: 'news', limit: 2 })) result.walked.push(item.slug)
result.found = (await cms.search({ query: 'office news 3' })).items.map((item) => item.slug)
let attempts = 0
const lossy = new FrontdeskClient({
  baseUrl: base, apiKey: key, allowHttp: true, headers: proxied, retry: { baseDelayMs: 10 },
  // The first answer is lost on the way back: the retry must not create a second inquiry.
  fetch: async (input, init) => { const response = await fetch(input, init); if (++attempts === 1) throw new TypeError('fetch failed'); return response },
})
result.inquiry = (await lossy.inquiries.create({ category_code: 'sales', title: 'Hello', content: 'Call me', inquirer_name: 'Bo', inquirer_email: 'bo@example.com' })).status
result.attempts = attempts
result.inquiries = (await listInquiries(ctx, { tenantCode: 'acme' })).length
try { new FrontdeskClient({ baseUrl: base, apiKey: key }) } catch (error) { result.refused = error.message }
console.log(JSON.stringify(result))
server.close()
await search.close()
await store.close()
`

test('plain node: core + adapter-sqlite + http in a node:http server answer a keyed request; the client walks, searches, retries an inquiry', () => {
  writeFileSync(join(scratch, 'embed.mjs'), EMBED)
  const result = JSON.parse(ok(run(process.execPath, ['embed.mjs']), 'embed.mjs')) as Record<string, unknown>
  assert.match(String(result['resolved']), new RegExp(`^file://${scratch}/node_modules/@frontdesk/core/dist/index\\.js$`))
  assert.equal(result['keyed'], { status: 200, items: 1 })
  assert.is(result['host'], 'host route')
  assert.equal(result['walked'], ['item-5', 'item-4', 'item-3', 'item-2', 'item-1'])
  assert.is((result['found'] as string[])[0], 'item-3')
  assert.is(result['inquiry'], 'open')
  assert.is(result['attempts'], 2)
  assert.is(result['inquiries'], 1)
  assert.match(String(result['refused']), /plain http/)
})

test('npx frontdesk --version and tenant create', () => {
  const { version: cliVersion } = JSON.parse(readFileSync(join(root, 'packages/cli/package.json'), 'utf8')) as { version: string }
  assert.is(ok(run('npx', ['--no-install', 'frontdesk', '--version']), 'frontdesk --version'), `${cliVersion}\n`)
  assert.match(ok(run('npx', ['--no-install', 'frontdesk', '--db', 'cli.db', 'tenant', 'create', 'acme']), 'tenant create'), /^Created tenant acme /)
})

/** The first ```ts block after `heading` in the README. */
function readmeSnippet(heading: string): string {
  const readme = readFileSync(join(root, 'README.md'), 'utf8')
  const at = readme.indexOf(`\n${heading}\n`)
  assert.ok(at >= 0, heading)
  const block = /```ts\n([\s\S]*?)```/.exec(readme.slice(at))
  assert.ok(block?.[1], `a ts block under ${heading}`)
  return block[1]
}

test('tsc type-checks a consumer, the examples and the README snippets against the published declarations', () => {
  cpSync(join(root, 'examples'), join(scratch, 'examples'), { recursive: true })
  writeFileSync(join(scratch, 'readme-embed.ts'), readmeSnippet('## Embedding frontdesk in a Node service'))
  writeFileSync(join(scratch, 'readme-client.ts'), readmeSnippet('## Using the client'))
  writeFileSync(
    join(scratch, 'consumer.ts'),
    `import type { ContentListItem, SearchResponse } from '@frontdesk/client'
import { FrontdeskApiError, FrontdeskCertificateError, FrontdeskClient } from '@frontdesk/client'
import type { Frontdesk, InquiryRecord, Store } from '@frontdesk/core'
import { createFrontdesk, listInquiries } from '@frontdesk/core'
import { openSqliteStore } from '@frontdesk/adapter-sqlite'
import { createSearchEngine } from '@frontdesk/search'
import type { NodeHandler } from '@frontdesk/http'
import { createHandler } from '@frontdesk/http'
import { main } from '@frontdesk/cli'

const store = openSqliteStore({ path: 'typed.db' })
const port: Store = store
const frontdesk: Frontdesk = createFrontdesk({ store, search: createSearchEngine({ store }) })
const handler: NodeHandler = createHandler(frontdesk)
const inquiries: InquiryRecord[] = await listInquiries(frontdesk.context, { tenantCode: 'acme' })
const cms = new FrontdeskClient({ baseUrl: 'https://cms.example.com', apiKey: 'fdk_x' })
const first: ContentListItem | undefined = (await cms.contents.list({ limit: 1 })).items[0]
const found: SearchResponse = await cms.search({ query: 'news' })
const code: Promise<number> = main(['node', 'frontdesk', '--version'])
const error: unknown = null
if (error instanceof FrontdeskApiError) console.log(error.status, error.code, error.requestId)
if (error instanceof FrontdeskCertificateError) console.log(error.code, error.origin)
// @ts-expect-error the published types are not \`any\`: an apiKey is a string
new FrontdeskClient({ baseUrl: 'https://cms.example.com', apiKey: 42 })
console.log(port, handler, inquiries, first, found, code)
`,
  )
  writeFileSync(
    join(scratch, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: { target: 'es2023', lib: ['es2023'], module: 'nodenext', moduleResolution: 'nodenext', strict: true, noEmit: true, types: ['node'], skipLibCheck: false },
      include: ['consumer.ts', 'readme-*.ts', 'examples/*.ts'],
    }),
  )
  ok(run(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json']), 'tsc --noEmit')
})

interface Background {
  child: ChildProcess
  output: () => string
  /** Settles once the process has ended and its output is all read (its exit code, null after a signal). */
  exited: Promise<number | null>
}

/** Runs a TypeScript file with tsx, as `npx tsx file` does, in the background. */
function background(script: string, env: Record<string, string>): Background {
  // Hint: one process, with tsx's loader resolved from the scratch project. The tsx CLI
  // (`node_modules/.bin/tsx`) would run the file in a second process that shares our pipes and
  // outlives a SIGKILL of the CLI: a server killed so would keep the whole test run waiting.
  const child = spawn(process.execPath, ['--import', 'tsx', script], { cwd: scratch, env: childEnv(env), stdio: ['ignore', 'pipe', 'pipe'] })
  let text = ''
  child.stdout?.on('data', (chunk: Buffer) => (text += chunk.toString()))
  child.stderr?.on('data', (chunk: Buffer) => (text += chunk.toString()))
  const exited = new Promise<number | null>((resolve) => {
    child.once('close', (code) => resolve(code))
    child.once('error', (error) => {
      text += `\n${error.message}`
      resolve(null)
    })
  })
  return { child, output: () => text, exited }
}

/** Sends `signal`, then SIGKILL if the process is still running 20 s later; resolves to its exit code. */
async function stop(server: Background, signal: NodeJS.Signals): Promise<number | null> {
  if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill(signal)
  const timer = setTimeout(() => server.child.kill('SIGKILL'), 20_000)
  try {
    return await server.exited
  } finally {
    clearTimeout(timer)
  }
}

async function waitFor(server: Background, pattern: RegExp): Promise<RegExpExecArray> {
  for (let i = 0; i < 300; i++) {
    const match = pattern.exec(server.output())
    if (match !== null) return match
    if (server.child.exitCode !== null || server.child.signalCode !== null) break
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error(`no ${pattern} in: ${server.output()}`)
}

function get(url: string, ca: string, headers: Record<string, string>): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const request = https.get(url, { ca, headers, agent: false, timeout: 10_000 }, (res) => {
      let text = ''
      res.on('data', (chunk: Buffer) => (text += chunk.toString()))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }))
      res.on('error', reject)
    })
    // Hint: `timeout` only reports an idle socket; the request is not ended by it.
    request.on('timeout', () => request.destroy(new Error(`no answer from ${url} in 10 s`)))
    request.on('error', reject)
  })
}

test('the examples and the README snippets run as printed', async () => {
  const db = join(scratch, 'frontdesk.db')
  // examples/keys-and-import.sh, with `frontdesk` from node_modules/.bin on the PATH.
  assert.match(ok(run('bash', ['examples/keys-and-import.sh'], { env: { FRONTDESK_DB: db } }), 'keys-and-import.sh'), /Imported 11 records/)
  const key = (JSON.parse(ok(run('npx', ['--no-install', 'frontdesk', 'key', 'create', '--tenant', 'acme', '--name', 'test', '--permissions', 'cms:read', '--json'], { env: { FRONTDESK_DB: db } }), 'key create')) as { key: string }).key
  ok(run(process.execPath, ['--input-type=module', '-e', "import { writeFileSync } from 'node:fs'; import { createDevCert } from '@frontdesk/http'; const { cert, key, ca } = await createDevCert(); writeFileSync('cert.pem', cert); writeFileSync('key.pem', key); writeFileSync('ca.pem', ca)"]), 'certificate')
  const ca = readFileSync(join(scratch, 'ca.pem'), 'utf8')
  const trust = { NODE_EXTRA_CA_CERTS: join(scratch, 'ca.pem') }

  // The README's embedding snippet (`npx tsx server.ts`), then its client snippet against it.
  const embedded = background('readme-embed.ts', { PORT: '0' })
  try {
    const port = (await waitFor(embedded, /port: (\d+)/))[1] ?? ''
    const list = await get(`https://127.0.0.1:${port}/v1/cms/contents?category_code=news`, ca, { 'x-api-key': key })
    assert.is(list.status, 200, list.text)
    assert.is((await get(`https://127.0.0.1:${port}/elsewhere`, ca, {})).text, 'your own routes here\n')
    const client = run('npx', ['--no-install', 'tsx', 'readme-client.ts'], { env: { FRONTDESK_URL: `https://localhost:${port}`, FRONTDESK_KEY: key, ...trust } })
    assert.match(ok(client, 'README client snippet'), /オフィス移転のお知らせ\n/)
  } finally {
    await stop(embedded, 'SIGTERM')
  }

  // examples/embed-node-http.ts, with examples/render-page.ts rendering from it.
  const example = background('examples/embed-node-http.ts', { FRONTDESK_DB: db, TLS_CERT: 'cert.pem', TLS_KEY: 'key.pem', PORT: '0' })
  try {
    const url = (await waitFor(example, /listening on (https:\/\/\S+?)\/ /))[1] ?? ''
    const page = run('npx', ['--no-install', 'tsx', 'examples/render-page.ts', 'news'], { env: { FRONTDESK_URL: url, FRONTDESK_KEY: key, ...trust } })
    const html = ok(page, 'render-page.ts')
    assert.match(html, /^<!doctype html>/)
    assert.match(html, /<h1>News<\/h1>/)
    assert.is(await stop(example, 'SIGTERM'), 0, example.output())
    assert.match(example.output(), /stopped/)
  } finally {
    await stop(example, 'SIGKILL')
  }
})

test.run()
