import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { codePointLength, hasControlCharacter, hasLoneSurrogate } from './inquiry-text.ts'

test('length counts code points: surrogate pairs once, lone surrogates once each', () => {
  assert.is(codePointLength(''), 0)
  assert.is(codePointLength('abc'), 3)
  assert.is(codePointLength('日本語'), 3)
  assert.is(codePointLength('𠮷野家'), 3)
  assert.is(codePointLength('👨‍👩‍👧'), 5)
  assert.is(codePointLength('\ud800'), 1)
  assert.is(codePointLength('\ud800\ud800\udc00'), 2)
  assert.is(codePointLength('\udc00x'), 2)
  assert.is(codePointLength('a\ud800'), 2)
})

test('single-line text refuses every C0, DEL and C1 control, line breaks and tabs included', () => {
  for (let code = 0; code <= 0x9f; code++) {
    const isControl = code < 0x20 || code >= 0x7f
    assert.is(hasControlCharacter(`a${String.fromCharCode(code)}b`), isControl, code.toString(16))
  }
})

test('multi-line text allows only \\n, \\r and \\t among the controls', () => {
  for (let code = 0; code <= 0x9f; code++) {
    const allowed = code === 0x0a || code === 0x0d || code === 0x09
    const isControl = code < 0x20 || code >= 0x7f
    assert.is(hasControlCharacter(String.fromCharCode(code), true), isControl && !allowed, code.toString(16))
  }
})

test('lone surrogates are found, pairs are not', () => {
  assert.ok(hasLoneSurrogate('a\ud800'))
  assert.ok(hasLoneSurrogate('\udc00a'))
  assert.not.ok(hasLoneSurrogate('𠮷'))
  assert.not.ok(hasLoneSurrogate('plain'))
})

test.run()
