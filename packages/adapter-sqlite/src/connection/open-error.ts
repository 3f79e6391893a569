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
  // Hint: no retry cures a directory given as the file or a missing directory; it is not "busy".
  if (code === 'SQLITE_CANTOPEN') {
    return new UsageError('Unable to open the database file (is it a directory, or is its directory missing or not writable?)', { cause: error })
  }
  return toStorageError(error)
}
