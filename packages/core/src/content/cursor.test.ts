import fc from 'fast-check'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { decodeCursor, encodeCursor, MAX_CURSOR_LENGTH, queryFingerprint } from './cursor.ts'

const print = queryFingerprint('["news"]')
const sortValue = fc.oneof(fc.constant(null), fc.string(), fc.boolean(), fc.double({ noNaN: true, noDefaultInfinity: true }))
const id = fc.stringMatching(/^[A-Za-z0-9_-]{1,64}$/)

test('a cursor decodes to the position it was made from', () => {
  fc.assert(
    fc.property(sortValue, id, (value, itemId) => {
      const decoded = decodeCursor(encodeCursor(print, { value, id: itemId }), print)
      // Hint: JSON has one zero; -0 comes back as 0, which sorts the same.
      return decoded.ok && Object.is(decoded.position.value, value === 0 ? 0 : value) && decoded.position.id === itemId
    }),
  )
})

test('a cursor is opaque base64url text', () => {
  assert.match(encodeCursor(print, { value: '2025-06-20T00:00:00.000Z', id: 'cnt_1' }), /^[A-Za-z0-9_-]+$/)
})

test('a cursor made for another query is refused with its own message', () => {
  const cursor = encodeCursor(print, { value: 'a', id: 'cnt_1' })
  const decoded = decodeCursor(cursor, queryFingerprint('["blog"]'))
  assert.equal(decoded, { ok: false, message: 'cursor belongs to a query with other filters or sort' })
  assert.ok(decodeCursor(cursor, null).ok)
})

test('any string either decodes or is refused, never throws', () => {
  fc.assert(
    fc.property(fc.oneof(fc.string(), fc.base64String(), fc.stringMatching(/^[A-Za-z0-9_-]{0,80}$/)), (text) => {
      const decoded = decodeCursor(text, print)
      return decoded.ok === false || typeof decoded.position.id === 'string'
    }),
    { numRuns: 500 },
  )
})

test('base64url of arbitrary JSON is refused', () => {
  fc.assert(
    fc.property(fc.jsonValue(), (value) => {
      const text = Buffer.from(JSON.stringify(value) ?? 'null').toString('base64url')
      return decodeCursor(text, null).ok === false
    }),
  )
})

test('changing any one character of a valid cursor makes it invalid', () => {
  fc.assert(
    fc.property(sortValue, id, fc.nat(), fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'), (value, itemId, at, char) => {
      const cursor = encodeCursor(print, { value, id: itemId })
      const i = at % cursor.length
      fc.pre(cursor[i] !== char)
      const mutated = cursor.slice(0, i) + char + cursor.slice(i + 1)
      return decodeCursor(mutated, print).ok === false
    }),
    { numRuns: 500 },
  )
})

test('another spelling of the same values (an exponent in capitals, spaces) is not a cursor', () => {
  const cursor = encodeCursor(print, { value: 1.5e21, id: 'cnt_1' })
  const text = Buffer.from(cursor, 'base64url').toString('utf8')
  assert.ok(text.includes('e+21'))
  for (const respelled of [text.replace('e+21', 'E+21'), text.replace(',', ', ')]) {
    assert.is(decodeCursor(Buffer.from(respelled).toString('base64url'), print).ok, false, respelled)
  }
})

test('truncated, extended and overlong cursors are invalid', () => {
  const cursor = encodeCursor(print, { value: 'x', id: 'cnt_1' })
  for (const text of [cursor.slice(0, -1), cursor.slice(1), `${cursor}A`, `${cursor}=`, '', 'A'.repeat(MAX_CURSOR_LENGTH + 1)]) {
    assert.is(decodeCursor(text, print).ok, false, text)
  }
})

test('a forged cursor with a good checksum but a bad id is refused', () => {
  const forged = encodeCursor(print, { value: 'x', id: 'not an id' })
  assert.is(decodeCursor(forged, print).ok, false)
})

test.run()
