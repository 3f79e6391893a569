import fc from 'fast-check'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { refusedAddress } from './target-address.ts'

const test = suite('webhook target addresses')

test('loopback, private, link-local, multicast, unspecified and reserved addresses are refused; public ones are not', () => {
  for (const address of [
    '127.0.0.1', '127.255.0.9', '10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.1.1', '100.64.0.1', '169.254.169.254', '0.0.0.0',
    '224.0.0.1', '239.255.255.250', '255.255.255.255', '::', '::1', 'fc00::1', 'fd12:3456::1', 'fe80::1', 'ff02::1', '::ffff:127.0.0.1',
    '::ffff:10.0.0.1', '::ffff:169.254.169.254', '64:ff9b::a00:1',
  ]) {
    assert.ok(refusedAddress(address) !== null, address)
  }
  for (const address of ['93.184.216.34', '8.8.8.8', '172.32.0.1', '192.169.0.1', '2606:4700::1111', '::ffff:8.8.8.8']) assert.is(refusedAddress(address), null, address)
  assert.match(refusedAddress('example.com') ?? '', /not an IP address/)
})

test('an IPv4 address is judged alike written plainly or mapped into IPv6', () => {
  fc.assert(fc.property(fc.ipV4(), (v4) => (refusedAddress(v4) === null) === (refusedAddress(`::ffff:${v4}`) === null)))
})

test.run()
