import cluster from 'node:cluster'

/** The environment variable that tells a worker of `serve --workers` its slot (1 to N). */
export const WORKER_SLOT_VARIABLE = 'FRONTDESK_WORKER'

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
  return typeof value === 'object' && value !== null && 'frontdesk' in value
}
