import { mkdtempSync, rmSync } from 'node:fs'
import type { IncomingHttpHeaders, Server } from 'node:http'
import * as https from 'node:https'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { suite } from 'uvu'
import type { Test } from 'uvu'
import { openPostgresStore } from '@frontdesk/adapter-postgres'
import { openTestStore, postgresSuite } from '@frontdesk/adapter-postgres/testing'
import { openSqliteStore } from '@frontdesk/adapter-sqlite'
import { createSearchEngine } from '@frontdesk/search'
import type { Clock, Frontdesk, FrontdeskHooks, ResponseCacheOptions, Store, Tenant } from '@frontdesk/core'
import { createApiKey, createFrontdesk, createTenant } from '@frontdesk/core'
import type { FrontdeskMetrics, ServerOptions } from '@frontdesk/http'
import { createDevCert, createServer } from '@frontdesk/http'

/** The stores the behaviour tests run on. */
export type TestStoreKind = 'sqlite' | 'postgres'

/**
 * The store a test module runs on: `postgres` when it was imported with `?store=postgres`
 * (`on-postgres.test.ts` imports the behaviour tests once more that way), else `sqlite`.
 */
export function storeOf(moduleUrl: string): TestStoreKind {
  return new URL(moduleUrl).searchParams.get('store') === 'postgres' ? 'postgres' : 'sqlite'
}

/** A suite title for a test module: `title` on SQLite, `title (PostgreSQL)` on PostgreSQL. */
export function titled(title: string, moduleUrl: string): string {
  return storeOf(moduleUrl) === 'postgres' ? `${title} (PostgreSQL)` : title
}

/**
 * The uvu suite of a behaviour test module, titled as `titled` does. On PostgreSQL, when the
 * test server cannot be had, its cases are skipped with the reason (see `postgresSuite`).
 */
export async function behaviourSuite<T>(title: string, moduleUrl: string, context?: T): Promise<Test<T>> {
  const name = titled(title, moduleUrl)
  return storeOf(moduleUrl) === 'postgres' ? postgresSuite<T>(name, context) : suite<T>(name, context)
}

/**
 * How long a change committed through another store (another process) may take to reach a
 * server: nothing on SQLite (every read checks \`PRAGMA data_version\`), 1 s on PostgreSQL
 * (LISTEN/NOTIFY wakes the store, a 200 ms poll is the fallback; issue 18 asks for 1 s).
 */
export function propagationMs(kind: TestStoreKind): number {
  return kind === 'postgres' ? 1_000 : 0
}

/**
 * Asks \`probe\` until it answers true, at least once and for at most \`withinMs\`; fails with
 * \`what\` otherwise. Resolves to the milliseconds it took.
 */
