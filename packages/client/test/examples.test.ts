// examples/embed-node-http.ts and examples/render-page.ts, run as users run them: in a child
// process against a temporary database on 127.0.0.1, bounded in time.
import type { ChildProcess } from 'node:child_process'
import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import * as https from 'node:https'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { openSqliteStore } from '@frontdesk/adapter-sqlite'
import { createApiKey, createFrontdesk, createTenant, importRecords } from '@frontdesk/core'
// Hint: the HTTPS test server is a test utility of @frontdesk/http, not part of any package's API.
import type { TestServer } from '../../http/test/util/test-server.ts'
import { startTestServer } from '../../http/test/util/test-server.ts'

const root = fileURLToPath(new URL('../../..', import.meta.url))
const tsx = ['--conditions=source', '--import', 'tsx']

const records = [
  { kind: 'category', code: 'news', name: 'News', description: 'What is new' },
  { kind: 'content', slug: 'move', title: 'Office <script>move</script>', category_code: 'news', status: 'published', published_at: '2025-06-02T00:00:00Z', summary: 'We & you', body: '<p>New <b>address</b></p>', tags: ['office'] },
  { kind: 'content', slug: 'older', title: 'Older news', category_code: 'news', status: 'published', published_at: '2025-06-01T00:00:00Z' },
  { kind: 'content', slug: 'hidden', title: 'Hidden draft', category_code: 'news' },
]

const test = suite('examples run')
let dir = ''

test.before.each(() => {
  dir = mkdtempSync(join(tmpdir(), 'frontdesk-examples-'))
})

test.after.each(() => {
  rmSync(dir, { recursive: true, force: true })
})

interface Run {
  child: ChildProcess
  stdout: () => string
  stderr: () => string
  exited: Promise<number | null>
}

function run(script: string, args: string[], env: Record<string, string>): Run {
  const child = spawn(process.execPath, [...tsx, join(root, 'examples', script), ...args], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { PATH: process.env['PATH'] ?? '', ...env },
  })
  let out = ''
  let err = ''
  child.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString()))
  child.stderr?.on('data', (chunk: Buffer) => (err += chunk.toString()))
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
  // No example may outlive its test.
  const timer = setTimeout(() => child.kill('SIGKILL'), 30_000)
  void exited.then(() => clearTimeout(timer))
  return { child, stdout: () => out, stderr: () => err, exited }
}

function get(url: string, ca: string, headers: Record<string, string> = {}): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    https
      .get(url, { ca, headers, agent: false, timeout: 10_000 }, (res) => {
        let text = ''
        res.on('data', (chunk: Buffer) => (text += chunk.toString()))
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }))
      })
      .on('error', reject)
  })
}

test('embed-node-http.ts serves its own routes and frontdesk under /v1, and stops on SIGTERM', async () => {
  const db = join(dir, 'embed.db')
  const store = openSqliteStore({ path: db })
  let key: string
  try {
    const ctx = createFrontdesk({ store }).context
    await createTenant(ctx, { code: 'acme' })
    key = (await createApiKey(ctx, { tenantCode: 'acme', name: 'site', permissions: ['cms:read'] })).key
    await importRecords(ctx, { tenantCode: 'acme', records: records.map((record, i) => ({ record, location: String(i) })) })
  } finally {
    await store.close()
  }
  // Hint: without TLS_CERT/TLS_KEY (test/pack-install.test.ts gives them) it takes the development certificate.
  const example = run('embed-node-http.ts', [], { FRONTDESK_DB: db, PORT: '0' })
  try {
    let url: string | undefined
    for (let i = 0; i < 300 && url === undefined && example.child.exitCode === null; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50))
      url = /listening on (https:\/\/\S+?)\/ /.exec(example.stdout())?.[1]
    }
    assert.ok(url, `started: ${example.stdout()} ${example.stderr()}`)
    const caPath = join(dir, '.frontdesk', 'dev-ca.pem')
    assert.match(example.stdout(), `development certificate: clients trust its CA ${caPath}`)
    const pems = { ca: readFileSync(caPath, 'utf8') }
    const home = await get(`${url}/`, pems.ca)
    assert.is(home.status, 200)
    assert.match(home.text, /host service/)
    const health = await get(`${url}/healthz`, pems.ca)
    assert.equal(JSON.parse(health.text), { status: 'ok', service: 'host' })
    const list = await get(`${url}/v1/cms/contents?category_code=news`, pems.ca, { 'x-api-key': key })
    assert.is(list.status, 200)
    assert.equal(JSON.parse(list.text).items.map((item: { slug: string }) => item.slug), ['move', 'older'])
    assert.is((await get(`${url}/v1/cms/contents`, pems.ca)).status, 401)
    assert.is((await get(`${url}/elsewhere`, pems.ca)).status, 404)
    example.child.kill('SIGTERM')
    assert.is(await example.exited, 0, example.stderr())
    assert.match(example.stdout(), /"path":"\/v1\/cms\/contents\?category_code=news","status":200/)
    assert.match(example.stdout(), /stopped/)
  } finally {
    if (example.child.exitCode === null) example.child.kill('SIGKILL')
  }
})

test('render-page.ts renders a category page with the client over the global fetch, text escaped', async () => {
  let server: TestServer | null = null
  try {
    server = await startTestServer()
    await server.tenant('acme')
    const key = await server.key('acme', ['cms:read'])
    await importRecords(server.frontdesk.context, { tenantCode: 'acme', records: records.map((record, i) => ({ record, location: String(i) })) })
    writeFileSync(join(dir, 'ca.pem'), server.cert)
    const env = { FRONTDESK_URL: server.url, FRONTDESK_KEY: key, NODE_EXTRA_CA_CERTS: join(dir, 'ca.pem') }
    const example = run('render-page.ts', ['news', '1'], env)
    assert.is(await example.exited, 0, example.stderr())
    const html = example.stdout()
    assert.match(html, /^<!doctype html>/)
    assert.match(html, /<h1>News<\/h1>/)
    assert.match(html, /Office &#60;script&#62;move&#60;\/script&#62;/)
    assert.not.match(html, /<script>/)
    assert.match(html, /<p>We &#38; you<\/p>/)
    assert.match(html, /<section class="lead"><p>New <b>address<\/b><\/p><\/section>/)
    assert.match(html, /rel="next"/, 'one item per page: a link to the next')
    assert.not.match(html, /Hidden draft/)
    const refused = run('render-page.ts', ['news'], { ...env, FRONTDESK_KEY: 'fdk_wrong' })
    assert.is(await refused.exited, 1)
    assert.match(refused.stderr(), /^frontdesk: 401 UNAUTHORIZED: .+ \(request [0-9a-f-]{36}\)\n$/)
  } finally {
    await server?.close()
  }
})

test.run()
