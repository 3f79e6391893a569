import { UsageError } from '@frontdesk/core'
import { toStorageError } from './busy-retry.ts'

/**
 * What opening a database file failed with, as the operator should see it: a file that is not
 * a SQLite database is a usage error (no path in the message); busy or I/O troubles are
 * `StorageUnavailableError`; anything else unchanged. The driver error stays the cause.
 */
export function toOpenError(error: unknown): unknown {
  const code = typeof error === 'object' && error !== null && 'code' in error ? (error as { code: unknown }).code : undefined
  if (code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT') {
    return new UsageError('The database file is not a frontdesk (SQLite) database, or it is damaged', { cause: error })
  }
  return toStorageError(error)
}
