import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { bodyBytes, ifNoneMatchMatches, serializeBody } from './serialized-body.ts'

test('a body object is serialised once and the same bytes come back', () => {
  const body = { items: [{ title: 'オフィス移転のお知らせ' }] }
  const first = serializeBody(body)
  const second = serializeBody(body)
  assert.is(first, second)
  assert.is(first.bytes.toString('utf8'), JSON.stringify(body))
})

test('the ETag is a strong hash of the bytes', () => {
  const a = serializeBody({ a: 1 })
  assert.match(a.etag, /^"[A-Za-z0-9_-]{43}"$/)
  assert.is(serializeBody({ a: 1 }).etag, a.etag)
  assert.is.not(serializeBody({ a: 2 }).etag, a.etag)
})

test('a no-store body is the same bytes, without an ETag or a remembered copy', () => {
  const body = { items: [{ id: 'cnt_1', title: '移転' }], pagination: { total: 1 } }
  assert.equal(bodyBytes(body), serializeBody(structuredClone(body)).bytes)
  assert.is(bodyBytes(undefined).toString(), 'null')
})

test('If-None-Match matches lists, weak tags and *', () => {
  const etag = '"abc"'
  assert.ok(ifNoneMatchMatches('"abc"', etag))
  assert.ok(ifNoneMatchMatches('"x", "abc"', etag))
  assert.ok(ifNoneMatchMatches('W/"abc"', etag))
  assert.ok(ifNoneMatchMatches('*', etag))
  assert.not.ok(ifNoneMatchMatches('"abcd"', etag))
  assert.not.ok(ifNoneMatchMatches('abc', etag))
  assert.not.ok(ifNoneMatchMatches(undefined, etag))
})

test.run()
