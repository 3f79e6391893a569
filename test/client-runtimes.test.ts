// The client on every runtime it claims besides Node: Bun, Deno and workerd, as their registry
// packages ship them (test/runtimes/package.json, installed here with `npm ci --prefix
// test/runtimes` when missing: ~350 MB, ~20 s from the registry, then kept). The packed client
// (dist/) and test/runtimes/conformance.ts are bundled into one module, which each runtime
// runs against a real frontdesk HTTPS server on 127.0.0.1 with the development certificate
// `serve --dev-cert` makes (a leaf signed by the local CA in .frontdesk/), whose CA that runtime
// trusts its own way (Bun: NODE_EXTRA_CA_CERTS, Deno: --cert, workerd: the network service's
// trustedCertificates), and against a second server whose certificate, from another CA, it does
// not trust. Each child has a time limit.
import type { ChildProcess, SpawnSyncReturns } from 'node:child_process'
import { spawn, spawnSync } from 'node:child_process'
import { once } from 'node:events'
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import type { Server } from 'node:https'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { buildSync } from 'esbuild'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { openSqliteStore } from '@frontdesk/adapter-sqlite'
import type { Frontdesk, Store } from '@frontdesk/core'
import { createApiKey, createFrontdesk, createTenant, importRecords, listInquiries } from '@frontdesk/core'
import { createDevCert, createServer, ensureDevCert } from '@frontdesk/http'
import { createSearchEngine } from '@frontdesk/search'

const root = fileURLToPath(new URL('..', import.meta.url))
const runtimes = join(root, 'test/runtimes')
const BINARIES = {
  bun: join(runtimes, 'node_modules/@oven/bun-linux-x64/bin/bun'),
  deno: join(runtimes, 'node_modules/@deno/linux-x64-glibc/deno'),
  workerd: join(runtimes, 'node_modules/@cloudflare/workerd-linux-64/bin/workerd'),
}
// Hint: the packages ship Linux x64 binaries; elsewhere the runtimes are not installable this way.
const supported = process.platform === 'linux' && process.arch === 'x64'
const test = suite('the client on Bun, Deno and workerd')

let scratch = ''
let store: Store
let frontdesk: Frontdesk
let close: () => Promise<void> = async () => {}
let trusted: Server
let untrusted: Server
let config = { url: '', untrustedUrl: '', readKey: '', inquiryKey: '' }
let bundle = ''

function run(command: string, args: string[], options: { cwd?: string; env?: Record<string, string>; timeout?: number } = {}): SpawnSyncReturns<string> {
  return spawnSync(command, args, { cwd: options.cwd ?? scratch, env: { ...process.env, ...options.env }, encoding: 'utf8', timeout: options.timeout ?? 60_000 })
}

function ok(result: SpawnSyncReturns<string>, what: string): string {
  assert.is(result.status, 0, `${what} failed (${result.status ?? result.signal}):\n${result.stdout}\n${result.stderr}\n${result.error?.message ?? ''}`)
  return result.stdout
}

async function listen(server: Server): Promise<string> {
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  return `https://127.0.0.1:${(server.address() as AddressInfo).port}`
}

