import { StorageUnavailableError } from '@frontdesk/core'

/*
 * Which driver errors a retry may cure. PostgreSQL says so by SQLSTATE class: 08 (connection
 * exception), 53 (insufficient resources), 57P01-57P03 (the server shutting down or starting),
 * 57014 (a statement timeout or a cancel), 40001/40P01 (serialization failure, deadlock), 55P03
 * (lock not available), 58 (system error: I/O). node-postgres adds socket errors and its own
 * connection messages.
 */

const TRANSIENT_STATES = /^(08...|53...|57P0[123]|57014|40001|40P01|55P03|58...)$/
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'ECONNABORTED'])
const DRIVER_MESSAGES = /Connection terminated|timeout exceeded when trying to connect|Query read timeout|not queryable|Client was closed|Connection ended/i

/** Whether `error` is the database being unreachable, overloaded or shutting down (not the caller's fault). */
export function isTransientError(error: unknown): boolean {
  if (error instanceof StorageUnavailableError) return true
  if (typeof error !== 'object' || error === null) return false
  const code = (error as { code?: unknown }).code
  if (typeof code === 'string' && (TRANSIENT_STATES.test(code) || SOCKET_CODES.has(code))) return true
  const message = (error as { message?: unknown }).message
  return typeof message === 'string' && DRIVER_MESSAGES.test(message)
}

/**
 * `StorageUnavailableError` (the driver error as its cause) for a transient error; anything
 * else unchanged. The message never names the server, user or password.
 */
export function toStorageError(error: unknown): unknown {
  if (error instanceof StorageUnavailableError || !isTransientError(error)) return error
  return new StorageUnavailableError('The database is unavailable', { cause: error })
}

/** `url` with its password replaced by `***`, for messages and logs. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url)
    if (parsed.password !== '') parsed.password = '***'
    for (const key of [...parsed.searchParams.keys()]) {
      if (/pass/i.test(key)) parsed.searchParams.set(key, '***')
    }
    return parsed.toString()
  } catch {
    return url.replace(/\/\/[^@/]*@/, '//***@')
  }
}
