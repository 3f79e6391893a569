import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { StorageUnavailableError } from '@frontdesk/core'
import { createUnavailableLog, UNAVAILABLE_LINE_INTERVAL_MS } from './unavailable-report.ts'

function diskFull(): StorageUnavailableError {
  const cause = Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' })
  return new StorageUnavailableError('Storage is temporarily unavailable', { cause })
}

test('a refusal is logged with the driver\u2019s code and message, the path without its query', () => {
  const lines: string[] = []
  const log = createUnavailableLog((line) => void lines.push(line), () => 1_000)
  log(diskFull(), { requestId: 'req_1', method: 'GET', url: '/v1/cms/contents?preview_token=fdv_secret' })
  assert.equal(lines, ['frontdesk: storage unavailable, answered 503 to GET /v1/cms/contents (request req_1): SQLITE_FULL: database or disk is full\n'])
})

test('a burst of refusals writes one line per interval, and the next line counts the others', () => {
  const lines: string[] = []
  let now = 0
  const log = createUnavailableLog((line) => void lines.push(line), () => now)
  for (let i = 0; i < 500; i++) {
    log(diskFull(), { requestId: `req_${i}`, method: 'POST', url: '/v1/inquiry/inquiries' })
    now += 10
  }
  // 5,000 ms of refusals: the first line only.
  assert.is(lines.length, 1)
  now = UNAVAILABLE_LINE_INTERVAL_MS + 1
  log(diskFull(), { requestId: 'req_last', method: 'POST', url: '/v1/inquiry/inquiries' })
  assert.is(lines.length, 2)
  assert.match(lines[1] ?? '', /\(request req_last\): SQLITE_FULL: database or disk is full \(499 more since the last line\)\n$/)
})

test('a refusal without a driver cause is logged with its own message', () => {
  const lines: string[] = []
  createUnavailableLog((line) => void lines.push(line), () => 0)(new StorageUnavailableError('Storage is busy'), { requestId: 'r', method: 'GET', url: '/v1/x' })
  assert.match(lines[0] ?? '', /: Storage is busy\n$/)
})

test.run()
