import { BlockList, isIP } from 'node:net'
import { UsageError } from '@frontdesk/core'

/** The proxies trusted by default: loopback only. */
export const DEFAULT_TRUSTED_PROXIES: readonly string[] = ['127.0.0.1', '::1']

/**
 * A test of whether a socket peer is one of the trusted proxies. Entries are addresses or
 * CIDR ranges (`10.0.0.0/8`, `fd00::/8`); an IPv4-mapped IPv6 peer (`::ffff:127.0.0.1`) is
 * matched as its IPv4 address. Throws `UsageError` for an entry that is neither.
 */
export function createProxyMatcher(entries: readonly string[] = DEFAULT_TRUSTED_PROXIES): (address: string | undefined) => boolean {
  const list = new BlockList()
  for (const entry of entries) {
    const [address = '', prefix, extra] = entry.trim().split('/')
    const family = isIP(address)
    const bits = prefix === undefined ? null : Number(prefix)
    const maxBits = family === 4 ? 32 : 128
    if (family === 0 || extra !== undefined || (bits !== null && !(Number.isInteger(bits) && bits >= 0 && bits <= maxBits && prefix === String(bits)))) {
      throw new UsageError(`Invalid trusted proxy address: ${entry}`)
    }
    const type = family === 4 ? 'ipv4' : 'ipv6'
    if (bits === null) list.addAddress(address, type)
    else list.addSubnet(address, bits, type)
  }
  // Hint: serving TLS itself the list is empty; BlockList.check builds a SocketAddress per call.
  if (entries.length === 0) return () => false
  return (address) => {
    if (address === undefined) return false
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1]
    const plain = mapped ?? address
    const family = isIP(plain)
    return family !== 0 && list.check(plain, family === 4 ? 'ipv4' : 'ipv6')
  }
}
