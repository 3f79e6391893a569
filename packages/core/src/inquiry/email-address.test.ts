import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { isEmailAddress } from './email-address.ts'

test('ordinary addresses are accepted', () => {
  for (const address of [
    'taro@example.com',
    'taro.yamada+inquiry@mail.example.co.jp',
    "o'brien@example.ie",
    'a_b-c@sub-domain.example.org',
    'x@例え.jp',
    'x@bücher.de',
    'x@example.xn--p1ai',
    'UPPER@EXAMPLE.COM',
  ]) {
    assert.ok(isEmailAddress(address), address)
  }
})

test('addresses no reply could reach, or with odd shapes, are refused', () => {
  for (const address of [
    '',
    'plain',
    '@example.com',
    'taro@',
    'taro@example',
    'taro@@example.com',
    'ta@ro@example.com',
    'taro @example.com',
    'taro@exa mple.com',
    '.taro@example.com',
    'taro.@example.com',
    'ta..ro@example.com',
    'taro@.example.com',
    'taro@example..com',
    'taro@example.com.',
    'taro@-example.com',
    'taro@example-.com',
    'taro@example.c',
    'taro@example.123',
    'taro@[10.0.0.1]',
    '"taro yamada"@example.com',
    'たろう@example.jp',
    'taro@exam_ple.com',
    'taro\n@example.com',
    `${'a'.repeat(65)}@example.com`,
    `a@${'b'.repeat(64)}.com`,
  ]) {
    assert.not.ok(isEmailAddress(address), JSON.stringify(address))
  }
})

test('the 254-character limit counts characters', () => {
  const exact = `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(58)}.jp`
  assert.is(exact.length, 254)
  assert.ok(isEmailAddress(exact))
  assert.not.ok(isEmailAddress(`a${exact}`))
})

test.run()
