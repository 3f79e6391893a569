import { createPrivateKey, randomBytes, X509Certificate } from 'node:crypto'
import { hostname } from 'node:os'
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { generate } from 'selfsigned'

/** A development certificate on disk: a local CA and the server certificate it signed. */
export interface DevCert {
  /** The server's certificate (PEM), for `localhost`, `127.0.0.1` and `::1`. */
  cert: string
  key: string
  /** The local CA's certificate (PEM): what clients trust. */
  ca: string
  /** The server's certificate file (`dev-cert.pem`). */
  certPath: string
  keyPath: string
  /** The CA's certificate file (`dev-ca.pem`); pass it to clients (`curl --cacert`, `NODE_EXTRA_CA_CERTS`, `deno --cert`) to trust the server. */
  caPath: string
  /** Whether the server certificate was made by this call (rather than reused). */
  created: boolean
}

/** A development CA and a server certificate it signed, in PEM. */
export interface DevCertPems {
  /** The server's certificate: not a CA, for TLS servers only, for the loopback names. */
  cert: string
  key: string
  /** The CA's certificate, which clients trust. */
  ca: string
  caKey: string
}

const DAY_MS = 24 * 60 * 60 * 1000
/** As mkcert: the CA lasts ten years, so that a client told to trust it keeps trusting the renewed server certificates. */
const CA_DAYS = 10 * 365
const LEAF_DAYS = 365

/**
 * Returns the development certificate for `localhost`, `127.0.0.1` and `::1` kept in `dir`
 * (mode 0600), as mkcert makes one: a local CA (`dev-ca.pem`, `dev-ca-key.pem`) and a
 * separate server certificate it signed (`dev-cert.pem`, `dev-key.pem`). Clients trust the CA.
 * A certificate that serves as both CA and server is refused by rustls-based clients (Deno's
 * `CaUsedAsEndEntity`), which is why there are two. The CA is made once and kept while valid;
 * the server certificate is made again when unreadable, not signed by that CA, or expiring
 * within a day. For local development only.
 */
export async function ensureDevCert(dir: string): Promise<DevCert> {
  const paths = { caPath: join(dir, 'dev-ca.pem'), caKeyPath: join(dir, 'dev-ca-key.pem'), certPath: join(dir, 'dev-cert.pem'), keyPath: join(dir, 'dev-key.pem') }
  const ca = readPair(paths.caPath, paths.caKeyPath, (certificate) => certificate.ca)
  const leaf = ca === null ? null : readPair(paths.certPath, paths.keyPath, (certificate) => !certificate.ca && certificate.verify(new X509Certificate(ca.cert).publicKey))
  const { caPath, certPath, keyPath } = paths
  if (ca !== null && leaf !== null) return { cert: leaf.cert, key: leaf.key, ca: ca.cert, certPath, keyPath, caPath, created: false }
  const pems = await createDevCert(ca === null ? undefined : { cert: ca.cert, key: ca.key })
  mkdirSync(dir, { recursive: true, mode: 0o700 })
  if (ca === null) {
    writePrivate(paths.caKeyPath, pems.caKey)
    writePrivate(paths.caPath, pems.ca)
  }
  writePrivate(keyPath, pems.key)
  writePrivate(certPath, pems.cert)
  return { cert: pems.cert, key: pems.key, ca: pems.ca, certPath, keyPath, caPath, created: true }
}

/**
 * A fresh server certificate for the loopback names (one year, ECDSA P-256) signed by `ca`,
 * or by a fresh development CA (ten years) when none is given.
 */
export async function createDevCert(ca?: { cert: string; key: string }): Promise<DevCertPems> {
  const now = new Date()
  const authority = ca ?? (await createDevCa(now))
  const leaf = await generate([{ name: 'commonName', value: 'localhost' }, { name: 'organizationName', value: 'frontdesk development' }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    notBeforeDate: new Date(now.getTime() - DAY_MS),
    notAfterDate: new Date(now.getTime() + LEAF_DAYS * DAY_MS),
    ca: authority,
    extensions: [
      { name: 'basicConstraints', cA: false, critical: true },
      { name: 'keyUsage', digitalSignature: true, critical: true },
      { name: 'extKeyUsage', serverAuth: true },
      { name: 'subjectAltName', altNames: [{ type: 2, value: 'localhost' }, { type: 7, ip: '127.0.0.1' }, { type: 7, ip: '::1' }] },
    ],
  })
  return { cert: leaf.cert, key: leaf.private, ca: authority.cert, caKey: authority.key }
}

/** A development CA: signs certificates only (keyCertSign, cRLSign), and no certificate it signs may sign in turn (path length 0). */
async function createDevCa(now: Date): Promise<{ cert: string; key: string }> {
  // Hint: a name of its own (as mkcert's), so that CAs of several checkouts trusted at once never stand for each other.
  const name = `frontdesk development CA ${hostname().replace(/[^\w.-]/g, '')} ${randomBytes(4).toString('hex')}`
  const pems = await generate([{ name: 'commonName', value: name }, { name: 'organizationName', value: 'frontdesk development' }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    notBeforeDate: new Date(now.getTime() - DAY_MS),
    notAfterDate: new Date(now.getTime() + CA_DAYS * DAY_MS),
    extensions: [
      { name: 'basicConstraints', cA: true, pathLenConstraint: 0, critical: true },
      { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
    ],
  })
  return { cert: pems.cert, key: pems.private }
}

function writePrivate(path: string, text: string): void {
  writeFileSync(path, text, { mode: 0o600 })
  // Hint: `mode` applies only to new files; an older file keeps its mode unless set again.
  chmodSync(path, 0o600)
}

/** The certificate and key at these paths when readable, a pair, `fits`, and valid for more than a day; else `null`. */
function readPair(certPath: string, keyPath: string, fits: (certificate: X509Certificate) => boolean): { cert: string; key: string } | null {
  if (!existsSync(certPath) || !existsSync(keyPath)) return null
  try {
    const cert = readFileSync(certPath, 'utf8')
    const key = readFileSync(keyPath, 'utf8')
    const certificate = new X509Certificate(cert)
    if (!certificate.checkPrivateKey(createPrivateKey(key)) || !fits(certificate)) return null
    return Date.parse(certificate.validTo) - Date.now() > DAY_MS ? { cert, key } : null
  } catch {
    return null
  }
}
