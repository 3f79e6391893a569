import type * as https from 'node:https'
import type { TlsMaterialProblem } from './tls-material.ts'
import { checkTlsMaterial } from './tls-material.ts'
import { TLS_SETTINGS } from './tls-settings.ts'

/**
 * Makes a server from `createServer` present a new certificate chain and key from its next TLS
 * handshake on, e.g. one an ACME client renewed. Connections already open keep theirs and are
 * not touched, so no connection or request is dropped. A certificate and key that do not fit
 * (see `checkTlsMaterial`) are refused, the server keeps presenting the current ones, and the
 * problem is returned; `null` once the new pair is in use.
 */
export function reloadTls(server: https.Server, material: { cert: string | Buffer; key: string | Buffer }): TlsMaterialProblem | null {
  const problem = checkTlsMaterial(material.cert, material.key)
  if (problem !== null) return problem
  try {
    server.setSecureContext({ cert: material.cert, key: material.key, ...TLS_SETTINGS })
  } catch (error) {
    // Hint: a pair that reads and fits can still be one OpenSSL will not serve (a key too weak for its security level).
    return { subject: 'pair', message: `cannot be served: ${error instanceof Error ? error.message : String(error)}` }
  }
  return null
}
