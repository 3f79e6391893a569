import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { UsageError } from '@frontdesk/core'
import { createProxyMatcher } from './trusted-proxies.ts'

test('by default only loopback is trusted, IPv4-mapped included', () => {
  const trusted = createProxyMatcher()
  assert.ok(trusted('127.0.0.1'))
  assert.ok(trusted('::1'))
  assert.ok(trusted('::ffff:127.0.0.1'))
  assert.not.ok(trusted('127.0.0.2'))
  assert.not.ok(trusted('10.0.0.1'))
  assert.not.ok(trusted(undefined))
  assert.not.ok(trusted('not an address'))
})

test('CIDR ranges of both families are supported', () => {
  const trusted = createProxyMatcher(['10.0.0.0/8', 'fd00::/8', '192.168.1.7'])
  assert.ok(trusted('10.1.2.3'))
  assert.ok(trusted('::ffff:10.200.0.1'))
  assert.ok(trusted('fd12::1'))
  assert.ok(trusted('192.168.1.7'))
  assert.not.ok(trusted('192.168.1.8'))
  assert.not.ok(trusted('11.0.0.1'))
  assert.not.ok(trusted('127.0.0.1'))
})

test('an empty list trusts nobody', () => {
  assert.not.ok(createProxyMatcher([])('127.0.0.1'))
})

test('malformed entries are refused at start-up', () => {
  for (const entry of ['localhost', '10.0.0.0/33', '10.0.0.0/8/1', '10.0.0.0/', '::1/129', '1.2.3.4/ 8', '']) {
    assert.throws(() => createProxyMatcher([entry]), (error: unknown) => error instanceof UsageError, entry)
  }
})

test.run()
