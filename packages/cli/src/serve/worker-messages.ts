import cluster from 'node:cluster'

/** The environment variable that tells a worker of `serve --workers` its slot (1 to N). */
export const WORKER_SLOT_VARIABLE = 'FRONTDESK_WORKER'

/** The environment variable that tells a worker the port its supervisor listens on (the workers do not listen). */
export const WORKER_PORT_VARIABLE = 'FRONTDESK_WORKER_PORT'

/** What the supervisor sends a worker with each connection it accepted (the socket goes with it). */
export interface ConnectionMessage {
  frontdesk: 'connection'
}

/** What the supervisor sends every worker when the `--cert`/`--key` files were renewed (checked: they fit). */
export interface TlsMessage {
  frontdesk: 'tls'
  cert: string
  key: string
}

/** Whether `value` is a `TlsMessage`. */
export function isTlsMessage(value: unknown): value is TlsMessage {
  if (typeof value !== 'object' || value === null) return false
  const message = value as { frontdesk?: unknown; cert?: unknown; key?: unknown }
  return message.frontdesk === 'tls' && typeof message.cert === 'string' && typeof message.key === 'string'
}

/** Whether `value` is a `ConnectionMessage`. */
export function isConnectionMessage(value: unknown): value is ConnectionMessage {
  return typeof value === 'object' && value !== null && (value as { frontdesk?: unknown }).frontdesk === 'connection'
}

/** The port a worker's supervisor listens on, or `null` when this process is no worker. */
export function workerPortOf(vars: Readonly<Record<string, string | undefined>>): number | null {
  const port = Number(vars[WORKER_PORT_VARIABLE])
  return cluster.isWorker && Number.isSafeInteger(port) && port > 0 ? port : null
}

/** What a worker tells the supervising process over the cluster's channel. */
export type WorkerMessage =
  /** Listening: `url` is what clients use. */
  | { frontdesk: 'ready'; url: string }
  /** Could not start; `message` is the one line the CLI would print. */
  | { frontdesk: 'failed'; message: string }

/**
 * The slot of this process when it is a worker of `serve --workers` (1 to N), else `null`.
 * Slot 1 is the one that writes the search snapshots; a replacement keeps its slot.
 */
export function workerSlotOf(vars: Readonly<Record<string, string | undefined>>): number | null {
  if (!cluster.isWorker) return null
  const slot = Number(vars[WORKER_SLOT_VARIABLE])
  return Number.isSafeInteger(slot) && slot >= 1 ? slot : null
}

/** Sends `message` to the supervising process; resolves once it is on its way (or at once without a channel). */
export function tellSupervisor(message: WorkerMessage): Promise<void> {
  return new Promise((resolve) => {
    if (process.send === undefined || !process.connected) return resolve()
    process.send(message, undefined, {}, () => resolve())
  })
}

/** Whether `value` is a `WorkerMessage`. */
export function isWorkerMessage(value: unknown): value is WorkerMessage {
  if (typeof value !== 'object' || value === null) return false
  const kind = (value as { frontdesk?: unknown }).frontdesk
  return kind === 'ready' || kind === 'failed'
}
