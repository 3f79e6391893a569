import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { StorageUnavailableError } from '@frontdesk/core'
import { isBusyError, withBusyRetry, withBusyRetrySync, toStorageError } from './busy-retry.ts'

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

test('withBusyRetrySync retries while busy, gives up after the timeout with the driver error, and does not retry other errors', () => {
  let attempts = 0
  const result = withBusyRetrySync(1_000, () => {
    if (++attempts < 4) throw sqliteError('SQLITE_BUSY')
    return 'done'
  })
  assert.is(result, 'done')
  assert.is(attempts, 4)
  const busy = sqliteError('SQLITE_BUSY')
  const started = Date.now()
  let thrown: unknown
  try {
    withBusyRetrySync(50, () => {
      throw busy
    })
  } catch (error) {
    thrown = error
  }
  const waited = Date.now() - started
  assert.is(thrown, busy)
  assert.ok(waited >= 45 && waited < 1_000, `waited ${waited} ms`)
  const other = sqliteError('SQLITE_CONSTRAINT_UNIQUE')
  attempts = 0
  try {
    withBusyRetrySync(1_000, () => {
      attempts++
      throw other
    })
  } catch (error) {
    thrown = error
  }
  assert.is(thrown, other)
  assert.is(attempts, 1)
})

test.run()
