/**
 * The server's TLS certificate was not accepted (self-signed, issued by a CA this runtime does
 * not trust, expired, or for another host name). Instead of the runtime's bare `fetch failed`,
 * it says so and how to trust a private certificate. Never retried: a certificate does not
 * change between attempts. The runtime's own error is the `cause`.
 */
export class FrontdeskCertificateError extends Error {
  /** The code the TLS stack gave, e.g. `DEPTH_ZERO_SELF_SIGNED_CERT`, `CERT_HAS_EXPIRED`; `null` when it gave none (Deno). */
  readonly code: string | null
  /** The origin whose certificate was refused, e.g. `https://127.0.0.1:8443`. */
  readonly origin: string

  constructor(init: { origin: string; code: string | null; reason: string; cause: unknown }) {
    super(
      `The TLS certificate of ${init.origin} was not accepted (${init.code === null ? '' : `${init.code}: `}${init.reason}). ` +
        'If the server uses a self-signed or private-CA certificate, trust that certificate: in Node set ' +
        'NODE_EXTRA_CA_CERTS=/path/to/ca.pem before it starts, or pass a `fetch` that trusts it (the `fetch` option).',
      { cause: init.cause },
    )
    this.name = 'FrontdeskCertificateError'
    this.code = init.code
    this.origin = init.origin
  }
}

// Hint: OpenSSL's verify codes (Node, Bun) all name a certificate, a signature, an issuer or
// the host name; Deno and others say "certificate" in the message.
const CERTIFICATE_CODE = /CERT|SIGNATURE|ISSUER|ALTNAME|HOSTNAME_MISMATCH/
const CERTIFICATE_MESSAGE = /certificate/i

/**
 * The `FrontdeskCertificateError` a failed fetch of `url` stands for, or `null` when the
 * failure (its error or one of its causes) is not about the server's certificate.
 */
export function certificateErrorOf(error: unknown, url: string): FrontdeskCertificateError | null {
  let current: unknown = error
  for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth++) {
    const { code, message } = current as { code?: unknown; message?: unknown }
    const text = typeof message === 'string' ? message : ''
    if ((typeof code === 'string' && CERTIFICATE_CODE.test(code)) || CERTIFICATE_MESSAGE.test(text)) {
      return new FrontdeskCertificateError({ origin: new URL(url).origin, code: typeof code === 'string' ? code : null, reason: text || 'certificate refused', cause: error })
    }
    current = (current as { cause?: unknown }).cause
  }
  return null
}