test.before(async () => {
  if (!supported) return
  if (!Object.values(BINARIES).every((binary) => existsSync(binary))) {
    ok(run('npm', ['ci', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'], { cwd: runtimes, timeout: 240_000 }), 'npm ci --prefix test/runtimes')
  }
  scratch = mkdtempSync(join(tmpdir(), 'frontdesk-runtimes-'))
  store = openSqliteStore({ path: join(scratch, 'frontdesk.db') })
  const search = createSearchEngine({ store })
  frontdesk = createFrontdesk({ store, search })
  close = async () => {
    await search.close()
    await store.close()
  }
  const ctx = frontdesk.context
  await createTenant(ctx, { code: 'acme' })
  const records = [
    { kind: 'category', code: 'news', name: 'News', fields: [{ id: 'fld_price', name: 'price', type: 'number' }] },
    { kind: 'inquiry_category', code: 'sales', name: 'Sales' },
    ...[1, 2, 3, 4, 5].map((n) => ({ kind: 'content', slug: `item-${n}`, title: `Office news ${n}`, category_code: 'news', status: 'published', published_at: `2025-06-0${n}T00:00:00Z` })),
  ]
  await importRecords(ctx, { tenantCode: 'acme', records: records.map((record, i) => ({ record, location: `line ${i + 1}` })) })
  const readKey = (await createApiKey(ctx, { tenantCode: 'acme', name: 'site', permissions: ['cms:read', 'cms:search'] })).key
  const inquiryKey = (await createApiKey(ctx, { tenantCode: 'acme', name: 'form', permissions: ['inquiry:create'] })).key
  // Hint: the files `serve --dev-cert` reads and writes, in .frontdesk/ beside its database.
  const dev = await ensureDevCert(join(scratch, '.frontdesk'))
  trusted = createServer(frontdesk, { tls: { cert: dev.cert, key: dev.key } }) as Server
  untrusted = createServer(frontdesk, { tls: await createDevCert() }) as Server
  config = { url: await listen(trusted), untrustedUrl: await listen(untrusted), readKey, inquiryKey }
  const built = buildSync({ entryPoints: [join(runtimes, 'conformance.ts')], bundle: true, format: 'esm', platform: 'neutral', write: false, logLevel: 'error' })
  bundle = built.outputFiles[0]?.text ?? ''
  assert.match(bundle, /\/\/ packages\/client\/dist\/frontdesk-client\.js\n/, 'the packed client')
})

test.after(async () => {
  if (!supported) return
  for (const server of [trusted, untrusted]) {
    server?.closeAllConnections()
    server?.close()
  }
  await close()
  if (scratch !== '') rmSync(scratch, { recursive: true, force: true })
})

/** Runs `command` in the background (the servers answer in this process), within 60 s; its output once it ended. */
async function runAsync(command: string, args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; output: string }> {
  const child: ChildProcess = spawn(command, args, { cwd: scratch, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()))
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()))
  const timer = setTimeout(() => child.kill('SIGKILL'), 60_000)
  const [code] = (await once(child, 'close')) as [number | null]
  clearTimeout(timer)
  return { code, output }
}

/** The `RESULT {json}` line a runtime printed. */
function resultOf(run: { code: number | null; output: string }, runtime: string): Record<string, unknown> {
  const line = run.output.split('\n').find((text) => text.includes('RESULT '))
  assert.ok(line !== undefined, `${runtime} printed no result (exit ${run.code}):\n${run.output}`)
  return JSON.parse(line.slice(line.indexOf('RESULT ') + 'RESULT '.length)) as Record<string, unknown>
}

const script = (body: string) => `${bundle}\nconst CONFIG = ${JSON.stringify(config)};\n${body}\n`

async function assertConformance(result: Record<string, unknown>, runtime: 'bun' | 'deno' | 'workerd'): Promise<void> {
  assert.equal(result['walked'], ['item-5', 'item-4', 'item-3', 'item-2', 'item-1'], runtime)
  assert.is(result['byId'], 'item-3')
  assert.equal(result['categories'], ['news'])
  assert.equal(result['fields'], ['price'])
  assert.is((result['found'] as string[])[0], 'item-3')
  assert.is(result['openapi'], '3.1.0')
  assert.is(result['inquiry'], 'open')
  assert.equal(result['inquiryCategories'], ['sales'])
  assert.equal(result['notFound'], { apiError: true, status: 404, code: 'NOT_FOUND' })
  assert.equal(result['forbidden'], { apiError: true, code: 'FORBIDDEN', message: 'Insufficient permissions: this endpoint needs cms:read (or cms:*); this key has inquiry:create' })
  const certificate = result['certificate'] as { certificateError: boolean; runtime: string; origin: string; message: string; calls: number }
  assert.ok(certificate.certificateError, `${runtime}: ${certificate.message}`)
  assert.is(certificate.runtime, runtime, 'the hint is this runtime’s')
  assert.is(certificate.origin, config.untrustedUrl)
  assert.is(certificate.calls, 1, 'a certificate error is not retried')
  const hints = { bun: /in Bun set NODE_EXTRA_CA_CERTS/, deno: /in Deno run with --cert/, workerd: /most likely because its TLS certificate was not accepted \(workerd: internal error; reference = \w+\).*trustedCertificates/ }
  assert.match(certificate.message, hints[runtime])
}

;(supported ? test : test.skip)('Bun (NODE_EXTRA_CA_CERTS): every call, typed errors, a refused certificate', async () => {
  writeFileSync(join(scratch, 'bun.mjs'), script("console.log('RESULT ' + JSON.stringify(await conformance(CONFIG)))"))
  const before = (await listInquiries(frontdesk.context, { tenantCode: 'acme' })).length
  await assertConformance(resultOf(await runAsync(BINARIES.bun, ['bun.mjs'], { NODE_EXTRA_CA_CERTS: join(scratch, '.frontdesk/dev-ca.pem') }), 'bun'), 'bun')
  assert.is((await listInquiries(frontdesk.context, { tenantCode: 'acme' })).length, before + 1, 'one inquiry stored')
})

;(supported ? test : test.skip)('Deno (--cert): every call, typed errors, a refused certificate', async () => {
  writeFileSync(join(scratch, 'deno.mjs'), script("console.log('RESULT ' + JSON.stringify(await conformance(CONFIG)))"))
  const run = await runAsync(BINARIES.deno, ['run', '--no-config', '--no-lock', '--allow-net=127.0.0.1', '--cert', join(scratch, '.frontdesk/dev-ca.pem'), 'deno.mjs'], { DENO_DIR: join(scratch, 'deno-dir'), NO_COLOR: '1' })
  await assertConformance(resultOf(run, 'deno'), 'deno')
})

;(supported ? test : test.skip)('workerd (trustedCertificates): every call, typed errors, a refused certificate', async () => {
  writeFileSync(join(scratch, 'worker.mjs'), script("export default { async test() { console.log('RESULT ' + JSON.stringify(await conformance(CONFIG))) } }"))
  writeFileSync(
    join(scratch, 'workerd.capnp'),
    `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [
    (name = "main", worker = .worker),
    (name = "internet", network = (allow = ["public", "private", "local"], tlsOptions = (trustedCertificates = [embed ".frontdesk/dev-ca.pem"]))),
  ],
);
const worker :Workerd.Worker = (modules = [(name = "worker", esModule = embed "worker.mjs")], compatibilityDate = "2024-09-23");
`,
  )
  const run = await runAsync(BINARIES.workerd, ['test', 'workerd.capnp'])
  await assertConformance(resultOf(run, 'workerd'), 'workerd')
  assert.is(run.code, 0, run.output)
})

test.run()
