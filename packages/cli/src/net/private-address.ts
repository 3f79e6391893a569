import { lookup } from 'node:dns/promises'
import { BlockList, isIP } from 'node:net'

// Loopback, private (RFC 1918, RFC 6598 shared, IPv6 unique local) and link-local ranges:
// addresses the internet cannot reach directly.
const PRIVATE = new BlockList()
PRIVATE.addSubnet('127.0.0.0', 8, 'ipv4')
PRIVATE.addSubnet('10.0.0.0', 8, 'ipv4')
PRIVATE.addSubnet('172.16.0.0', 12, 'ipv4')
PRIVATE.addSubnet('192.168.0.0', 16, 'ipv4')
PRIVATE.addSubnet('100.64.0.0', 10, 'ipv4')
PRIVATE.addSubnet('169.254.0.0', 16, 'ipv4')
PRIVATE.addAddress('::1', 'ipv6')
PRIVATE.addSubnet('fc00::', 7, 'ipv6')
PRIVATE.addSubnet('fe80::', 10, 'ipv6')

/**
 * Whether an IP address is loopback, private or link-local. The unspecified addresses
 * (`0.0.0.0`, `::`: every interface, public ones included) are not; neither is anything that
 * is not an IP address. An IPv4-mapped IPv6 address counts as its IPv4 address.
 */
export function isPrivateAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1]
  if (mapped !== undefined) return isPrivateAddress(mapped)
  const family = isIP(address)
  if (family === 0) return false
  return PRIVATE.check(address, family === 4 ? 'ipv4' : 'ipv6')
}

/**
 * The addresses of `host` that are not private (see `isPrivateAddress`): the host itself when
 * it is an IP address, else what it resolves to. Empty when every one is private. An empty
 * host (what `--host "$HOST"` gives when the variable is unset) is every interface, as
 * `listen` takes it: `::` and `0.0.0.0`.
 */
export async function publicAddressesOf(host: string): Promise<string[]> {
  const bare = host.trim().replace(/^\[(.*)\]$/, '$1')
  if (bare === '') return ['::', '0.0.0.0']
  if (isIP(bare) !== 0) return isPrivateAddress(bare) ? [] : [bare]
  const resolved = await lookup(bare, { all: true }).catch(() => [])
  // Hint: a name that does not resolve cannot be listened on; `listen` reports that itself.
  return resolved.map((entry) => entry.address).filter((address) => !isPrivateAddress(address))
}
