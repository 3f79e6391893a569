import { BlockList, isIP } from 'node:net'
import { isPrivateAddress } from '../net/private-address.ts'

/*
 * Which addresses a webhook may connect to. Loopback, private (RFC 1918, unique local, carrier
 * NAT), link-local (cloud metadata services at 169.254.169.254), multicast, unspecified and
 * reserved addresses are refused unless the operator allows private targets: a tenant's
 * endpoint URL must not reach the machine's or the network's own services. The check is made
 * on the address the connection is made to (see `send-webhook.ts`), not on the name, so that a
 * name that resolves elsewhere later (DNS rebinding) is caught too.
 */

// Hint: besides `isPrivateAddress`'s loopback, private and link-local ranges.
const refused = new BlockList()
for (const [network, prefix] of [['0.0.0.0', 8], ['192.0.0.0', 24], ['198.18.0.0', 15], ['224.0.0.0', 4], ['240.0.0.0', 4]] as const) refused.addSubnet(network, prefix, 'ipv4')
for (const [network, prefix] of [['::', 128], ['ff00::', 8], ['64:ff9b::', 96], ['100::', 64], ['2001:db8::', 32]] as const) refused.addSubnet(network, prefix, 'ipv6')

/** Why `address` (an IP address) may not be a webhook target, or `null` when it may. */
export function refusedAddress(address: string): string | null {
  const family = isIP(address)
  if (family === 0) return `${address} is not an IP address`
  // An IPv4 address written as IPv6 (::ffff:10.0.0.1) is judged as the IPv4 one.
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1]
  if (mapped !== undefined) return refusedAddress(mapped)
  return isPrivateAddress(address) || refused.check(address, family === 4 ? 'ipv4' : 'ipv6') ? `${address} is a private, loopback, link-local, multicast or reserved address` : null
}
