import type { Command } from 'commander'
import { InvalidArgumentError, Option } from 'commander'
import cluster from 'node:cluster'
import { readFileSync } from 'node:fs'
import type * as http from 'node:http'
import type * as https from 'node:https'
import type { AddressInfo, Server } from 'node:net'
import { availableParallelism } from 'node:os'
import { setFlagsFromString } from 'node:v8'
import { dirname, join, resolve } from 'node:path'
import type { Frontdesk, SnapshotStore, Store } from '@frontdesk/core'
import { UsageError } from '@frontdesk/core'
import type { AccessLogger, FrontdeskMetrics, ServerTransport, TlsMaterialProblem } from '@frontdesk/http'
import type { SearchBuildInfo } from '@frontdesk/search'
import type { CliEnv } from '../env.ts'
import { errorLine } from '../error-line.ts'
import { writeAtomicLines } from '../io/atomic-lines.ts'
import { serveHandedConnections } from '../serve/handed-connections.ts'
import type { MetricsEndpoint } from '../serve/metrics-endpoint.ts'
import type { TlsFiles } from '../serve/tls-problem-line.ts'
import { tlsProblemLine } from '../serve/tls-problem-line.ts'
import { tellSupervisor, workerPortOf, workerSlotOf } from '../serve/worker-messages.ts'
import { waitForRefreshes } from '../search-refresh.ts'
import { dbPathOf, defaultSearchDir, isPostgresUrl, openStore, searchDirOf } from '../session.ts'
import { publicAddressesOf } from '../net/private-address.ts'
import { parseRateLimit } from './key.ts'
import type { EventOptions } from '../webhooks/start-events.ts'

/** Options of `frontdesk serve`. */
export interface ServeOptions {
  /** Interface to listen on. Default `127.0.0.1`. */
  host?: string
  /** Port; 0 picks a free one. Default 8443. */
  port?: number
  /** PEM certificate chain and key files. */
  cert?: string
  key?: string
  /**
   * Use a development certificate for localhost signed by a local CA (both created once, kept in
   * `.frontdesk/` in the database's directory; for PostgreSQL, of the working directory). Clients
   * trust the CA, `.frontdesk/dev-ca.pem`, which the "serving" line names.
   */
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
  /**
   * Seconds a connection's answers may wait without the client taking a byte of them before
   * the connection is closed (`SEND_TIMEOUT_MS` of `@frontdesk/http`, 30; 0 = never).
   */
  sendTimeout?: number
  /**
   * Server processes sharing the port (`auto`: one per core, `os.availableParallelism()`).
   * Default 1: this process serves. With more, this process supervises that many workers
   * (node:cluster), each running this same command; see `superviseWorkers`.
   */
  workers?: number | 'auto'
  /**
   * How far, in percent, the JavaScript heap may grow past what survived the last full garbage
   * collection before the next one (V8's heap growing factor). Default `DEFAULT_GC_HEADROOM`
   * (50). 0 leaves it to V8, which on a machine with much memory lets the heap grow up to 4×
   * between collections: most of a busy server's memory is then garbage waiting.
   */
  gcHeadroom?: number
  /**
   * Serve `GET /metrics` (Prometheus text format) on this port, a listener of its own that the
   * API's port never shows; with `workers`, one view of all workers. Default: no metrics.
   */
  metricsPort?: number
  /** Interface of the metrics listener. Default `127.0.0.1` (loopback: only this machine scrapes). */
  metricsHost?: string
  /** Announce scheduled publications and deliver webhooks in this process. Default true (`--no-webhooks` turns it off). */
  webhooks?: boolean
  /** Let webhooks reach loopback, private and link-local addresses. Default false. */
  allowPrivateWebhookTargets?: boolean
  /** Days delivered events and the delivery log are kept (`pruneWebhookHistory`). Default 30. */
  webhookRetentionDays?: number
}

/**
 * Default of `ServeOptions.gcHeadroom`. Measured at 100,000 items (`npm run bench`): V8's own
 * heuristic let a server whose live heap is 60–250 MB peak at 1.16 GB of RSS; 50 % keeps the
 * peak near 600 MB, for a few percent more CPU in the busiest searches (see README "Memory").
 */
export const DEFAULT_GC_HEADROOM = 50

