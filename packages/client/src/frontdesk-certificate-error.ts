/** The runtimes whose way of trusting a certificate the error explains. */
export type FetchRuntime = 'node' | 'bun' | 'deno' | 'workerd'

/**
 * The server's TLS certificate was not accepted (self-signed, issued by a CA this runtime does
 * not trust, expired, or for another host name). Instead of the runtime's bare `fetch failed`,
 * it says so and how this runtime trusts a private certificate. Never retried: a certificate
 * does not change between attempts. The runtime's own error is the `cause`.
 *
 * workerd tells its scripts only `internal error; reference = …` for a failed TLS handshake
 * (its log names the cause), as for a host name that does not resolve: on workerd such an
 * error of an `https://` request is reported as this error too, saying that the certificate
 * is the likely cause and giving the reference to look for in workerd's log.
 */
export class FrontdeskCertificateError extends Error {
  /** The code the TLS stack gave, e.g. `DEPTH_ZERO_SELF_SIGNED_CERT`, `CERT_HAS_EXPIRED`; `null` when it gave none (Deno, workerd). */
  readonly code: string | null
  /** The origin whose certificate was refused, e.g. `https://127.0.0.1:8443`. */
  readonly origin: string
  /** The runtime whose way of trusting a certificate the message explains. */
  readonly runtime: FetchRuntime

  constructor(init: { origin: string; code: string | null; reason: string; cause: unknown; runtime?: FetchRuntime; likely?: boolean }) {
    const runtime = init.runtime ?? 'node'
    const what = init.likely === true ? 'could not be opened, most likely because its TLS certificate was not accepted' : 'was not accepted'
    const subject = init.likely === true ? `The TLS connection to ${init.origin}` : `The TLS certificate of ${init.origin}`
    super(`${subject} ${what} (${init.code === null ? '' : `${init.code}: `}${init.reason}). ${TRUST_HINTS[runtime]}`, { cause: init.cause })
    this.name = 'FrontdeskCertificateError'
    this.code = init.code
    this.origin = init.origin
    this.runtime = runtime
  }
}

/** How each runtime trusts a self-signed or private-CA certificate. */
const TRUST_HINTS: Record<FetchRuntime, string> = {
  node:
    'If the server uses a self-signed or private-CA certificate, trust that certificate: in Node set ' +
    'NODE_EXTRA_CA_CERTS=/path/to/ca.pem before it starts, or pass a `fetch` that trusts it (the `fetch` option).',
  bun:
    'If the server uses a self-signed or private-CA certificate, trust that certificate: in Bun set ' +
    'NODE_EXTRA_CA_CERTS=/path/to/ca.pem before it starts, or pass a `fetch` that calls fetch(url, { ...init, tls: { ca } }).',
  deno:
    'If the server uses a self-signed or private-CA certificate, trust that certificate: in Deno run with ' +
    '--cert /path/to/ca.pem (or DENO_CERT=/path/to/ca.pem), or pass a `fetch` using Deno.createHttpClient({ caCerts: [pem] }). ' +
    'Deno also refuses a certificate that is itself a CA (CaUsedAsEndEntity), even when trusted: the server needs a certificate signed by a CA.',
  workerd:
    'workerd reports no more to the script; its log names the cause under this reference. If the server uses a self-signed or ' +
    'private-CA certificate, trust that certificate in workerd\'s config: tlsOptions = (trustedCertificates = [embed "ca.pem"]) on the ' +
    'network service that carries fetch (the worker\'s globalOutbound, "internet" by default); on Cloudflare, serve a publicly trusted certificate. ' +
    'workerd also refuses a certificate that is itself a CA (CaUsedAsEndEntity).',
}

/** The runtime this code runs on, told by the globals each one has. */
export function fetchRuntime(): FetchRuntime {
  const global = globalThis as { Deno?: unknown; Bun?: unknown; navigator?: { userAgent?: unknown } }
  if (global.Deno !== undefined) return 'deno'
  if (global.Bun !== undefined) return 'bun'
  if (global.navigator?.userAgent === 'Cloudflare-Workers') return 'workerd'
  return 'node'
}

// Hint: OpenSSL's verify codes (Node, Bun) all name a certificate, a signature, an issuer or
// the host name; Deno and others say "certificate" in the message.
const CERTIFICATE_CODE = /CERT|SIGNATURE|ISSUER|ALTNAME|HOSTNAME_MISMATCH/
const CERTIFICATE_MESSAGE = /certificate/i
/** What workerd's fetch throws for a failed TLS handshake, and for any other failure it does not name. */
const WORKERD_INTERNAL = /^internal error; reference = \w+/

/**
 * The `FrontdeskCertificateError` a failed fetch of `url` stands for, or `null` when the
 * failure (its error or one of its causes) is not about the server's certificate.
 */
export function certificateErrorOf(error: unknown, url: string, runtime: FetchRuntime = fetchRuntime()): FrontdeskCertificateError | null {
  let current: unknown = error
  for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth++) {
    const { code, message } = current as { code?: unknown; message?: unknown }
    const text = typeof message === 'string' ? message : ''
    if ((typeof code === 'string' && CERTIFICATE_CODE.test(code)) || CERTIFICATE_MESSAGE.test(text)) {
      return new FrontdeskCertificateError({ origin: new URL(url).origin, code: typeof code === 'string' ? code : null, reason: text || 'certificate refused', cause: error, runtime })
    }
    if (runtime === 'workerd' && depth === 0 && url.startsWith('https:') && WORKERD_INTERNAL.test(text)) {
      return new FrontdeskCertificateError({ origin: new URL(url).origin, code: null, reason: `workerd: ${text}`, cause: error, runtime, likely: true })
    }
    current = (current as { cause?: unknown }).cause
  }
  return null
}
