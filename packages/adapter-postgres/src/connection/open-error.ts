import { StorageUnavailableError, UsageError } from '@frontdesk/core'
import { toStorageError } from './storage-error.ts'

/**
 * What opening a store failed with, as an operator should see it (never with the URL or its
 * password): a refused login or a missing database is a usage error, since no retry cures it;
 * an unreachable or starting server is `StorageUnavailableError`. The driver error stays the cause.
 */
export function toOpenError(error: unknown): unknown {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined
  if (code === '28P01' || code === '28000') return new UsageError('PostgreSQL refused the login (check the user and password of the URL)', { cause: error })
  if (code === '3D000') return new UsageError('PostgreSQL has no database of that name (create it first)', { cause: error })
  if (code === '42501') return new UsageError('The PostgreSQL user may not create frontdesk\'s tables in that database (permission denied)', { cause: error })
  if (error instanceof Error && /password must be a string|SASL/.test(error.message)) {
    return new UsageError('PostgreSQL asks for a password the URL does not give', { cause: error })
  }
  const mapped = toStorageError(error)
  if (mapped instanceof StorageUnavailableError) return new StorageUnavailableError('PostgreSQL is unreachable or not accepting connections', { cause: error })
  return mapped
}
