import { lookup } from 'node:dns/promises'
import { isIP } from 'node:net'
import { UsageError } from '@frontdesk/core'
import { refusedAddress } from './target-address.ts'

/**
 * Refuses, when an endpoint is added, a URL whose host is or resolves to an address a webhook
 * may not reach (see `target-address.ts`). Delivery checks again at every connection; this
 * early check only gives the operator a clear answer at once. A name that does not resolve
 * (yet) is accepted.
 */
export async function checkTargetResolves(url: string): Promise<void> {
  const host = new URL(url).hostname.replace(/^\[(.*)\]$/, '$1')
  const addresses = isIP(host) !== 0 ? [host] : await lookup(host, { all: true }).then((list) => list.map((a) => a.address), () => [])
  for (const address of addresses) {
    const why = refusedAddress(address)
    if (why !== null) throw new UsageError(`Refused webhook URL ${url}: ${host === address ? why : `${host} resolves to ${why}`} (pass --allow-private-webhook-targets to allow it)`)
  }
}
