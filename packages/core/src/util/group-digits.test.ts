import fc from 'fast-check'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { groupDigits } from './group-digits.ts'

test('groupDigits writes whole numbers as toLocaleString en-US does', () => {
  for (const value of [0, 7, 999, 1000, -1000, 12345, 100000, 1234567, -987654321, Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER]) {
    assert.is(groupDigits(value), value.toLocaleString('en-US'), String(value))
  }
  fc.assert(fc.property(fc.maxSafeInteger(), (value) => groupDigits(value) === value.toLocaleString('en-US')), { numRuns: 300 })
})

test('groupDigits leaves what is not a safe integer as String writes it', () => {
  for (const value of [1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 60]) assert.is(groupDigits(value), String(value))
})

test.run()
