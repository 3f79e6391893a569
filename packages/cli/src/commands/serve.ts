import type { Command } from 'commander'
import { InvalidArgumentError, Option } from 'commander'
import { readFileSync } from 'node:fs'
import type * as http from 'node:http'
import type { AddressInfo } from 'node:net'
import { dirname, join, resolve } from 'node:path'
import type { Frontdesk, Store } from '@frontdesk/core'
import { UsageError } from '@frontdesk/core'
import type { AccessLogger, ServerTransport, TlsMaterialProblem } from '@frontdesk/http'
import type { CliEnv } from '../env.ts'
import { dbPathOf, defaultSearchDir, isPostgresUrl, openStore, searchDirOf } from '../session.ts'
import { publicAddressesOf } from '../net/private-address.ts'
import { parseRateLimit } from './key.ts'

/** Options of `frontdesk serve`. */
export interface ServeOptions {
  /** Interface to listen on. Default `127.0.0.1`. */
  host?: string
  /** Port; 0 picks a free one. Default 8443. */
  port?: number
  /** PEM certificate chain and key files. */
  cert?: string
  key?: string
  /** Use (creating once) a self-signed certificate for localhost, kept in `.frontdesk/` in the database's directory (for PostgreSQL, of the working directory). */
  devCert?: boolean
  /** Serve plain HTTP behind a TLS-terminating proxy. */
  behindProxy?: boolean
  /** Proxies whose `X-Forwarded-Proto` is believed (addresses or CIDR ranges). Default loopback. */
  trustedProxy?: string[]
  /** Requests per second of a key without its own `--rate-limit` (burst twice that; 0 = unlimited). Default 100. */
  defaultRateLimit?: number
  /** Write one JSON access-log line per request to stdout. Default true (`--no-access-log` turns it off). */
  accessLog?: boolean
  /** Directory of the search index snapshots (the global `--search-dir`). Default `<database file>.search`. */
  searchDir?: string
  /**
   * Let `--behind-proxy` listen on a public or wildcard address (`0.0.0.0`, `::`): plain HTTP
   * then reaches every interface, so only when a firewall or container network keeps the port
   * to the proxy. Without it such a `--host` is refused. Default false.
   */
  allowPublicBind?: boolean
  /** Connections held at once, all clients together (`DEFAULT_MAX_CONNECTIONS` of `@frontdesk/http`, 4 096; 0 = no limit). */
  maxConnections?: number
  /** Connections held at once from one client address (IPv6: one /64; trusted proxies exempt). Default 64; 0 = no limit. */
  maxConnectionsPerAddress?: number
}

/** A running server over an open database. */
export interface RunningServer {
  /** The base URL clients use, e.g. `https://127.0.0.1:8443`. */
  url: string
  port: number
  frontdesk: Frontdesk
  store: Store
  /** Stops accepting, lets requests in flight finish (at most `drainMs`), then closes the database. */
  stop(drainMs?: number): Promise<void>
}

/** Default port of `serve` and `demo`. */
export const DEFAULT_PORT = 8443
/** How long a stopping server waits for requests in flight. */
const DRAIN_MS = 10_000

/**
 * Where `--dev-cert` keeps its certificate: `.frontdesk/` beside the database file, or in the
 * working directory for a PostgreSQL database.
 */
export function devCertDir(dbPath: string, cwd: string = process.cwd()): string {
  return join(isPostgresUrl(dbPath) ? cwd : dirname(dbPath), '.frontdesk')
}

/**
 * Decides how the server meets HTTPS from the options: exactly one of `--cert`/`--key`,
 * `--dev-cert` or `--behind-proxy`. Refuses anything else with a `UsageError` (CONTRACT §1:
 * no TLS material and no proxy means no server).
 */
