import cluster from 'node:cluster'
import type { Worker } from 'node:cluster'
import { UsageError } from '@frontdesk/core'
import type { CliEnv } from '../env.ts'
import { isWorkerMessage, WORKER_SLOT_VARIABLE } from './worker-messages.ts'

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
}

/** A worker that died this soon after it started counts as a failed start (its slot's restarts back off). */
const QUICK_DEATH_MS = 10_000
/** Longest pause before a slot whose workers keep dying gets another one. */
const MAX_BACKOFF_MS = 10_000

/**
 * `serve --workers N` in the supervising process: runs N worker processes (node:cluster, each
 * running this same `frontdesk serve` command with its slot in `FRONTDESK_WORKER`) that share
 * one listening port, the primary handing each new connection to the next worker in turn.
 * Worker 1 starts first: it restores or builds the search index and writes the snapshots, which
 * the others then only read. Once all are listening it prints the "serving" line. A worker
 * that dies is replaced in its slot (after a pause that grows while replacements keep dying at
 * once); requests on the other workers are not affected. On SIGTERM or SIGINT every worker is
 * told to stop and drains its requests; this resolves once all have exited. A worker that
 * cannot start at first fails the whole command with its one-line error.
 */
export async function superviseWorkers(options: SuperviseOptions, env: CliEnv): Promise<void> {
  const stopMs = options.stopMs ?? 15_000
  const workers = new Map<number, Worker>()
  const startedAt = new Map<number, number>()
  const quickDeaths = new Map<number, number>()
  let stopping = false

  const fork = (slot: number): Worker => {
    const worker = cluster.fork({ [WORKER_SLOT_VARIABLE]: String(slot) })
    workers.set(slot, worker)
    startedAt.set(slot, Date.now())
    return worker
  }

  let url = ''
  try {
    url = await ready(fork(1), 1)
    const others = Array.from({ length: options.count - 1 }, (_, i) => ready(fork(i + 2), i + 2))
    await Promise.all(others)
  } catch (error) {
    stopping = true
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
      const next = fork(slot)
      ready(next, slot).then(
        () => env.stderr.write(`frontdesk: worker ${slot} (pid ${next.process.pid}) serving\n`),
        (error: unknown) => env.stderr.write(`frontdesk: worker ${slot} could not start: ${error instanceof Error ? error.message : String(error)}\n`),
      )
    }, pause)
    timer.unref()
  }
  cluster.on('exit', replace)

  env.stderr.write(`frontdesk: serving ${url}/v1/${options.mode} with ${options.count} worker processes (pids ${[...workers.values()].map((w) => w.process.pid).join(', ')})\n`)
  await options.untilStopped()
  stopping = true
  cluster.off('exit', replace)
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
