import * as fc from 'fast-check'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { FrontdeskError, ValidationError } from '@frontdesk/core'
import { assertJsonMediaType, parseJsonBody } from './json-body.ts'

function codeOf(work: () => unknown): string | null {
  try {
    work()
    return null
  } catch (error) {
    return error instanceof FrontdeskError ? error.code : 'OTHER'
  }
}

test('application/json is accepted, with a UTF-8 charset or none', () => {
  for (const type of ['application/json', 'Application/JSON', 'application/json; charset=utf-8', 'application/json;charset=UTF-8', 'application/json; charset="utf-8"']) {
    assert.is(codeOf(() => assertJsonMediaType(type)), null, type)
  }
})

test('other media types get 415', () => {
  for (const type of [undefined, '', 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/jsonp', 'application/merge-patch+json', 'application/json; charset=latin1', 'application/json; foo=bar']) {
    assert.is(codeOf(() => assertJsonMediaType(type)), 'UNSUPPORTED_MEDIA_TYPE', String(type))
  }
})

test('malformed JSON is a validation error on field body', () => {
  for (const text of ['', '{', '{"a":1,}', "{'a':1}", 'undefined']) {
    try {
      parseJsonBody(Buffer.from(text))
      assert.unreachable(text)
    } catch (error) {
      assert.instance(error, ValidationError)
      assert.equal((error as ValidationError).details, [{ field: 'body', message: 'must be valid JSON' }])
    }
  }
})

test('invalid UTF-8 is refused rather than silently replaced', () => {
  assert.is(codeOf(() => parseJsonBody(Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d]))), 'VALIDATION_ERROR')
})

test('a byte-order mark is ignored', () => {
  assert.equal(parseJsonBody(Buffer.from('\uFEFF{"query":"移転"}')), { query: '移転' })
})

test('a __proto__ key stays an own data property and pollutes nothing', () => {
  const parsed = parseJsonBody(Buffer.from('{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}')) as Record<string, unknown>
  assert.ok(Object.prototype.hasOwnProperty.call(parsed, '__proto__'))
  assert.is(({} as Record<string, unknown>).polluted, undefined)
  assert.is(Object.getPrototypeOf(parsed), Object.prototype)
})

test('any byte sequence either parses or is a validation error, never anything else', () => {
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => {
      const code = codeOf(() => parseJsonBody(Buffer.from(bytes)))
      return code === null || code === 'VALIDATION_ERROR'
    }),
  )
  fc.assert(fc.property(fc.jsonValue(), (value) => {
    assert.equal(parseJsonBody(Buffer.from(JSON.stringify(value))), JSON.parse(JSON.stringify(value)))
  }))
})

test('any Content-Type header either passes or is a 415', () => {
  fc.assert(
    fc.property(fc.string(), (type) => {
      const code = codeOf(() => assertJsonMediaType(type))
      return code === null || code === 'UNSUPPORTED_MEDIA_TYPE'
    }),
  )
})

test.run()
