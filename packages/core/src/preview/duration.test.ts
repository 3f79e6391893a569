import fc from 'fast-check'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { formatDuration, parseDuration } from './duration.ts'

test('durations with s, m, h and d read as milliseconds', () => {
  assert.is(parseDuration('30s'), 30_000)
  assert.is(parseDuration('15m'), 900_000)
  assert.is(parseDuration('1h'), 3_600_000)
  assert.is(parseDuration('7d'), 604_800_000)
})

test('zero, decimals, signs, spaces, upper case, other units and bare numbers are refused', () => {
  for (const text of ['0s', '0h', '1.5h', '-1h', '+1h', ' 1h', '1h ', '1 h', '1H', '1w', '60', 'h', '', '1h30m', '1234567890s']) {
    assert.is(parseDuration(text), null, text)
  }
})

test('any string either parses to a positive whole number of seconds or is refused', () => {
  fc.assert(
    fc.property(fc.string(), (text) => {
      const ms = parseDuration(text)
      return ms === null || (Number.isSafeInteger(ms) && ms > 0 && ms % 1_000 === 0)
    }),
  )
})

test('a formatted duration parses back to itself', () => {
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 999_999 }), fc.constantFrom(1_000, 60_000, 3_600_000, 86_400_000), (n, unit) => {
      return parseDuration(formatDuration(n * unit)) === n * unit
    }),
  )
})

test.run()
