import { X509Certificate } from 'node:crypto'
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { generate } from 'selfsigned'

/** A development certificate on disk. */
export interface DevCert {
  cert: string
  key: string
  /** PEM certificate; pass it to clients (`curl --cacert`, Node's `ca`) to trust the server. */
  certPath: string
  keyPath: string
  /** Whether it was made by this call (rather than reused). */
  created: boolean
}

const DAY_MS = 24 * 60 * 60 * 1000

/**
 * Returns the self-signed development certificate for `localhost`, `127.0.0.1` and `::1`
 * kept in `dir` (`dev-cert.pem`, `dev-key.pem`, mode 0600), creating it on first use and
 * again when it is unreadable or expires within a day. For local development only.
 */
export async function ensureDevCert(dir: string): Promise<DevCert> {
  const certPath = join(dir, 'dev-cert.pem')
  const keyPath = join(dir, 'dev-key.pem')
  const existing = readIfValid(certPath, keyPath)
  if (existing !== null) return { ...existing, certPath, keyPath, created: false }
  const pems = await createDevCert()
  mkdirSync(dir, { recursive: true, mode: 0o700 })
  writeFileSync(keyPath, pems.key, { mode: 0o600 })
  writeFileSync(certPath, pems.cert, { mode: 0o600 })
  // Hint: `mode` applies only to new files; an older file keeps its mode unless set again.
  chmodSync(keyPath, 0o600)
  chmodSync(certPath, 0o600)
  return { ...pems, certPath, keyPath, created: true }
}

/** A fresh self-signed certificate for the loopback names, valid for one year (ECDSA P-256). */
export async function createDevCert(): Promise<{ cert: string; key: string }> {
  const now = new Date()
  const pems = await generate([{ name: 'commonName', value: 'localhost' }, { name: 'organizationName', value: 'frontdesk development' }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    notBeforeDate: new Date(now.getTime() - DAY_MS),
    notAfterDate: new Date(now.getTime() + 365 * DAY_MS),
    extensions: [
      // Hint: a self-signed certificate given to clients as their CA must be allowed to sign certificates.
      { name: 'basicConstraints', cA: true, critical: true },
      { name: 'keyUsage', digitalSignature: true, keyCertSign: true, critical: true },
      { name: 'extKeyUsage', serverAuth: true },
      { name: 'subjectAltName', altNames: [{ type: 2, value: 'localhost' }, { type: 7, ip: '127.0.0.1' }, { type: 7, ip: '::1' }] },
    ],
  })
  return { cert: pems.cert, key: pems.private }
}

function readIfValid(certPath: string, keyPath: string): { cert: string; key: string } | null {
  if (!existsSync(certPath) || !existsSync(keyPath)) return null
  try {
    const cert = readFileSync(certPath, 'utf8')
    const key = readFileSync(keyPath, 'utf8')
    const validTo = Date.parse(new X509Certificate(cert).validTo)
    return validTo - Date.now() > DAY_MS ? { cert, key } : null
  } catch {
    return null
  }
}