/** A running server over an open database. */
export interface RunningServer {
  /** The base URL clients use, e.g. `https://127.0.0.1:8443`. */
  url: string
  port: number
  frontdesk: Frontdesk
  store: Store
  /**
   * Presents this certificate and key from the next TLS handshake on (`reloadTls` of
   * `@frontdesk/http`); the problem when they do not fit, and the current ones keep serving.
   * Throws on a server behind a proxy, which has no certificate.
   */
  reloadTls(pems: { cert: string; key: string }): TlsMaterialProblem | null
  /** Stops accepting, lets requests in flight finish (at most `drainMs`), then closes the database. */
  stop(drainMs?: number): Promise<void>
}

/** Default port of `serve` and `demo`. */
export const DEFAULT_PORT = 8443
/** How long a stopping server waits for requests in flight. */
const DRAIN_MS = 10_000
/** How often the snapshot writer of `serve --workers` saves the snapshots that changed. */
const SAVE_SNAPSHOTS_MS = 5 * 60_000

/**
 * Where `--dev-cert` keeps its certificate: `.frontdesk/` beside the database file, or in the
 * working directory for a PostgreSQL database.
 */
export function devCertDir(dbPath: string, cwd: string = process.cwd()): string {
  return join(isPostgresUrl(dbPath) ? cwd : dirname(dbPath), '.frontdesk')
}

/** How `serve` meets HTTPS, and the files behind it. */
export interface ServeTransport {
  transport: ServerTransport
  /** `--cert`/`--key`, resolved: read again on SIGHUP and when they change. */
  tlsFiles?: TlsFiles
  /** With `--dev-cert`: the development CA's certificate, which clients trust. */
  caPath?: string
}

/**
 * Decides how the server meets HTTPS from the options: exactly one of `--cert`/`--key`,
 * `--dev-cert` or `--behind-proxy`. Refuses anything else with a `UsageError` (README "Transport":
 * no TLS material and no proxy means no server).
 */
