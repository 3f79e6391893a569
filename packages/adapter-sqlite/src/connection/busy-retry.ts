import { StorageUnavailableError } from '@frontdesk/core'

/** Whether a driver error means "another connection holds the lock; a retry may cure it". */
export function isBusyError(error: unknown): boolean {
  if (typeof error !== 'object' || error === null || !('code' in error)) return false
  const code = (error as { code: unknown }).code
  return typeof code === 'string' && (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED'))
}

/**
 * Runs `attempt` (synchronous, over a connection with a short `busy_timeout`) and, while it
 * fails because the database is locked by another process, retries it asynchronously with
 * growing pauses until `timeoutMs` has passed, so a locked database never blocks the event
 * loop for long. Then throws `StorageUnavailableError` with the last driver error as cause.
 */
export async function withBusyRetry<T>(timeoutMs: number, attempt: () => T): Promise<T> {
  const deadline = Date.now() + timeoutMs
  let pause = 2
  for (;;) {
    try {
      return attempt()
    } catch (error) {
      if (!isBusyError(error)) throw error
      const left = deadline - Date.now()
      if (left <= 0) throw new StorageUnavailableError('Storage is busy', { cause: error })
      await sleep(Math.min(pause, left))
      pause = Math.min(pause * 2, 100)
    }
  }
}

/** `StorageUnavailableError` for a busy error thrown where no retry is possible; others unchanged. */
export function wrapBusy(error: unknown): unknown {
  return isBusyError(error) ? new StorageUnavailableError('Storage is busy', { cause: error }) : error
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}