export async function transportOf(options: ServeOptions, dbPath: string, cwd: string): Promise<{ transport: ServerTransport; certPath?: string }> {
  const modes = [options.cert !== undefined || options.key !== undefined, options.devCert === true, options.behindProxy === true].filter(Boolean).length
  if (modes === 0) {
    throw new UsageError('refusing to serve without TLS: pass --cert FILE --key FILE, --dev-cert (local development), or --behind-proxy (behind a TLS-terminating proxy)')
  }
  if (modes > 1) throw new UsageError('choose one of --cert/--key, --dev-cert or --behind-proxy')
  if (options.trustedProxy !== undefined && options.behindProxy !== true) throw new UsageError('--trusted-proxy needs --behind-proxy')
  if (options.allowPublicBind === true && options.behindProxy !== true) throw new UsageError('--allow-public-bind needs --behind-proxy')
  if (options.behindProxy === true) {
    return { transport: { behindProxy: true, ...(options.trustedProxy === undefined ? {} : { trustedProxies: options.trustedProxy }) } }
  }
  if (options.devCert === true) {
    const { ensureDevCert } = await import('@frontdesk/http')
    const dev = await ensureDevCert(devCertDir(dbPath, cwd))
    return { transport: { tls: { cert: dev.cert, key: dev.key } }, certPath: dev.certPath }
  }
  if (options.cert === undefined || options.key === undefined) throw new UsageError('--cert and --key go together')
  const certPath = resolve(cwd, options.cert)
  const keyPath = resolve(cwd, options.key)
  const cert = readFileSync(certPath)
  const key = readFileSync(keyPath)
  const { checkTlsMaterial } = await import('@frontdesk/http')
  const problem = checkTlsMaterial(cert, key)
  if (problem !== null) throw new UsageError(tlsProblemLine(problem, certPath, keyPath))
  return { transport: { tls: { cert, key } }, certPath }
}

/** What is wrong with `--cert`/`--key`, naming the file. */
function tlsProblemLine(problem: TlsMaterialProblem, certPath: string, keyPath: string): string {
  if (problem.subject === 'cert') return `--cert ${certPath} ${problem.message}`
  if (problem.subject === 'key') return `--key ${keyPath} ${problem.message}`
  if (/swapped/.test(problem.message)) return `--cert ${certPath} holds a private key and --key ${keyPath} a certificate: they are swapped`
  return `--key ${keyPath} does not belong to the certificate in --cert ${certPath}`
}

/**
 * Opens the database at `dbPath` with its search engine (snapshots in `searchDir`, default
 * `<database file>.search`) and serves the API on it. With `portFallback`, a busy port is
 * skipped for the next ones (up to 20), as `demo` does.
 */
export async function startServer(
  dbPath: string,
  transport: ServerTransport,
  options: {
    host?: string
    port?: number
    portFallback?: boolean
    defaultRateLimit?: number
    onAccess?: AccessLogger
    maxConnections?: number
    maxConnectionsPerAddress?: number
    searchDir?: string
  },
): Promise<RunningServer> {
  const [{ createSearchEngine, directorySnapshots }, { createFrontdesk }, { createServer }] = await Promise.all([
    import('@frontdesk/search'),
    import('@frontdesk/core'),
    import('@frontdesk/http'),
  ])
  const store = await openStore(dbPath)
  const search = createSearchEngine({ store, snapshots: directorySnapshots(options.searchDir ?? defaultSearchDir(dbPath)) })
  try {
    const frontdesk = createFrontdesk({ store, search, ...(options.defaultRateLimit === undefined ? {} : { defaultRateLimit: options.defaultRateLimit }) })
    // Hint: building the index now keeps the first search request fast.
    await search.warmUp()
    const server = createServer(frontdesk, transport, {
      ...(options.onAccess === undefined ? {} : { onAccess: options.onAccess }),
      ...(options.maxConnections === undefined ? {} : { maxConnections: options.maxConnections }),
      ...(options.maxConnectionsPerAddress === undefined ? {} : { maxConnectionsPerAddress: options.maxConnectionsPerAddress }),
    })
    const host = options.host ?? '127.0.0.1'
    const port = await listen(server, host, options.port ?? DEFAULT_PORT, options.portFallback === true ? 20 : 0)
    const scheme = 'tls' in transport ? 'https' : 'http'
    return {
      url: `${scheme}://${host.includes(':') ? `[${host}]` : host}:${port}`,
      port,
      frontdesk,
      store,
      async stop(drainMs = DRAIN_MS) {
        await drain(server, drainMs)
        await search?.close()
        await store.close()
      },
    }
  } catch (error) {
    await search?.close()
    await store.close()
    throw error
  }
}

async function listen(server: http.Server, host: string, port: number, fallbacks: number): Promise<number> {
  for (let attempt = 0; ; attempt++) {
    try {
      await new Promise<void>((done, fail) => {
        server.once('error', fail)
        server.listen(port + attempt, host, () => {
          server.off('error', fail)
          done()
        })
      })
      return (server.address() as AddressInfo).port
    } catch (error) {
      const code = (error as { code?: string }).code
      if (code === 'EADDRINUSE' && attempt < fallbacks && port !== 0) continue
      if (code === 'EADDRINUSE') throw new UsageError(`port ${port + attempt} on ${host} is already in use`, { cause: error })
      if (code === 'EACCES') throw new UsageError(`not allowed to listen on ${host}:${port + attempt}`, { cause: error })
      if (code === 'EADDRNOTAVAIL') throw new UsageError(`cannot listen on ${host}: no such local address`, { cause: error })
      throw error
    }
  }
}

