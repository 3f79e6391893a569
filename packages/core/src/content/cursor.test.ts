import { createHmac } from 'node:crypto'
import fc from 'fast-check'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { sha256Hex } from '../util/sha256.ts'
import type { CursorBinding } from './cursor.ts'
import { decodeCursor, encodeCursor, MAX_CURSOR_LENGTH, queryFingerprint } from './cursor.ts'

const print = queryFingerprint('["news"]')
const binding: CursorBinding = { secret: 'c2VjcmV0LW9mLXRoaXMtaW5zdGFsbGF0aW9uLTEyMzQ1Njc4', tenantId: 'ten_a' }
const sortValue = fc.oneof(fc.constant(null), fc.string(), fc.boolean(), fc.double({ noNaN: true, noDefaultInfinity: true }))
const id = fc.stringMatching(/^[A-Za-z0-9_-]{1,64}$/)

test('a cursor decodes to the position it was made from', () => {
  fc.assert(
    fc.property(sortValue, id, (value, itemId) => {
      const decoded = decodeCursor(binding, encodeCursor(binding, print, { value, id: itemId }), print)
      // Hint: JSON has one zero; -0 comes back as 0, which sorts the same.
      return decoded.ok && Object.is(decoded.position.value, value === 0 ? 0 : value) && decoded.position.id === itemId
    }),
  )
})

test('a cursor is opaque URL-safe text', () => {
  assert.match(encodeCursor(binding, print, { value: '2025-06-20T00:00:00.000Z', id: 'cnt_1' }), /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{22}$/)
})

test('a cursor made for another query is refused with its own message', () => {
  const cursor = encodeCursor(binding, print, { value: 'a', id: 'cnt_1' })
  const decoded = decodeCursor(binding, cursor, queryFingerprint('["blog"]'))
  assert.equal(decoded, { ok: false, message: 'cursor belongs to a query with other filters or sort' })
  assert.ok(decodeCursor(binding, cursor, null).ok)
})

test('a cursor made for one tenant is refused for every other, and under another secret', () => {
  const cursor = encodeCursor(binding, print, { value: 'a', id: 'cnt_1' })
  assert.equal(decodeCursor({ ...binding, tenantId: 'ten_b' }, cursor, print), { ok: false, message: 'is not a valid cursor' })
  assert.equal(decodeCursor({ ...binding, secret: 'another-installation' }, cursor, print), { ok: false, message: 'is not a valid cursor' })
})

test('a position forged without the secret is refused: a moved id, a re-signed payload, the old checksum', () => {
  const cursor = encodeCursor(binding, print, { value: 'a', id: 'cnt_1' })
  const [payload = '', tag = ''] = cursor.split('.')
  const moved = Buffer.from(JSON.stringify([2, print, 'a', 'cnt_999'])).toString('base64url')
  assert.is(decodeCursor(binding, `${moved}.${tag}`, print).ok, false, 'another position under the old tag')
  const guessed = createHmac('sha256', 'guess').update(`ten_a\n${moved}`).digest('base64url').slice(0, 22)
  assert.is(decodeCursor(binding, `${moved}.${guessed}`, print).ok, false, 'a tag made with a guessed secret')
  assert.is(decodeCursor(binding, payload, print).ok, false, 'no tag')
  // A cursor of version 1 (readable JSON with a plain SHA-256 checksum) is no longer accepted.
  const head = [1, print, 'a', 'cnt_1']
  const v1 = Buffer.from(JSON.stringify([...head, sha256Hex(JSON.stringify(head)).slice(0, 12)])).toString('base64url')
  assert.equal(decodeCursor(binding, v1, print), { ok: false, message: 'is not a valid cursor' })
})

test('any string either decodes or is refused, never throws', () => {
  fc.assert(
    fc.property(fc.oneof(fc.string(), fc.base64String(), fc.stringMatching(/^[A-Za-z0-9_.-]{0,80}$/)), (text) => {
      const decoded = decodeCursor(binding, text, print)
      return decoded.ok === false || typeof decoded.position.id === 'string'
    }),
    { numRuns: 500 },
  )
})

test('changing any one character of a valid cursor makes it invalid', () => {
  fc.assert(
    fc.property(sortValue, id, fc.nat(), fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.'), (value, itemId, at, char) => {
      const cursor = encodeCursor(binding, print, { value, id: itemId })
      const i = at % cursor.length
      fc.pre(cursor[i] !== char)
      const mutated = cursor.slice(0, i) + char + cursor.slice(i + 1)
      return decodeCursor(binding, mutated, print).ok === false
    }),
    { numRuns: 500 },
  )
})

test('truncated, extended and overlong cursors are invalid', () => {
  const cursor = encodeCursor(binding, print, { value: 'x', id: 'cnt_1' })
  for (const text of [cursor.slice(0, -1), cursor.slice(1), `${cursor}A`, `${cursor}=`, `.${cursor}`, '', '.', 'A'.repeat(MAX_CURSOR_LENGTH + 1)]) {
    assert.is(decodeCursor(binding, text, print).ok, false, text)
  }
})

test('a well-signed payload that is not a position (a bad id, another shape) is refused', () => {
  const forged = encodeCursor(binding, print, { value: 'x', id: 'not an id' })
  assert.is(decodeCursor(binding, forged, print).ok, false)
  const sign = (payload: string) => `${payload}.${createHmac('sha256', binding.secret).update(`ten_a\n${payload}`).digest('base64url').slice(0, 22)}`
  for (const json of ['[3,"p","x","cnt_1"]', '{"id":"cnt_1"}', '[2,"p",{},"cnt_1"]', '[2,"p","x","cnt_1",0]', 'not json']) {
    assert.is(decodeCursor(binding, sign(Buffer.from(json).toString('base64url')), null).ok, false, json)
  }
})

test.run()
