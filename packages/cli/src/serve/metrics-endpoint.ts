import type { Worker } from 'node:cluster'
import * as http from 'node:http'
import type { Server } from 'node:net'
import type { Registry } from 'prom-client'
import { AggregatorRegistry } from 'prom-client'

/** The `/metrics` listener of `serve --metrics-port`. */
export interface MetricsEndpoint {
  /** `http://127.0.0.1:9464/metrics` */
  url: string
  close(): Promise<void>
}

/** What the Prometheus text format is served as. */
export interface MetricsText {
  contentType: string
  text: string
}

/**
 * Serves `GET /metrics` (Prometheus text format, what `read` gives) over plain HTTP on a listener
 * of its own, so that the API's port never shows it: other paths get 404, other methods 405.
 * `listen` makes the server listen where `--metrics-host`/`--metrics-port` say.
 */
export async function serveMetrics(listen: (server: Server) => Promise<number>, host: string, read: () => Promise<MetricsText>): Promise<MetricsEndpoint> {
  const server = http.createServer({ keepAliveTimeout: 65_000, headersTimeout: 10_000, requestTimeout: 30_000 }, (request, response) => {
    const path = (request.url ?? '/').split('?')[0]
    if (path !== '/metrics') return answer(response, 404, 'not found: metrics are at /metrics\n')
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.setHeader('allow', 'GET, HEAD')
      return answer(response, 405, 'method not allowed\n')
    }
    read().then(
      (metrics) => answer(response, 200, metrics.text, metrics.contentType),
      (error: unknown) => answer(response, 503, `metrics could not be read: ${error instanceof Error ? error.message : String(error)}\n`),
    )
  })
  const port = await listen(server)
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}/metrics`,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}

function answer(response: http.ServerResponse, status: number, text: string, contentType = 'text/plain; charset=utf-8'): void {
  response.writeHead(status, { 'content-type': contentType, 'content-length': Buffer.byteLength(text), 'cache-control': 'no-store' })
  response.end(text)
}

/** What the supervisor asks a worker for, and what it answers (the registry as prom-client's JSON). */
interface MetricsRequest {
  frontdesk: 'metrics'
  id: number
}
interface MetricsAnswer {
  frontdesk: 'metrics'
  id: number
  metrics: unknown[]
}

/** How long the supervisor waits for the workers' metrics; a worker slower than that (starting, stuck) is left out of that scrape. */
const WORKER_METRICS_MS = 2_000

/**
 * In a worker of `serve --workers`: answers the supervisor's requests for this process's
 * metrics over the cluster channel. Returns the function that stops answering.
 */
export function answerMetricsRequests(registry: Registry): () => void {
  const onMessage = (message: unknown) => {
    if (!isMetricsRequest(message)) return
    registry.getMetricsAsJSON().then(
      (metrics) => process.send?.({ frontdesk: 'metrics', id: message.id, metrics } satisfies MetricsAnswer),
      () => process.send?.({ frontdesk: 'metrics', id: message.id, metrics: [] } satisfies MetricsAnswer),
    )
  }
  process.on('message', onMessage)
  return () => process.off('message', onMessage)
}

/**
 * In the supervisor of `serve --workers`: one view of all workers. Asks each worker that serves
 * for its metrics over the channel the supervisor already has with it (not node:cluster's
 * AggregatorRegistry requests, which wait for every forked worker, a starting one too) and adds
 * them up with prom-client's aggregation: counters and histograms summed, gauges as each
 * declares (`aggregator`).
 */
export function clusterMetrics(workers: () => readonly Worker[]): () => Promise<MetricsText> {
  let next = 0
  return async () => {
    const id = next++
    const answers = await Promise.all(workers().map((worker) => askWorker(worker, id)))
    const registry = AggregatorRegistry.aggregate(answers.flatMap((metrics) => (metrics === null ? [] : [metrics])) as Parameters<typeof AggregatorRegistry.aggregate>[0])
    return { contentType: registry.contentType, text: await registry.metrics() }
  }
}

/** The worker's metrics, or `null` when it does not answer in time. */
function askWorker(worker: Worker, id: number): Promise<unknown[] | null> {
  return new Promise((resolve) => {
    const done = (metrics: unknown[] | null) => {
      clearTimeout(timer)
      worker.off('message', onMessage)
      worker.off('exit', onExit)
      resolve(metrics)
    }
    const onMessage = (message: unknown) => {
      if (isMetricsAnswer(message) && message.id === id) done(message.metrics)
    }
    const onExit = () => done(null)
    const timer = setTimeout(() => done(null), WORKER_METRICS_MS)
    worker.on('message', onMessage)
    worker.once('exit', onExit)
    if (!worker.isConnected()) return done(null)
    worker.send({ frontdesk: 'metrics', id } satisfies MetricsRequest, () => {})
  })
}

function isMetricsRequest(value: unknown): value is MetricsRequest {
  return typeof value === 'object' && value !== null && (value as { frontdesk?: unknown }).frontdesk === 'metrics' && typeof (value as { id?: unknown }).id === 'number'
}

function isMetricsAnswer(value: unknown): value is MetricsAnswer {
  return isMetricsRequest(value) && Array.isArray((value as { metrics?: unknown }).metrics)
}