/** Stops accepting connections, closes idle ones, and cuts the rest after `drainMs`. */
function drain(server: http.Server, drainMs: number): Promise<void> {
  return new Promise((done) => {
    const timer = setTimeout(() => server.closeAllConnections(), drainMs)
    timer.unref()
    server.close(() => {
      clearTimeout(timer)
      done()
    })
    server.closeIdleConnections()
  })
}

/**
 * CONTRACT §1 keeps `--behind-proxy` (plain HTTP) to loopback and private interfaces: a public
 * or wildcard `host` is refused, unless `allowed` (`--allow-public-bind`), and then warned about.
 */
async function checkProxyBind(host: string, allowed: boolean, env: CliEnv): Promise<void> {
  const exposed = await publicAddressesOf(host)
  if (exposed.length === 0) return
  const where = exposed.some((address) => address === '0.0.0.0' || address === '::') ? 'every interface' : `public address ${exposed.join(', ')}`
  if (!allowed) {
    throw new UsageError(
      `refusing to serve plain HTTP (--behind-proxy) on ${host}, ${where}: use a loopback or private address, or add --allow-public-bind if a firewall or container network keeps the port to the proxy`,
    )
  }
  env.stderr.write(`frontdesk: warning: serving plain HTTP on ${host} (${where}); make sure only the proxy can reach this port\n`)
}

/** Resolves on the first SIGINT or SIGTERM (or when `signal` aborts). */
export function untilStopped(signal?: AbortSignal): Promise<void> {
  return new Promise((done) => {
    const stop = () => {
      process.off('SIGINT', stop)
      process.off('SIGTERM', stop)
      signal?.removeEventListener('abort', stop)
      done()
    }
    process.once('SIGINT', stop)
    process.once('SIGTERM', stop)
    // Hint: a signal aborted while the server was starting fires no more 'abort' events.
    if (signal?.aborted === true) stop()
    else signal?.addEventListener('abort', stop, { once: true })
  })
}

/**
 * `frontdesk serve`: serves the API on the database until SIGINT/SIGTERM (or `signal`), then
 * shuts down gracefully. Prints the URL once listening.
 */
export async function serve(dbPath: string, options: ServeOptions, env: CliEnv, signal?: AbortSignal): Promise<void> {
  const port = options.port ?? DEFAULT_PORT
  const { transport } = await transportOf(options, dbPath, env.cwd)
  const host = options.host ?? '127.0.0.1'
  if ('behindProxy' in transport) await checkProxyBind(host, options.allowPublicBind === true, env)
  const { createLineBuffer, formatAccessLog } = await import('@frontdesk/http')
  // Hint: lines are written together once per event-loop turn, not one synchronous write per request.
  const log = createLineBuffer((text) => env.stdout.write(text))
  const onAccess: AccessLogger | undefined = options.accessLog === false ? undefined : (entry) => log.push(formatAccessLog(entry))
  const running = await startServer(dbPath, transport, {
    host,
    port,
    ...(onAccess === undefined ? {} : { onAccess }),
    ...(options.defaultRateLimit === undefined ? {} : { defaultRateLimit: options.defaultRateLimit }),
    // Hint: the default of a PostgreSQL database lies in the working directory, the caller's (env.cwd), not the process's.
    searchDir: options.searchDir ?? defaultSearchDir(dbPath, env.cwd),
    ...(options.maxConnections === undefined ? {} : { maxConnections: options.maxConnections }),
    ...(options.maxConnectionsPerAddress === undefined ? {} : { maxConnectionsPerAddress: options.maxConnectionsPerAddress }),
  })
  const mode = 'tls' in transport ? '' : ` (plain HTTP behind a TLS proxy; X-Forwarded-Proto trusted from ${(options.trustedProxy ?? ['127.0.0.1', '::1']).join(', ')})`
  // Hint: one format per stream: stdout carries the JSON access log only, so a log pipeline
  // reads every line of it as JSON; what is said to the operator goes to stderr.
  env.stderr.write(`frontdesk: serving ${running.url}/v1/${mode}\n`)
  await untilStopped(signal)
  env.stderr.write('frontdesk: stopping (letting requests in flight finish)\n')
  await running.stop()
  log.flush()
}