export async function transportOf(options: ServeOptions, dbPath: string, cwd: string): Promise<ServeTransport> {
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
    return { transport: { tls: { cert: dev.cert, key: dev.key } }, caPath: dev.caPath }
  }
  if (options.cert === undefined || options.key === undefined) throw new UsageError('--cert and --key go together')
  const certPath = resolve(cwd, options.cert)
  const keyPath = resolve(cwd, options.key)
  const cert = readFileSync(certPath)
  const key = readFileSync(keyPath)
  const { checkTlsMaterial } = await import('@frontdesk/http')
  const problem = checkTlsMaterial(cert, key)
  if (problem !== null) throw new UsageError(tlsProblemLine(problem, { certPath, keyPath }))
  return { transport: { tls: { cert, key } }, tlsFiles: { certPath, keyPath } }
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
    /** See `ServeOptions.sendTimeout`, in ms. */
    sendTimeoutMs?: number
    searchDir?: string
    /**
     * What this process does with the search snapshots: `write` (default) restores them and
     * saves them after building and on stop; `read` only restores them (the workers of
     * `serve --workers` but the first, so that one process per machine writes them).
     */
    snapshots?: 'write' | 'read'
    /**
     * Save every tenant's snapshot once the index is ready, and every 5 minutes when it changed,
     * so that processes started later (the other workers, replacements) restore it rather
     * than catch up or build. Default false (a single server saves on stop).
     */
    saveSnapshots?: boolean
    /** Told when the shared rate-limit store fails (the process then limits alone for a second). */
    onRateLimitStoreError?: (error: unknown) => void
    /** Told after each tenant's search index is restored or built (see `SearchEngineOptions.onBuild`). */
    onSearchBuild?: (info: SearchBuildInfo) => void
    /**
     * Serve the connections the supervisor of `serve --workers` hands over instead of
     * listening (`port` is then the supervisor's); see `serveHandedConnections`.
     */
    handedConnections?: boolean
    /** Count requests, searches, inquiries, the response cache and the search index in these metrics (`createMetrics`). */
    metrics?: FrontdeskMetrics
    /** Announce scheduled publications and deliver webhooks (see `startEvents`); absent: neither. */
    events?: EventOptions
  },
): Promise<RunningServer> {
  const [{ createSearchEngine, directorySnapshots }, { createFrontdesk }, { createServer, reloadTls }] = await Promise.all([
    import('@frontdesk/search'),
    import('@frontdesk/core'),
    import('@frontdesk/http'),
  ])
  const store = await openStore(dbPath)
  const directory = directorySnapshots(options.searchDir ?? defaultSearchDir(dbPath))
  const search = createSearchEngine({
    store,
    snapshots: options.snapshots === 'read' ? readOnlySnapshots(directory) : directory,
    ...(options.onSearchBuild === undefined ? {} : { onBuild: options.onSearchBuild }),
  })
  try {
    const metrics = options.metrics
    let events: { stop: () => Promise<void>; poke: () => void; noteRequest: () => { answered: () => void } | undefined } | null = null
    const frontdesk = createFrontdesk({
      store,
      search: metrics === undefined ? search : metrics.instrumentSearch(search),
      // Hint: an inquiry committed here is delivered at once, not at the next poll.
      hooks: {
        onInquiryCreated: () => {
          metrics?.inquiryCreated()
          events?.poke()
        },
      },
      ...(options.defaultRateLimit === undefined ? {} : { defaultRateLimit: options.defaultRateLimit }),
      ...(options.onRateLimitStoreError === undefined ? {} : { onRateLimitStoreError: options.onRateLimitStoreError }),
    })
    metrics?.watch(frontdesk, () => search.stats())
    // Hint: building the index now keeps the first search request fast.
    await search.warmUp()
    let saving: ReturnType<typeof setInterval> | null = null
    if (options.saveSnapshots === true) {
      const save = async () => {
        for (const tenant of await store.listTenants()) await search.saveSnapshot(tenant.id)
      }
      await save()
      saving = setInterval(() => void save().catch(() => undefined), SAVE_SNAPSHOTS_MS)
      saving.unref()
    }
    const server = createServer(frontdesk, transport, {
      ...(options.onAccess === undefined ? {} : { onAccess: options.onAccess }),
      ...(options.maxConnections === undefined ? {} : { maxConnections: options.maxConnections }),
      ...(options.maxConnectionsPerAddress === undefined ? {} : { maxConnectionsPerAddress: options.maxConnectionsPerAddress }),
      ...(options.sendTimeoutMs === undefined ? {} : { sendTimeoutMs: options.sendTimeoutMs }),
      ...(metrics === undefined ? {} : { metrics }),
    })
    const host = options.host ?? '127.0.0.1'
    const handed = options.handedConnections === true ? serveHandedConnections(server) : null
    const port = handed !== null ? (options.port ?? DEFAULT_PORT) : await listen(server, host, options.port ?? DEFAULT_PORT, options.portFallback === true ? 20 : 0)
    const scheme = 'tls' in transport ? 'https' : 'http'
    events = options.events === undefined ? null : (await import('../webhooks/start-events.ts')).startEvents(frontdesk.context, dbPath, options.events)
    server.on('request', (_req: http.IncomingMessage, res: http.ServerResponse) => {
      const noted = events?.noteRequest()
      if (noted !== undefined) res.once('close', noted.answered)
    })
    return {
      url: `${scheme}://${host.includes(':') ? `[${host}]` : host}:${port}`,
      port,
      frontdesk,
      store,
      reloadTls(pems) {
        if (!('tls' in transport)) throw new Error('a server behind a TLS-terminating proxy has no certificate to reload')
        return reloadTls(server as https.Server, pems)
      },
      async stop(drainMs = DRAIN_MS) {
        if (saving !== null) clearInterval(saving)
        await (handed !== null ? handed.drain(drainMs) : drain(server, drainMs))
        await events?.stop()
        // Hint: rate-limit tokens this process leased and did not use go back before the store closes.
        await frontdesk.close()
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

/**
 * The line a start prints when a tenant's search snapshot could not be used (written by
 * another version, damaged, or too far behind: an import or a server interrupted before it
 * wrote one) and the index was built from the database instead — the recovery, said once.
 */
function snapshotRecovery(env: CliEnv): (info: SearchBuildInfo) => void {
  return (info) => {
    if (info.source !== 'store' || (info.snapshot !== 'unusable' && info.snapshot !== 'behind')) return
    const why = info.snapshot === 'unusable' ? 'was written by another version or is damaged' : 'is too far behind the database'
    env.stderr.write(`frontdesk: the search snapshot of tenant ${info.tenantId} ${why}: its index was built from the database instead (${info.items} items in ${(info.ms / 1000).toFixed(1)} s)\n`)
  }
}

/** `snapshots` restored from but never written (`write` answers "could not"). */
export function readOnlySnapshots(snapshots: SnapshotStore): SnapshotStore {
  const readStart = snapshots.readStart?.bind(snapshots)
  return { read: (name) => snapshots.read(name), ...(readStart === undefined ? {} : { readStart }), write: async () => false }
}

/** Listens on `host`, at `port` or one of the `fallbacks` ports after it; a failure is a `UsageError` that says why. */
export async function listen(server: Server, host: string, port: number, fallbacks: number): Promise<number> {
  const { LISTEN_BACKLOG } = await import('@frontdesk/http')
  for (let attempt = 0; ; attempt++) {
    try {
      await new Promise<void>((done, fail) => {
        server.once('error', fail)
        server.listen({ port: port + attempt, host, backlog: LISTEN_BACKLOG }, () => {
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
 * README "Transport" keeps `--behind-proxy` (plain HTTP) to loopback and private interfaces: a public
 * or wildcard `host` is refused, unless `allowed` (`--allow-public-bind`), and then warned about.
 */
async function checkProxyBind(host: string, allowed: boolean, env: CliEnv): Promise<void> {
  const exposed = await publicAddressesOf(host)
  if (exposed.length === 0) return
  const where = exposed.some((address) => address === '0.0.0.0' || address === '::') ? 'every interface' : `public address ${exposed.join(', ')}`
  // Hint: an empty --host (an unset variable in `--host "$HOST"`) is named as such, not left blank.
  const named = host.trim() === '' ? `an empty --host ("${host}")` : host
  if (!allowed) {
    throw new UsageError(
      `refusing to serve plain HTTP (--behind-proxy) on ${named}, ${where}: use a loopback or private address, or add --allow-public-bind if a firewall or container network keeps the port to the proxy`,
    )
  }
  env.stderr.write(`frontdesk: warning: serving plain HTTP on ${named} (${where}); make sure only the proxy can reach this port\n`)
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
    // Hint: a signal aborted before the wait began never fires 'abort' again.
    if (signal?.aborted === true) return done()
    process.once('SIGINT', stop)
    process.once('SIGTERM', stop)
    signal?.addEventListener('abort', stop, { once: true })
  })
}

/**
 * `frontdesk serve`: serves the API on the database until SIGINT/SIGTERM (or `signal`), then
 * shuts down gracefully. Prints the URL once listening. With `workers` above 1 this process
 * supervises that many worker processes running this same command (`superviseWorkers`), so it
 * must run as the `frontdesk` program (the workers are started from `process.argv`).
 */
export async function serve(dbPath: string, options: ServeOptions, env: CliEnv, signal?: AbortSignal): Promise<void> {
  const port = options.port ?? DEFAULT_PORT
  const slot = workerSlotOf(env.vars)
  const { transport, caPath, tlsFiles } = await transportOf(options, dbPath, env.cwd)
  const host = options.host ?? '127.0.0.1'
  if (slot === null && 'behindProxy' in transport) await checkProxyBind(host, options.allowPublicBind === true, env)
  const mode =
    caPath !== undefined ? ` (development certificate; clients trust its CA ${caPath}, e.g. curl --cacert, NODE_EXTRA_CA_CERTS, deno --cert)`
    : 'tls' in transport ? ''
    : ` (plain HTTP behind a TLS proxy; X-Forwarded-Proto trusted from ${(options.trustedProxy ?? ['127.0.0.1', '::1']).join(', ')})`
  const count = slot === null ? workerCount(options.workers) : 1
  if (options.metricsHost !== undefined && options.metricsPort === undefined) throw new UsageError('--metrics-host needs --metrics-port')
  const metricsHost = options.metricsHost ?? '127.0.0.1'
  const listenMetrics = options.metricsPort === undefined ? null : (server: Server) => listen(server, metricsHost, options.metricsPort ?? 0, 0)
  if (count > 1) {
    const { superviseWorkers } = await import('../serve/supervise-workers.ts')
    const listenOn = (server: Server) => listen(server, host, port, 0)
    return superviseWorkers(
      {
        count,
        mode,
        listen: listenOn,
        untilStopped: () => untilStopped(signal),
        ...(tlsFiles === undefined ? {} : { tlsFiles }),
        ...(listenMetrics === null ? {} : { metrics: { listen: listenMetrics, host: metricsHost } }),
      },
      env,
    )
  }
  const supervisorPort = workerPortOf(env.vars)
  applyGcHeadroom(options.gcHeadroom ?? DEFAULT_GC_HEADROOM)
  const { createLineBuffer, createMetrics, formatAccessLog } = await import('@frontdesk/http')
  const metrics = listenMetrics === null ? undefined : createMetrics()
  const stopAnswering = metrics !== undefined && slot !== null ? (await import('../serve/metrics-endpoint.ts')).answerMetricsRequests(metrics.registry) : null
  // Hint: lines are written together once per event-loop turn, not one synchronous write per
  // request; a worker's in writes that land whole, as its siblings share the same stdout.
  const log = createLineBuffer(slot === null ? (text) => env.stdout.write(text) : (text) => writeAtomicLines(env.stdout, text))
  const onAccess: AccessLogger | undefined =
    options.accessLog === false
      ? undefined
      : slot === null
        ? (entry) => log.push(formatAccessLog(entry))
        : (entry) => {
            entry.worker = slot
            log.push(formatAccessLog(entry))
          }
  const say = (line: string) => env.stderr.write(`${line}\n`)
  const { tlsFromSupervisor, watchTlsFiles } = await import('../serve/tls-files.ts')
  // Hint: a worker listens for renewed certificates before it serves, so that none sent meanwhile is lost.
  const fromSupervisor = slot !== null && tlsFiles !== undefined ? tlsFromSupervisor(say) : null
  const searchDir = options.searchDir ?? defaultSearchDir(dbPath, env.cwd)
  // Hint: the process that restores the snapshots (and writes them) waits for a refresh an import started, rather than restore the older one.
  if (slot === null || slot === 1) await waitForRefreshes(searchDir, env)
  let running: RunningServer
  try {
    running = await startServer(dbPath, transport, {
      host,
      port: supervisorPort ?? port,
      ...(supervisorPort === null ? {} : { handedConnections: true }),
      ...(onAccess === undefined ? {} : { onAccess }),
      ...(options.defaultRateLimit === undefined ? {} : { defaultRateLimit: options.defaultRateLimit }),
      // Hint: the default of a PostgreSQL database lies in the working directory, the caller's (env.cwd), not the process's.
      searchDir,
      ...(options.maxConnections === undefined ? {} : { maxConnections: options.maxConnections }),
      ...(options.maxConnectionsPerAddress === undefined ? {} : { maxConnectionsPerAddress: options.maxConnectionsPerAddress }),
      ...(options.sendTimeout === undefined ? {} : { sendTimeoutMs: Math.round(options.sendTimeout * 1_000) }),
      onRateLimitStoreError: rateLimitTrouble(env),
      ...(metrics === undefined ? {} : { metrics }),
      ...(slot === null || slot === 1 ? { onSearchBuild: snapshotRecovery(env) } : {}),
      // Hint: one snapshot writer per machine: worker 1, which also brings them up to date before the others start.
      ...(slot === null ? {} : slot === 1 ? { snapshots: 'write', saveSnapshots: true } : { snapshots: 'read' }),
      ...(options.webhooks === false
        ? {}
        : {
            events: {
              allowPrivate: options.allowPrivateWebhookTargets === true,
              ...(options.webhookRetentionDays === undefined ? {} : { retentionDays: options.webhookRetentionDays }),
              vars: env.vars,
              onLine: (line: string) => log.push(line),
              onTrouble: (message: string) => env.stderr.write(`${message}\n`),
            },
          }),
    })
  } catch (error) {
    if (slot === null) throw error
    // Hint: the supervisor prints the one error line; this worker leaves quietly.
    await tellSupervisor({ frontdesk: 'failed', message: errorLine(error) })
    process.exit(1)
  }
  let metricsEndpoint: MetricsEndpoint | null = null
  if (slot === null) {
    if (metrics !== undefined && listenMetrics !== null) {
      const { serveMetrics } = await import('../serve/metrics-endpoint.ts')
      try {
        metricsEndpoint = await serveMetrics(listenMetrics, metricsHost, async () => ({ contentType: metrics.registry.contentType, text: await metrics.registry.metrics() }))
      } catch (error) {
        await running.stop()
        throw error
      }
    }
    // Hint: one format per stream: stdout carries the JSON access log only, so a log pipeline
    // reads every line of it as JSON; what is said to the operator goes to stderr.
    env.stderr.write(`frontdesk: serving ${running.url}/v1/${mode}\n`)
    if (metricsEndpoint !== null) env.stderr.write(`frontdesk: metrics at ${metricsEndpoint.url}\n`)
  } else {
    await tellSupervisor({ frontdesk: 'ready', url: running.url })
  }
  const server = running
  fromSupervisor?.use((pems) => server.reloadTls(pems))
  const watch = slot === null && tlsFiles !== undefined ? watchTlsFiles(tlsFiles, { apply: (pems) => server.reloadTls(pems), say }) : null
  await untilStopped(signal)
  watch?.close()
  fromSupervisor?.close()
  stopAnswering?.()
  await metricsEndpoint?.close()
  // Hint: a terminal's Ctrl+C reaches the workers and their supervisor, which then asks them
  // to stop too: a worker already draining ignores that, so that its requests finish.
  if (slot !== null) for (const name of ['SIGINT', 'SIGTERM'] as const) process.on(name, () => {})
  if (slot === null) env.stderr.write('frontdesk: stopping (letting requests in flight finish)\n')
  await running.stop()
  log.flush()
  // Hint: the channel to the supervisor would keep a worker alive.
  if (slot !== null) cluster.worker?.disconnect()
}

/** How often a failing rate-limit store is reported, at most. */
const RATE_LIMIT_TROUBLE_EVERY_MS = 60_000

/** Reports a failing rate-limit store on stderr, at most once a minute (each failure makes the process limit alone for a second). */
function rateLimitTrouble(env: CliEnv): (error: unknown) => void {
  let reportedAt = Number.NEGATIVE_INFINITY
  let since = 0
  return (error) => {
    since++
    const now = Date.now()
    if (now - reportedAt < RATE_LIMIT_TROUBLE_EVERY_MS) return
    const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error
    env.stderr.write(`frontdesk: the rate-limit store failed ${since} time(s), limiting in this process alone meanwhile: ${cause instanceof Error ? cause.message : String(cause)}\n`)
    reportedAt = now
    since = 0
  }
}

/** The number of server processes `--workers` asks for: `auto` is one per core. */
export function workerCount(workers: number | 'auto' | undefined): number {
  if (workers === 'auto') return Math.max(1, availableParallelism())
  return Math.max(1, workers ?? 1)
}

/** Parses `--workers`: `auto`, or an integer from 1 to 256. */
export function parseWorkers(value: string): number | 'auto' {
  if (value === 'auto') return 'auto'
  const count = Number(value)
  if (!/^\d+$/.test(value) || count < 1 || count > 256) throw new InvalidArgumentError('must be auto (one per core) or an integer from 1 to 256')
  return count
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
    .option('--dev-cert', "use a certificate for localhost signed by a local development CA (created once, kept in .frontdesk/ in the database's directory; for PostgreSQL, in .frontdesk/ of the working directory); clients trust .frontdesk/dev-ca.pem")
    .option('--behind-proxy', 'serve plain HTTP behind a TLS-terminating proxy; requests need X-Forwarded-Proto: https')
    .option('--trusted-proxy <address>', 'address or CIDR range of a trusted proxy (repeatable; default loopback)', collect)
    .option('--allow-public-bind', 'let --behind-proxy listen on a public or wildcard --host (0.0.0.0, ::): only if a firewall keeps the port to the proxy')
    .addOption(new Option('--default-rate-limit <n>', 'requests per second of a key without its own --rate-limit (burst twice that; 0 = unlimited)').argParser(parseRateLimit))
    // Hint: the defaults are `@frontdesk/http`'s, which `--help` does not load; a test keeps the texts in step.
    .addOption(new Option('--max-connections <n>', 'connections held at once, all clients together; more are refused (default: 4096, 0 = no limit)').argParser(parseCount))
    .addOption(
      new Option('--max-connections-per-address <n>', 'connections held at once from one client address (IPv6: per /64; trusted proxies exempt) (default: 64, 0 = no limit)').argParser(parseCount),
    )
    .addOption(
      new Option('--send-timeout <seconds>', "seconds a connection's answers may wait without the client taking a byte of them; the connection is then closed (default: 30, 0 = never)").argParser(
        parseSendTimeout,
      ),
    )
    .option('--no-access-log', 'do not write the JSON access log (one line per request on stdout; on by default)')
    .option('--no-webhooks', 'neither announce scheduled publications nor deliver webhooks in this process (other processes on the database still do)')
    .option('--allow-private-webhook-targets', 'let webhooks reach loopback, private and link-local addresses (refused by default)')
    .addOption(
      new Option('--webhook-retention-days <days>', 'days delivered events and the webhook delivery log are kept, then deleted (default: 30)').argParser(parseRetentionDays),
    )
    .addOption(new Option('--workers <n>', 'server processes sharing the port: a number, or auto for one per core (default: 1)').argParser(parseWorkers))
    .addOption(
      new Option('--gc-headroom <percent>', `how far the JS heap may grow past its live data before a full garbage collection: less memory for more CPU (default: ${DEFAULT_GC_HEADROOM}; 0 = V8's own heuristic)`).argParser(parseGcHeadroom),
    )
    .addOption(new Option('--metrics-port <port>', 'serve GET /metrics (Prometheus) on this port, apart from the API (default: no metrics)').argParser(parsePort))
    .option('--metrics-host <address>', 'interface of the metrics listener (default: 127.0.0.1)')
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
bodies 64 KiB, connections as above; answers the client does not take, --send-timeout (30 s);
1,000 requests per connection, the last answered with Connection: close. A client that keeps sending on a connection after a 429
told it to wait (Retry-After) has that connection closed.

Output: stdout carries only the access log, one JSON line per request (time, request_id,
tenant, key_id, method, path with preview tokens redacted, status, duration_ms, bytes,
remote_address; worker with --workers); never a key or a token. Everything else goes to
stderr as plain text: "serving …" and "stopping …", storage troubles and unexpected errors
(with their request id).

Workers: --workers N (or auto, one per core) runs N server processes sharing the port: this
process supervises them, replaces one that dies, and stops them all on SIGTERM. Worker 1
restores or builds the search index and writes its snapshots; the others restore them. Rate
limits hold for all processes on the database together; the access log gains "worker" (1-N).

Metrics: --metrics-port P serves GET /metrics (Prometheus text format) over plain HTTP on
a listener of its own, on --metrics-host (default 127.0.0.1), never on the API's port; with
--workers, one view of all workers.

Certificates: --cert/--key files renewed in place are used for new connections, in every
worker, on SIGHUP and within a few seconds of the files changing; a pair that does not fit
is refused in one line on stderr and the current one keeps serving. --dev-cert makes a
local CA and a certificate for localhost it signed; clients trust .frontdesk/dev-ca.pem.

Signals: SIGTERM or SIGINT stops accepting connections, lets requests in flight finish
(at most 10 s), closes the database and exits with code 0. SIGHUP reloads --cert/--key.

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

/** Parses a `--send-timeout` value: seconds from 0 (never) to 3600, decimals allowed. */
export function parseSendTimeout(value: string): number {
  const seconds = Number(value)
  if (!/^\d+(\.\d+)?$/.test(value) || seconds > 3_600) throw new InvalidArgumentError('must be a number of seconds from 0 to 3600 (0 = never)')
  return seconds
}

/** Parses a `--webhook-retention-days` value: an integer from 1 to 3650. */
export function parseRetentionDays(value: string): number {
  const days = Number(value)
  if (!/^\d+$/.test(value) || days < 1 || days > 3_650) throw new InvalidArgumentError('must be a number of days from 1 to 3650')
  return days
}

/** Parses a `--gc-headroom` value: an integer percentage from 0 (V8's own heuristic) to 1000. */
export function parseGcHeadroom(value: string): number {
  const percent = Number(value)
  if (!/^\d+$/.test(value) || percent > 1000) throw new InvalidArgumentError('must be an integer percentage from 0 to 1000 (0 = V8\'s own heuristic)')
  return percent
}

/**
 * Sets V8's heap growing factor for this process (`--heap-growing-percent`, read by V8 at every
 * full collection, so setting it at run time works); 0 leaves V8's heuristic alone.
 */
export function applyGcHeadroom(percent: number): void {
  if (percent > 0) setFlagsFromString(`--heap-growing-percent=${percent}`)
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
