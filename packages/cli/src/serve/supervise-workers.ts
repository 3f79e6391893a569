import cluster from 'node:cluster'
import type { Worker } from 'node:cluster'
import { createServer } from 'node:net'
import type { Server, Socket } from 'node:net'
import { UsageError } from '@frontdesk/core'
import type { CliEnv } from '../env.ts'
import type { MetricsEndpoint } from './metrics-endpoint.ts'
import type { TlsFiles } from './tls-problem-line.ts'
import type { ConnectionMessage, TlsMessage } from './worker-messages.ts'
import { isWorkerMessage, WORKER_PORT_VARIABLE, WORKER_SLOT_VARIABLE } from './worker-messages.ts'

/** Options of `superviseWorkers`. */
export interface SuperviseOptions {
  /** Worker processes to keep running. */
  count: number
  /** Said after the URL in the "serving" line (the transport, when not plain TLS). */
  mode: string
  /** How long each worker may drain on SIGTERM before it is killed, in ms. Default 15 000 (a worker drains for 10 s). */
  stopMs?: number
  /** Resolves the wait for SIGINT/SIGTERM (as `untilStopped`). */
  untilStopped: () => Promise<void>
  /** Makes `server` listen where `serve` was told to; resolves with the port. */
  listen: (server: Server) => Promise<number>
  /** `--cert`/`--key`: watched here (and reloaded on SIGHUP), and sent to every worker when renewed (see `watchTlsFiles`). */
  tlsFiles?: TlsFiles
  /** `--metrics-port`: this process serves `/metrics`, the workers' metrics added up (see `clusterMetrics`). */
  metrics?: { listen: (server: Server) => Promise<number>; host: string }
}

/** A worker that died this soon after it started counts as a failed start (its slot's restarts back off). */
const QUICK_DEATH_MS = 10_000
/** Longest pause before a slot whose workers keep dying gets another one. */
const MAX_BACKOFF_MS = 10_000

/**
 * `serve --workers N` in the supervising process: runs N worker processes (node:cluster, each
 * running this same `frontdesk serve` command with its slot in `FRONTDESK_WORKER`). This
 * process listens and hands each connection it accepts, unread, to the next worker that is
 * serving, in turn. It does not use node:cluster's own round robin, which keeps a connection
 * handed to a worker that has just died open in this process, for ever: the client hangs until
 * its own timeout. Here this process closes its copy of a connection as soon as it is written
 * to the worker's channel, and closes those still queued when the worker dies, so a client
 * whose connection met a dying worker sees it closed and connects again.
 *
 * Worker 1 starts first: it restores or builds the search index and writes the snapshots, which
 * the others then only read. Once all are serving it prints the "serving" line. A worker that
 * dies is replaced in its slot (after a pause that grows while replacements keep dying at
 * once); requests on the other workers are not affected. On SIGTERM or SIGINT this process
 * stops accepting and every worker is told to stop and drains its requests; this resolves
 * once all have exited. A worker that cannot start at first fails the whole command with its
 * one-line error.
 */