/** Registers `serve`. */
export function register(program: Command, env: CliEnv): void {
  program
    .command('serve')
    .description('serve the /v1 API over HTTPS (or behind a TLS-terminating proxy)')
    .option('--host <address>', 'interface to listen on', '127.0.0.1')
    .addOption(new Option('--port <port>', 'port to listen on').default(DEFAULT_PORT).argParser(parsePort))
    .option('--cert <file>', 'PEM certificate (chain) file')
    .option('--key <file>', 'PEM private key file')
    .option('--dev-cert', "use a self-signed certificate for localhost (created once, kept in .frontdesk/ in the database's directory; for PostgreSQL, in .frontdesk/ of the working directory)")
    .option('--behind-proxy', 'serve plain HTTP behind a TLS-terminating proxy; requests need X-Forwarded-Proto: https')
    .option('--trusted-proxy <address>', 'address or CIDR range of a trusted proxy (repeatable; default loopback)', collect)
    .option('--allow-public-bind', 'let --behind-proxy listen on a public or wildcard --host (0.0.0.0, ::): only if a firewall keeps the port to the proxy')
    .addOption(new Option('--default-rate-limit <n>', 'requests per second of a key without its own --rate-limit (burst twice that; 0 = unlimited)').argParser(parseRateLimit))
    // Hint: the defaults are `@frontdesk/http`'s, which `--help` does not load; a test keeps the texts in step.
    .addOption(new Option('--max-connections <n>', 'connections held at once, all clients together; more are refused (default: 4096, 0 = no limit)').argParser(parseCount))
    .addOption(
      new Option('--max-connections-per-address <n>', 'connections held at once from one client address (IPv6: per /64; trusted proxies exempt) (default: 64, 0 = no limit)').argParser(parseCount),
    )
    .option('--no-access-log', 'do not write the JSON access log (one line per request on stdout; on by default)')
    .addHelpText('after', SERVE_HELP)
    .action((options: ServeOptions, command: Command) => {
      const dbPath = dbPathOf(command, env)
      return serve(dbPath, { ...options, searchDir: searchDirOf(command, env, dbPath) }, env)
    })
}

/** The end of `frontdesk serve --help`: global option, environment, endpoints, logs and signals. */
export const SERVE_HELP = `
Global options:
  --db <database>      SQLite database file, or postgres://user:password@host:port/database
                       (default: $FRONTDESK_DB, else ./frontdesk.db)
  --search-dir <dir>   search index snapshots, one file per tenant (default: <db file>.search,
                       or .frontdesk/search-<host>-<port>-<database> for PostgreSQL);
                       restored at start, saved on stop; as private as the database (0700)

Environment variables:
  FRONTDESK_DB         database file or PostgreSQL URL when --db is not given (default ./frontdesk.db)
  FRONTDESK_DEBUG=1    print the stacks of errors (and their causes) on stderr

Exactly one of --cert/--key, --dev-cert or --behind-proxy is required: the API is never
served over plain HTTP to clients.

Served besides /v1: GET /v1/openapi.json (the OpenAPI 3.1 document, no key needed) and
GET /healthz (200 {"status":"ok"} when the database answers, else 503; no key, for load
balancers).

Limits (see the README's "Security"): TLS handshake 10 s, request headers 10 s (also the
time to send a first request), whole request 30 s, keep-alive 5 s (65 s behind a proxy),
bodies 64 KiB, connections as above. A client that keeps sending on a connection after a 429
told it to wait (Retry-After) has that connection closed.

Output: stdout carries only the access log, one JSON line per request (time, request_id,
tenant, key_id, method, path with preview tokens redacted, status, duration_ms, bytes,
remote_address); never a key or a token. Everything else goes to stderr as plain text:
"serving …" and "stopping …", storage troubles and unexpected errors (with their request id).

Signals: SIGTERM or SIGINT stops accepting connections, lets requests in flight finish
(at most 10 s), closes the database and exits with code 0.

Examples:
  frontdesk serve --dev-cert
  frontdesk --db /var/lib/frontdesk/frontdesk.db serve --behind-proxy --port 8080 --trusted-proxy 10.0.0.0/8
  FRONTDESK_DB=postgres://frontdesk:secret@db.internal:5432/frontdesk frontdesk serve --behind-proxy
`

/** Parses a connection limit: an integer ≥ 0 (0 = no limit). */
export function parseCount(value: string): number {
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(Number(value))) throw new InvalidArgumentError('must be an integer ≥ 0 (0 = no limit)')
  return Number(value)
}

/** Parses a `--port` value: an integer from 0 to 65535. */
export function parsePort(value: string): number {
  const port = Number(value)
  if (!/^\d+$/.test(value) || port > 65_535) throw new UsageError(`invalid port: ${value}`)
  return port
}

function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value]
}
