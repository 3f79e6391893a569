import fc from 'fast-check'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { jsonSizeOf } from './json-size.ts'

test('the size of plain ASCII JSON data is exactly the length of its JSON text', () => {
  const ascii = fc.string({ unit: fc.constantFrom(...'abcXYZ 019-_:/.<>'.split('')) })
  const data = fc.letrec((tie) => ({
    value: fc.oneof(
      { depthSize: 'small' },
      ascii, fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean(), fc.constant(null),
      fc.array(tie('value'), { maxLength: 5 }), fc.dictionary(ascii, tie('value'), { maxKeys: 5 }),
    ),
  })).value
  fc.assert(fc.property(data, (value) => jsonSizeOf(value) === JSON.stringify(value).length))
})

test('undefined properties are left out as JSON.stringify leaves them out', () => {
  const value = { a: 1, b: undefined, c: [undefined, 'x'] }
  assert.is(jsonSizeOf(value), JSON.stringify(value).length)
})

test.run()