export async function superviseWorkers(options: SuperviseOptions, env: CliEnv): Promise<void> {
  const stopMs = options.stopMs ?? 15_000
  const workers = new Map<number, Worker>()
  const startedAt = new Map<number, number>()
  const quickDeaths = new Map<number, number>()
  /** The workers that said they serve, in the order they are handed connections. */
  const serving: Worker[] = []
  let turn = 0
  let stopping = false

  const listener = createServer({ pauseOnConnect: true })
  const port = await options.listen(listener)
  /** Connections on their way to each worker: this process's copies, closed once sent. */
  const sending = new Map<Worker, Set<Socket>>()
  listener.on('connection', (socket: Socket) => {
    const live = serving.filter((worker) => worker.isConnected())
    const worker = live[turn++ % Math.max(1, live.length)]
    if (worker === undefined) {
      socket.destroy()
      return
    }
    let pending = sending.get(worker)
    if (pending === undefined) {
      pending = new Set()
      sending.set(worker, pending)
    }
    pending.add(socket)
    const message: ConnectionMessage = { frontdesk: 'connection' }
    // Hint: once written to the channel the worker holds its own descriptor of the connection
    // (or, should it die first, the kernel closes it), so this copy is closed: sent or not.
    worker.send(message, socket, { keepOpen: true }, () => {
      pending.delete(socket)
      socket.destroy()
    })
  })
  const stopServing = (worker: Worker) => {
    const at = serving.indexOf(worker)
    if (at >= 0) serving.splice(at, 1)
    // Hint: connections queued behind a handle the worker never acknowledged would never be
    // written nor called back (Node's channel keeps them on a dead worker): close them.
    for (const socket of sending.get(worker) ?? []) socket.destroy()
    sending.delete(worker)
  }

  const fork = (slot: number): Worker => {
    const worker = cluster.fork({ [WORKER_SLOT_VARIABLE]: String(slot), [WORKER_PORT_VARIABLE]: String(port) })
    workers.set(slot, worker)
    startedAt.set(slot, Date.now())
    worker.once('disconnect', () => stopServing(worker))
    worker.once('exit', () => stopServing(worker))
    return worker
  }
  const start = async (slot: number): Promise<string> => {
    const worker = fork(slot)
    const url = await ready(worker, slot)
    if (worker.isConnected()) serving.push(worker)
    return url
  }

  let url = ''
  try {
    url = await start(1)
    const others = Array.from({ length: options.count - 1 }, (_, i) => start(i + 2))
    await Promise.all(others)
  } catch (error) {
    stopping = true
    listener.close()
    await Promise.all([...workers.values()].map((worker) => stopWorker(worker, stopMs)))
    throw error
  }

  const replace = (worker: Worker, code: number | null, signal: string | null) => {
    const slot = slotOf(worker, workers)
    if (stopping || slot === null) return
    const quick = Date.now() - (startedAt.get(slot) ?? 0) < QUICK_DEATH_MS
    const deaths = quick ? (quickDeaths.get(slot) ?? 0) + 1 : 0
    quickDeaths.set(slot, deaths)
    const pause = deaths === 0 ? 0 : Math.min(MAX_BACKOFF_MS, 250 * 2 ** (deaths - 1))
    env.stderr.write(`frontdesk: worker ${slot} (pid ${worker.process.pid}) exited (${signal ?? `code ${code}`}); starting another${pause > 0 ? ` in ${pause} ms` : ''}\n`)
    const timer = setTimeout(() => {
      if (stopping) return
      start(slot).then(
        () => env.stderr.write(`frontdesk: worker ${slot} (pid ${workers.get(slot)?.process.pid}) serving\n`),
        (error: unknown) => env.stderr.write(`frontdesk: worker ${slot} could not start: ${error instanceof Error ? error.message : String(error)}\n`),
      )
    }, pause)
    timer.unref()
  }
  cluster.on('exit', replace)
  const sendTls = (pems: { cert: string; key: string }) => {
    const message: TlsMessage = { frontdesk: 'tls', ...pems }
    // Hint: a worker still starting gets it too (it keeps it until it serves); one that exits meanwhile needs nothing.
    for (const worker of workers.values()) if (worker.isConnected()) worker.send(message, () => {})
  }
  const say = (line: string) => env.stderr.write(`${line}\n`)
  const watch = options.tlsFiles === undefined ? null : (await import('./tls-files.ts')).watchTlsFiles(options.tlsFiles, { apply: sendTls, say })
  let metrics: MetricsEndpoint | null = null
  if (options.metrics !== undefined) {
    const { clusterMetrics, serveMetrics } = await import('./metrics-endpoint.ts')
    try {
      metrics = await serveMetrics(options.metrics.listen, options.metrics.host, clusterMetrics(() => serving))
    } catch (error) {
      stopping = true
      watch?.close()
      listener.close()
      await Promise.all([...workers.values()].map((worker) => stopWorker(worker, stopMs)))
      throw error
    }
  }

  env.stderr.write(`frontdesk: serving ${url}/v1/${options.mode} with ${options.count} worker processes (pids ${[...workers.values()].map((w) => w.process.pid).join(', ')})\n`)
  if (metrics !== null) env.stderr.write(`frontdesk: metrics at ${metrics.url} (all workers together)\n`)
  await options.untilStopped()
  stopping = true
  watch?.close()
  await metrics?.close()
  cluster.off('exit', replace)
  listener.close()
  env.stderr.write('frontdesk: stopping (letting requests in flight finish)\n')
  await Promise.all([...workers.values()].map((worker) => stopWorker(worker, stopMs)))
}

/** Resolves with the worker's URL once it listens; rejects when it fails or exits first. */
function ready(worker: Worker, slot: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const onMessage = (message: unknown) => {
      if (!isWorkerMessage(message)) return
      done()
      if (message.frontdesk === 'ready') resolve(message.url)
      else reject(new UsageError(message.message))
    }
    const onExit = (code: number | null, signal: string | null) => {
      done()
      reject(new UsageError(`worker ${slot} exited (${signal ?? `code ${code}`}) before serving`))
    }
    const done = () => {
      worker.off('message', onMessage)
      worker.off('exit', onExit)
    }
    worker.on('message', onMessage)
    worker.once('exit', onExit)
  })
}

/** Asks `worker` to stop (SIGTERM: it drains its requests) and resolves once it exited, killing it after `ms`. */
function stopWorker(worker: Worker, ms: number): Promise<void> {
  return new Promise((resolve) => {
    if (worker.isDead()) return resolve()
    const timer = setTimeout(() => worker.process.kill('SIGKILL'), ms)
    worker.once('exit', () => {
      clearTimeout(timer)
      resolve()
    })
    worker.process.kill('SIGTERM')
  })
}

function slotOf(worker: Worker, workers: Map<number, Worker>): number | null {
  for (const [slot, current] of workers) if (current === worker) return slot
  return null
}