export async function eventually(probe: () => Promise<boolean>, withinMs: number, what: string): Promise<number> {
  const started = performance.now()
  for (;;) {
    if (await probe()) return performance.now() - started
    if (performance.now() - started >= withinMs) throw new Error(`${what}: not within ${withinMs} ms`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

/** Options of `startTestServer`. */
export interface TestServerOptions {
  /** The store behind the server (default SQLite), searched by the engine of `@frontdesk/search` in either case. */
  store?: TestStoreKind
  clock?: Clock
  cache?: ResponseCacheOptions
  hooks?: FrontdeskHooks
  /** Failed authentications allowed per address and second (default as `createFrontdesk`). */
  failedAuthRate?: number
  /** Options of the HTTP server (body limit, error callback…). */
  server?: ServerOptions
  /** Metrics to count in, wired as `frontdesk serve` does (server, search engine, inquiries, cache and index). */
  metrics?: FrontdeskMetrics
}

/**
 * A parsed JSON response body. Typed loosely on purpose: tests poke into bodies freely and
 * assert on what they find, so a precise type would only add casts.
 */
export type JsonBody = any

/** A response as tests see it. */
export interface TestResponse {
  status: number
  headers: IncomingHttpHeaders
  /** The parsed JSON body, or `null` for an empty body. */
  body: JsonBody
  /** The raw body text. */
  text: string
}

/** What a request may carry: a `body` object is sent as JSON (with `Content-Type: application/json` unless given). */
export interface TestRequestOptions {
  headers?: Record<string, string>
  body?: unknown
}

/** A running test server over its own SQLite file or PostgreSQL database. */
export interface TestServer {
  /** `https://127.0.0.1:<port>` */
  url: string
  port: number
  store: Store
  frontdesk: Frontdesk
  /** The certificate clients trust (the development CA that signed the server's), in PEM. */
  cert: string
  /** The temporary directory holding the database. */
  dir: string
  /** Opens another store over the same database, as another server process would (the caller closes it). */
  reopen(): Promise<Store>
  /** Creates a tenant (default code: `t1`, `t2`, …). */
  tenant(code?: string): Promise<Tenant>
  /** Creates a tenant API key (or a personal one) and returns the key itself. */
  key(tenantCode: string, permissions: string[], options?: { personal?: boolean; rateLimit?: number | null; name?: string }): Promise<string>
  /** Sends one request over HTTPS (a new connection each time) and reads the whole response. */
  request(method: string, path: string, options?: TestRequestOptions): Promise<TestResponse>
  /** Stops the server, closes the store and removes the directory. */
  close(): Promise<void>
}

let certificate: Promise<{ cert: string; key: string; ca: string }> | null = null

/**
 * Starts a real HTTPS server on 127.0.0.1 (a free port) over a real SQLite file in a temporary
 * directory (with the SQLite search index), with a self-signed certificate the `request`
 * helper trusts.
 */
export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  certificate ??= createDevCert()
  const pems = await certificate
  const dir = mkdtempSync(join(tmpdir(), 'frontdesk-http-'))
  let store: Store
  let release: () => Promise<void>
  let reopen: () => Promise<Store>
  if (options.store === 'postgres') {
    const opened = await openTestStore()
    store = opened.store
    release = opened.cleanup
    reopen = () => openPostgresStore({ url: opened.url })
  } else {
    const sqlite = openSqliteStore({ path: join(dir, 'test.db') })
    store = sqlite
    release = () => sqlite.close()
    reopen = async () => openSqliteStore({ path: join(dir, 'test.db') })
  }
  const search = createSearchEngine({ store })
  const metrics = options.metrics
  const frontdesk = createFrontdesk({
    store,
    search: metrics === undefined ? search : metrics.instrumentSearch(search),
    ...(metrics === undefined ? {} : { hooks: { ...options.hooks, onInquiryCreated: () => metrics.inquiryCreated() } }),
    ...(options.clock === undefined ? {} : { clock: options.clock }),
    ...(options.cache === undefined ? {} : { cache: options.cache }),
    ...(options.failedAuthRate === undefined ? {} : { failedAuthRate: options.failedAuthRate }),
    ...(options.hooks === undefined || metrics !== undefined ? {} : { hooks: options.hooks }),
  })
  metrics?.watch(frontdesk, () => search.stats())
  const server = createServer(frontdesk, { tls: pems }, { onError: () => {}, ...options.server, ...(metrics === undefined ? {} : { metrics }) })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => resolve())
  })
  const port = (server.address() as AddressInfo).port
  const url = `https://127.0.0.1:${port}`
  let tenants = 0
  let keys = 0

  return {
    url,
    port,
    store,
    frontdesk,
    cert: pems.ca,
    dir,
    reopen,
    tenant: (code) => createTenant(frontdesk.context, { code: code ?? `t${++tenants}` }),
    async key(tenantCode, permissions, keyOptions = {}) {
      const created = await createApiKey(frontdesk.context, {
        tenantCode,
        name: keyOptions.name ?? `test key ${++keys}`,
        permissions,
        ...(keyOptions.personal === undefined ? {} : { personal: keyOptions.personal }),
        ...(keyOptions.rateLimit === undefined ? {} : { rateLimit: keyOptions.rateLimit }),
      })
      return created.key
    },
    request: (method, path, requestOptions = {}) => testRequest(url, pems.ca, method, path, requestOptions),
    async close() {
      await closeServer(server)
      await search.close()
      await release()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

/** Sends one HTTPS request to `baseUrl`, trusting `ca`, and reads the whole response. */
export function testRequest(baseUrl: string, ca: string, method: string, path: string, options: TestRequestOptions = {}): Promise<TestResponse> {
  const headers: Record<string, string> = { ...options.headers }
  let payload: Buffer | null = null
  if (options.body !== undefined) {
    if (typeof options.body === 'string' || Buffer.isBuffer(options.body)) payload = Buffer.from(options.body)
    else {
      payload = Buffer.from(JSON.stringify(options.body))
      if (!Object.keys(headers).some((name) => name.toLowerCase() === 'content-type')) headers['content-type'] = 'application/json'
    }
  }
  if (payload !== null && !Object.keys(headers).some((name) => /^(content-length|transfer-encoding)$/i.test(name))) {
    headers['content-length'] = String(payload.length)
  }
  return new Promise((resolve, reject) => {
    const request = https.request(new URL(path, baseUrl), { method, headers, ca, agent: false, timeout: 10_000 }, (response) => {
      const chunks: Buffer[] = []
      response.on('data', (chunk: Buffer) => chunks.push(chunk))
      response.on('error', reject)
      response.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8')
        let body: JsonBody = null
        try {
          body = text === '' ? null : JSON.parse(text)
        } catch {
          body = null
        }
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body, text })
      })
    })
    request.on('timeout', () => request.destroy(new Error(`${method} ${path} timed out`)))
    request.on('error', reject)
    request.end(payload ?? undefined)
  })
}

/** Closes `server`, cutting idle and active connections so that tests never hang. */
export function closeServer(server: Server | https.Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve())
    server.closeAllConnections()
  })
}
