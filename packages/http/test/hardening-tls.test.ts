// TLS as a scanner (sslscan, testssl.sh) sees it: which protocol versions and TLS 1.2 suites
// the server accepts, with an ECDSA and an RSA certificate; and certificates or keys that are
// not what they should be, named as such instead of OpenSSL's `ERR_OSSL_…`.
import { generateKeyPairSync } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import type { Server } from 'node:https'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import * as tls from 'node:tls'
import { generate } from 'selfsigned'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { openSqliteStore } from '@frontdesk/adapter-sqlite'
import { createFrontdesk } from '@frontdesk/core'
import { checkTlsMaterial, createDevCert, createServer } from '@frontdesk/http'
import { closeServer } from './util/test-server.ts'

interface Pems {
  cert: string
  key: string
  /** The certificate clients trust. */
  ca: string
}

async function rsaCert(): Promise<Pems> {
  const pems = await generate([{ name: 'commonName', value: 'localhost' }], {
    keyType: 'rsa',
    keySize: 2048,
    algorithm: 'sha256',
    extensions: [
      { name: 'basicConstraints', cA: true, critical: true },
      { name: 'subjectAltName', altNames: [{ type: 2, value: 'localhost' }] },
    ],
  })
  return { cert: pems.cert, key: pems.private, ca: pems.cert }
}

const dir = mkdtempSync(join(tmpdir(), 'frontdesk-tls-'))
const store = openSqliteStore({ path: join(dir, 'frontdesk.db') })
const frontdesk = createFrontdesk({ store })

async function listening(pems: Pems): Promise<{ server: Server; port: number }> {
  const server = createServer(frontdesk, { tls: pems }, { onError: () => {} }) as Server
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { server, port: (server.address() as AddressInfo).port }
}

/** The protocol and suite agreed for a handshake with these client options, or `null` when it fails. */
function handshake(port: number, ca: string, options: tls.ConnectionOptions): Promise<{ protocol: string | null; cipher: string } | null> {
  return new Promise((resolve) => {
    const socket = tls.connect({ host: '127.0.0.1', port, ca, servername: 'localhost', ...options })
    socket.once('secureConnect', () => {
      const result = { protocol: socket.getProtocol(), cipher: socket.getCipher().name }
      socket.destroy()
      resolve(result)
    })
    socket.on('error', () => resolve(null))
  })
}

const TLS12_SUITES = tls.getCiphers().filter((name) => !name.startsWith('tls_')).map((name) => name.toUpperCase())

const versions = suite('TLS versions and suites offered')

for (const [kind, make, expected] of [
  ['ECDSA', createDevCert, ['ECDHE-ECDSA-AES128-GCM-SHA256', 'ECDHE-ECDSA-AES256-GCM-SHA384', 'ECDHE-ECDSA-CHACHA20-POLY1305']],
  ['RSA', rsaCert, ['ECDHE-RSA-AES128-GCM-SHA256', 'ECDHE-RSA-AES256-GCM-SHA384', 'ECDHE-RSA-CHACHA20-POLY1305']],
] as const) {
  versions(`with an ${kind} certificate, TLS 1.2 offers exactly the ECDHE AEAD suites of the intermediate profile; TLS 1.3 is served; TLS 1.1 is not`, async () => {
    const pems = await make()
    const { server, port } = await listening(pems)
    try {
      const accepted: string[] = []
      for (const name of TLS12_SUITES) {
        const agreed = await handshake(port, pems.ca, { ciphers: name, maxVersion: 'TLSv1.2' })
        if (agreed !== null) accepted.push(agreed.cipher)
      }
      assert.equal(accepted.sort(), [...expected].sort(), `accepted: ${accepted.join(' ')}`)
      for (const weak of ['AES128-SHA', 'ECDHE-RSA-AES128-SHA', 'ECDHE-ECDSA-AES128-SHA256', 'AES128-GCM-SHA256', 'DHE-RSA-AES128-GCM-SHA256']) {
        assert.is(await handshake(port, pems.ca, { ciphers: weak, maxVersion: 'TLSv1.2' }), null, weak)
      }
      assert.equal((await handshake(port, pems.ca, {}))?.protocol, 'TLSv1.3')
      assert.is(await handshake(port, pems.ca, { minVersion: 'TLSv1', maxVersion: 'TLSv1.1', ciphers: 'DEFAULT@SECLEVEL=0' }), null)
    } finally {
      await closeServer(server)
    }
  })
}

versions.run()

const material = suite('certificates and keys that do not fit')

material('a certificate or key that is not PEM, swapped, encrypted or not a pair is named as such', async () => {
  const good = await createDevCert()
  const other = await createDevCert()
  const { privateKey: encrypted } = generateKeyPairSync('ec', {
    namedCurve: 'P-256',
    privateKeyEncoding: { type: 'pkcs8', format: 'pem', cipher: 'aes-256-cbc', passphrase: 'secret' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  })
  const cases: [string, string, string, { subject: string; message: RegExp }][] = [
    ['not PEM at all', 'hello', good.key, { subject: 'cert', message: /is not a PEM certificate/ }],
    ['a DER certificate', Buffer.from(good.cert.replace(/-----[^-]+-----|\s/g, ''), 'base64').toString('latin1'), good.key, { subject: 'cert', message: /is not a PEM certificate/ }],
    ['a damaged certificate', good.cert.slice(0, 200), good.key, { subject: 'cert', message: /cannot be read/ }],
    ['a key where the certificate belongs', good.key, good.key, { subject: 'cert', message: /holds a private key, not a certificate/ }],
    ['a certificate where the key belongs', good.cert, good.cert, { subject: 'key', message: /holds a certificate, not a private key/ }],
    ['swapped files', good.key, good.cert, { subject: 'pair', message: /swapped/ }],
    ['a key that is not PEM', good.cert, 'hello', { subject: 'key', message: /is not a PEM private key/ }],
    ['an encrypted key', good.cert, encrypted, { subject: 'key', message: /encrypted/ }],
    ['another certificate’s key', good.cert, other.key, { subject: 'pair', message: /does not belong to the certificate/ }],
  ]
  for (const [name, cert, key, expected] of cases) {
    const problem = checkTlsMaterial(cert, key)
    assert.is(problem?.subject, expected.subject, name)
    assert.match(problem?.message ?? '', expected.message, name)
    let thrown: unknown
    try {
      createServer(frontdesk, { tls: { cert, key } })
    } catch (error) {
      thrown = error
    }
    assert.instance(thrown, TypeError, name)
    assert.match((thrown as Error).message, /^Invalid TLS material: /, name)
    assert.not.match((thrown as Error).message, /ERR_OSSL|error:/, name)
  }
  assert.is(checkTlsMaterial(good.cert, good.key), null)
  const rsa = await rsaCert()
  assert.is(checkTlsMaterial(rsa.cert, rsa.key), null)
})

material.after(async () => {
  await store.close()
  rmSync(dir, { recursive: true, force: true })
})

material.run()
