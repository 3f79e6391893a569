import type { KeyObject } from 'node:crypto'
import { createPrivateKey, X509Certificate } from 'node:crypto'

/** What is wrong with a certificate and key given for TLS. */
export interface TlsMaterialProblem {
  /** Which input is wrong: the certificate, the private key, or the two together. */
  subject: 'cert' | 'key' | 'pair'
  /** What is wrong, as a sentence an operator can act on (without a file name). */
  message: string
}

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----/
const PEM_PRIVATE_KEY = /-----BEGIN (?:(?:RSA|EC|ENCRYPTED) )?PRIVATE KEY-----/

/**
 * Checks a PEM certificate (chain, leaf first) and private key before a TLS server is built
 * from them, so that a mistake is reported as what it is rather than as OpenSSL's
 * `ERR_OSSL_…`: not PEM, a certificate where the key belongs (or the reverse: swapped files),
 * an encrypted key, or a key that does not belong to the certificate. `null` when they fit.
 */
export function checkTlsMaterial(cert: string | Buffer, key: string | Buffer): TlsMaterialProblem | null {
  const certText = cert.toString()
  const keyText = key.toString()
  const swapped = PEM_PRIVATE_KEY.test(certText) && PEM_CERTIFICATE.test(keyText)
  if (swapped) return { subject: 'pair', message: 'the certificate and the private key are swapped' }
  let certificate: X509Certificate
  try {
    certificate = new X509Certificate(cert)
  } catch {
    const message = PEM_PRIVATE_KEY.test(certText)
      ? 'holds a private key, not a certificate'
      : PEM_CERTIFICATE.test(certText)
        ? 'holds a PEM certificate that cannot be read (damaged or cut short)'
        : 'is not a PEM certificate (expected -----BEGIN CERTIFICATE-----)'
    return { subject: 'cert', message }
  }
  let privateKey: KeyObject
  try {
    privateKey = createPrivateKey(key)
  } catch (error) {
    const code = (error as { code?: string }).code
    const message =
      code === 'ERR_MISSING_PASSPHRASE' || /ENCRYPTED/.test(keyText) ? 'is an encrypted private key; give the key without a passphrase'
      : PEM_CERTIFICATE.test(keyText) ? 'holds a certificate, not a private key'
      : PEM_PRIVATE_KEY.test(keyText) ? 'holds a PEM private key that cannot be read (damaged or cut short)'
      : 'is not a PEM private key (expected -----BEGIN PRIVATE KEY-----)'
    return { subject: 'key', message }
  }
  if (!certificate.checkPrivateKey(privateKey)) return { subject: 'pair', message: 'the private key does not belong to the certificate' }
  return null
}
