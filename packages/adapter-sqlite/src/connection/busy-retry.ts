import { StorageUnavailableError } from '@frontdesk/core'

/** Whether a driver error means "another connection holds the lock; a retry may cure it". */
export function isBusyError(error: unknown): boolean {
  const code = sqliteCode(error)
  return code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')
}

/** Whether a driver error is one of the storage's own troubles (busy, full disk, I/O) a later retry may cure. */
export function isTransientError(error: unknown): boolean {
  const code = sqliteCode(error)
  return isBusyError(error) || code === 'SQLITE_FULL' || code.startsWith('SQLITE_IOERR') || code.startsWith('SQLITE_CANTOPEN')
}

function sqliteCode(error: unknown): string {
  if (typeof error !== 'object' || error === null || !('code' in error)) return ''
  const code = (error as { code: unknown }).code
  return typeof code === 'string' ? code : ''
}

/**
 * Runs `attempt` (synchronous, over a connection with a short `busy_timeout`) and, while it
 * fails because the database is locked by another process, retries it asynchronously with
 * growing pauses until `timeoutMs` has passed, so a locked database never blocks the event
 * loop for long. Then throws `StorageUnavailableError` with the last driver error as cause.
 */
export async function withBusyRetry<T>(timeoutMs: number, attempt: () => T): Promise<T> {
  const backoff = new Backoff(timeoutMs, 2, 100)
  for (;;) {
    try {
      return attempt()
    } catch (error) {
      if (!isBusyError(error)) throw toStorageError(error)
      const pause = backoff.next()
      if (pause === null) throw new StorageUnavailableError('Storage is busy', { cause: error })
      await sleep(pause)
    }
  }
}

/**
 * `withBusyRetry` for a caller that must stay synchronous (opening a store): retries `attempt`
 * while the database is busy, pausing with the thread blocked, until `timeoutMs` has passed;
 * then throws the last driver error.
 */
export function withBusyRetrySync<T>(timeoutMs: number, attempt: () => T): T {
  const backoff = new Backoff(timeoutMs, 1, 50)
  for (;;) {
    try {
      return attempt()
    } catch (error) {
      const pause = isBusyError(error) ? backoff.next() : null
      if (pause === null) throw error
      Atomics.wait(PAUSE, 0, 0, pause)
    }
  }
}

/** Pauses between attempts on a busy database, doubling from `first` to `max` ms, none once `timeoutMs` from its making have passed. */
class Backoff {
  readonly #deadline: number
  readonly #max: number
  #pause: number

  constructor(timeoutMs: number, first: number, max: number) {
    this.#deadline = Date.now() + timeoutMs
    this.#pause = first
    this.#max = max
  }

  /** The next pause in ms, or `null` when the time is up. */
  next(): number | null {
    const left = this.#deadline - Date.now()
    if (left <= 0) return null
    const pause = Math.min(this.#pause, left)
    this.#pause = Math.min(this.#pause * 2, this.#max)
    return pause
  }
}

/** Never notified: `Atomics.wait` on it only sleeps. */
const PAUSE = new Int32Array(new SharedArrayBuffer(4))

/**
 * `StorageUnavailableError` (with the driver error as cause) for a busy, full-disk or I/O
 * error; anything else (constraint violations, the caller's own errors) unchanged.
 */
export function toStorageError(error: unknown): unknown {
  if (!isTransientError(error)) return error
  return new StorageUnavailableError(isBusyError(error) ? 'Storage is busy' : 'Storage is temporarily unavailable', { cause: error })
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}
