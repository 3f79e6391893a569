import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { generateApiKey, parseApiKey } from './api-key.ts'
import { hasPermission } from './permissions.ts'

test('a generated tenant key has the fdk_ shape, 32 random characters and a checksum', () => {
  const { key, hash, prefix } = generateApiKey('tenant')
  assert.match(key, /^fdk_[0-9A-Za-z]{38}$/)
  assert.is(prefix, key.slice(0, 8))
  assert.is(parseApiKey(key)?.hash, hash)
  assert.is(parseApiKey(key)?.kind, 'tenant')
})

test('a personal key parses as personal', () => {
  assert.is(parseApiKey(generateApiKey('personal').key)?.kind, 'personal')
})

test('a key with one character changed fails its checksum', () => {
  const { key } = generateApiKey('tenant')
  const i = 10
  const changed = key.slice(0, i) + (key[i] === 'a' ? 'b' : 'a') + key.slice(i + 1)
  assert.is(parseApiKey(changed), null)
})

test('keys of the wrong length, prefix or alphabet are refused', () => {
  const { key } = generateApiKey('tenant')
  assert.is(parseApiKey(key + 'x'), null)
  assert.is(parseApiKey('fdx_' + key.slice(4)), null)
  assert.is(parseApiKey(key.slice(0, 20) + '-' + key.slice(21)), null)
  assert.is(parseApiKey(''), null)
})

test('cms:* grants every content permission and no inquiry permission', () => {
  assert.ok(hasPermission(['cms:*'], 'cms:read'))
  assert.ok(hasPermission(['cms:*'], 'cms:search'))
  assert.not.ok(hasPermission(['cms:*'], 'inquiry:create'))
  assert.not.ok(hasPermission(['cms:read'], 'cms:search'))
  assert.ok(hasPermission(['inquiry:create'], 'inquiry:create'))
})

test.run()
