import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { isPrivateAddress, publicAddressesOf } from './private-address.ts'

test('loopback, private and link-local addresses are private; wildcards and public ones are not', () => {
  for (const address of ['127.0.0.1', '127.8.9.10', '10.0.0.5', '172.16.0.1', '172.31.255.255', '192.168.1.1', '100.64.0.1', '169.254.1.1', '::1', 'fd12:3456::1', 'fe80::1', '::ffff:10.1.2.3']) {
    assert.ok(isPrivateAddress(address), address)
  }
  for (const address of ['0.0.0.0', '::', '8.8.8.8', '172.32.0.1', '192.169.0.1', '100.128.0.1', '2001:db8::1', '::ffff:8.8.8.8', 'localhost', 'not an address']) {
    assert.not.ok(isPrivateAddress(address), address)
  }
})

test('a host name counts by what it resolves to', async () => {
  assert.equal(await publicAddressesOf('localhost'), [])
  assert.equal(await publicAddressesOf('0.0.0.0'), ['0.0.0.0'])
  assert.equal(await publicAddressesOf('[::]'), ['::'])
  assert.equal(await publicAddressesOf('10.0.0.1'), [])
  assert.equal(await publicAddressesOf(''), ['::', '0.0.0.0'], 'an empty host listens on every interface')
  assert.equal(await publicAddressesOf(' '), ['::', '0.0.0.0'])
})

test.run()
