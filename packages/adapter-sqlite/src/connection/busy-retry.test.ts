import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { StorageUnavailableError } from '@frontdesk/core'
import { isBusyError, withBusyRetry, toStorageError } from './busy-retry.ts'

function sqliteError(code: string): Error {
  return Object.assign(new Error(`driver says ${code}`), { code })
}

test('busy and locked driver errors are busy; others are not', () => {
  assert.ok(isBusyError(sqliteError('SQLITE_BUSY')))
  assert.ok(isBusyError(sqliteError('SQLITE_BUSY_SNAPSHOT')))
  assert.ok(isBusyError(sqliteError('SQLITE_LOCKED')))
  assert.not.ok(isBusyError(sqliteError('SQLITE_CONSTRAINT_UNIQUE')))
  assert.not.ok(isBusyError(new Error('plain')))
  assert.not.ok(isBusyError(null))
})

test('busy, full-disk and I/O errors become StorageUnavailableError with the cause; others pass unchanged', () => {
  for (const code of ['SQLITE_BUSY', 'SQLITE_FULL', 'SQLITE_IOERR_FSYNC', 'SQLITE_CANTOPEN']) {
    const original = sqliteError(code)
    const wrapped = toStorageError(original)
    assert.instance(wrapped, StorageUnavailableError, code)
    assert.is((wrapped as Error).cause, original)
    assert.not.match((wrapped as Error).message, code, 'the message shown to users names no driver detail')
  }
  const constraint = sqliteError('SQLITE_CONSTRAINT_UNIQUE')
  assert.is(toStorageError(constraint), constraint)
  const own = new Error('the caller’s own')
  assert.is(toStorageError(own), own)
})

test('withBusyRetry retries while busy and returns the first success', async () => {
  let attempts = 0
  const result = await withBusyRetry(1_000, () => {
    attempts++
    if (attempts < 4) throw sqliteError('SQLITE_BUSY')
    return 'done'
  })
  assert.is(result, 'done')
  assert.is(attempts, 4)
})

test('withBusyRetry gives up after the timeout, and does not retry other errors', async () => {
  const started = Date.now()
  const error = await withBusyRetry(50, () => {
    throw sqliteError('SQLITE_BUSY')
  }).catch((e: unknown) => e)
  assert.instance(error, StorageUnavailableError)
  assert.ok(Date.now() - started >= 45)
  let attempts = 0
  const constraint = await withBusyRetry(1_000, () => {
    attempts++
    throw sqliteError('SQLITE_CONSTRAINT')
  }).catch((e: unknown) => e)
  assert.is(attempts, 1)
  assert.is((constraint as { code: string }).code, 'SQLITE_CONSTRAINT')
})

test.run()
