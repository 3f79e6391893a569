import { fuzzOptions } from '@frontdesk/core/testing'
import fc from 'fast-check'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import type { AccessLogEntry } from './access-log.ts'
import { createLineBuffer, formatAccessLog, isoNow, redactedTarget, redactTarget } from './access-log.ts'

const turn = () => new Promise((resolve) => setImmediate(resolve))

test('lines pushed in one turn of the event loop are written together, in order, on the next', async () => {
  const writes: string[] = []
  const buffer = createLineBuffer((text) => writes.push(text))
  buffer.push('a\n')
  buffer.push('b\n')
  assert.equal(writes, [])
  await turn()
  assert.equal(writes, ['a\nb\n'])
  buffer.push('c\n')
  await turn()
  assert.equal(writes, ['a\nb\n', 'c\n'])
})

test('a full buffer is written at once, and flush writes what waits', () => {
  const writes: string[] = []
  const buffer = createLineBuffer((text) => writes.push(text), 4)
  buffer.push('ab\n')
  buffer.push('cd\n')
  assert.equal(writes, ['ab\ncd\n'])
  buffer.push('e\n')
  buffer.flush()
  assert.equal(writes, ['ab\ncd\n', 'e\n'])
  buffer.flush()
  assert.is(writes.length, 2)
})

test('a throwing writer loses its batch but not the next one', async () => {
  const writes: string[] = []
  let fail = true
  const buffer = createLineBuffer((text) => {
    if (fail) throw new Error('disk full')
    writes.push(text)
  })
  buffer.push('lost\n')
  await turn()
  fail = false
  buffer.push('kept\n')
  await turn()
  assert.equal(writes, ['kept\n'])
})

// Pieces that steer targets towards every branch of the redaction: secret shapes, escapes
// (of them too), secret parameter names in any case, separators, and letters outside ASCII
// whose lower case is ASCII (the Kelvin sign), which only the long way catches.
const PIECES = ['?preview_token=', '&Preview_Token=', '?KEY=', '&token=', '?x-api-key=', '&apikey=', 'fdk_', 'FDV_', 'fdp_', '0123456789', 'abcdefgh', '%66', '%5F', '%25', '%', '?', '&', '=', '/', 'key', 'KEY', '\u212Aey', 'token', 'preview_token', 'Api_Key', 'x-api-key', 'é', '日本', 'cursor', '#']
const target = fc.array(fc.oneof(fc.constantFrom(...PIECES), fc.string({ maxLength: 6 }), fc.string({ unit: 'grapheme', maxLength: 3 })), { maxLength: 24 }).map((parts) => `/v1/${parts.join('')}`)

test('redactTarget gives what the long way gives, on any target', () => {
  fc.assert(fc.property(target, (url) => redactTarget(url) === redactedTarget(url)), { numRuns: 3000, seed: fuzzOptions(3000).seed })
  for (const url of ['/v1/x?\u212Aey=abc', '/v1/x?q=1&key=abc', `/v1/${'a'.repeat(3000)}`, '/v1/cms/contents?cursor=WzIsIjIwMjYtMTEtMjVUMDA6MDA6MDBaIiwiY250X2EiXQ'])
    assert.is(redactTarget(url), redactedTarget(url), url)
})

test('an access-log line is JSON.stringify of its entry, with or without the optional fields', () => {
  const nullable = (arb: fc.Arbitrary<string>) => fc.option(arb, { nil: null })
  // Any UTF-16 code unit: control characters, quotes, backslashes and lone surrogates too.
  const units = fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code)) })
  const anyText = fc.oneof(fc.string(), fc.string({ unit: 'binary' }), units)
  const entry = fc.record({
    time: fc.date({ noInvalidDate: true }).map((date) => date.toISOString()),
    request_id: anyText,
    tenant: nullable(anyText),
    key_id: nullable(anyText),
    method: anyText,
    path: anyText,
    status: fc.integer({ min: 0, max: 599 }),
    duration_ms: fc.oneof(fc.double(), fc.constant(-0)),
    bytes: fc.nat(),
    remote_address: nullable(anyText),
    aborted: fc.option(fc.constant(true as const), { nil: undefined }),
    worker: fc.option(fc.integer({ min: 1, max: 64 }), { nil: undefined }),
  })
  fc.assert(
    fc.property(entry, ({ aborted, worker, ...rest }) => {
      // Built as the handler builds it: `aborted` last, then `worker` added by serve.
      const built: AccessLogEntry = { ...rest, ...(aborted === undefined ? {} : { aborted }) }
      if (worker !== undefined) built.worker = worker
      return formatAccessLog(built) === `${JSON.stringify(built)}\n`
    }),
    { numRuns: 2000, seed: fuzzOptions(2000).seed },
  )
})

test('isoNow is the time of now in ISO 8601, made again each millisecond', async () => {
  for (let i = 0; i < 5; i++) {
    const before = Date.now()
    const now = isoNow()
    const after = Date.now()
    assert.match(now, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)
    assert.ok(Date.parse(now) >= before && Date.parse(now) <= after, `${before} ≤ ${now} ≤ ${after}`)
    await new Promise((resolve) => setTimeout(resolve, 2))
  }
})

test.run()
