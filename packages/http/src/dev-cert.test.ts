import { execFile } from 'node:child_process'
import { X509Certificate } from 'node:crypto'
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { delimiter, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import * as tls from 'node:tls'
import { BasicConstraintsExtension, ExtendedKeyUsage, ExtendedKeyUsageExtension, KeyUsageFlags, KeyUsagesExtension, X509Certificate as ParsedCertificate } from '@peculiar/x509'
import { generate } from 'selfsigned'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { createDevCert, ensureDevCert } from './dev-cert.ts'

const test = suite('development certificate')

/** A TLS server presenting `cert`/`key` on 127.0.0.1 (and ::1 when the machine has it); answers "ok" and closes. */
async function tlsServer(cert: string, key: string, host = '127.0.0.1'): Promise<{ port: number; close: () => Promise<void> }> {
  const server = tls.createServer({ cert, key }, (socket) => socket.end('ok'))
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, host, resolve)
  })
  return { port: (server.address() as AddressInfo).port, close: () => new Promise((resolve) => server.close(() => resolve())) }
}

/** Connects trusting only `ca`; resolves with what the server said, or the verification error's code. */
function connect(port: number, ca: string, host: string, servername?: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = tls.connect({ host, port, ca, ...(servername === undefined ? {} : { servername }) }, () => {
      let text = ''
      socket.on('data', (chunk: Buffer) => (text += chunk.toString()))
      socket.on('end', () => resolve(text))
    })
    socket.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message))
  })
}

test('the CA signs certificates only, and the server certificate it signed is no CA, serves TLS, and names the loopback names', async () => {
  const pems = await createDevCert()
  const ca = new X509Certificate(pems.ca)
  const leaf = new X509Certificate(pems.cert)
  assert.ok(ca.ca, 'the CA is a CA')
  assert.ok(ca.verify(ca.publicKey), 'the CA signed itself')
  assert.not.ok(leaf.ca, 'the server certificate is not a CA (rustls refuses a CA used as end entity)')
  assert.ok(leaf.verify(ca.publicKey), 'the CA signed the server certificate')
  assert.ok(leaf.checkIssued(ca))
  assert.is(leaf.subjectAltName, 'DNS:localhost, IP Address:127.0.0.1, IP Address:0:0:0:0:0:0:0:1')
  assert.equal(leaf.keyUsage, ['1.3.6.1.5.5.7.3.1'], 'Node names the extended key usage keyUsage: serverAuth only')
  assert.not.equal(leaf.fingerprint256, ca.fingerprint256)

  // Hint: Node's X509Certificate shows neither key usage bits nor criticality; @peculiar/x509 reads them.
  const parsedCa = new ParsedCertificate(pems.ca)
  const caConstraints = parsedCa.getExtension(BasicConstraintsExtension)
  assert.ok(caConstraints?.ca && caConstraints.critical)
  assert.is(caConstraints?.pathLength, 0)
  assert.is(parsedCa.getExtension(KeyUsagesExtension)?.usages, KeyUsageFlags.keyCertSign | KeyUsageFlags.cRLSign)
  const parsedLeaf = new ParsedCertificate(pems.cert)
  const leafConstraints = parsedLeaf.getExtension(BasicConstraintsExtension)
  assert.ok(leafConstraints !== null && !leafConstraints.ca && leafConstraints.critical)
  assert.is(parsedLeaf.getExtension(KeyUsagesExtension)?.usages, KeyUsageFlags.digitalSignature)
  assert.equal([...(parsedLeaf.getExtension(ExtendedKeyUsageExtension)?.usages ?? [])].map(String), [ExtendedKeyUsage.serverAuth])
  assert.ok(Date.parse(leaf.validTo) < Date.parse(ca.validTo), 'the CA outlives the certificates it signs')
})

test('a Node client trusting only the CA connects to localhost, 127.0.0.1 and ::1; one trusting nothing does not', async () => {
  const pems = await createDevCert()
  const server = await tlsServer(pems.cert, pems.key)
  try {
    assert.is(await connect(server.port, pems.ca, '127.0.0.1'), 'ok')
    assert.is(await connect(server.port, pems.ca, '127.0.0.1', 'localhost'), 'ok')
    assert.is(await connect(server.port, (await createDevCert()).ca, '127.0.0.1', 'localhost'), 'UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'another CA is not trusted')
  } finally {
    await server.close()
  }
  const six = await tlsServer(pems.cert, pems.key, '::1').catch(() => null)
  if (six === null) return console.log('  (no IPv6 loopback on this machine: ::1 not tried)')
  try {
    assert.is(await connect(six.port, pems.ca, '::1'), 'ok')
  } finally {
    await six.close()
  }
})

test('ensureDevCert keeps the CA and the certificate, renews only the certificate, and replaces a certificate that is its own CA', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'frontdesk-devcert-'))
  try {
    const first = await ensureDevCert(dir)
    assert.ok(first.created)
    for (const path of [first.caPath, first.certPath, first.keyPath, join(dir, 'dev-ca-key.pem')]) assert.is(statSync(path).mode & 0o777, 0o600, path)
    const again = await ensureDevCert(dir)
    assert.not.ok(again.created)
    assert.is(again.cert, first.cert)
    assert.is(again.ca, first.ca)

    // A server certificate that no longer reads is made again, by the same CA: clients trusting it keep working.
    writeFileSync(first.certPath, 'damaged')
    const renewed = await ensureDevCert(dir)
    assert.ok(renewed.created)
    assert.is(renewed.ca, first.ca)
    assert.ok(new X509Certificate(renewed.cert).verify(new X509Certificate(first.ca).publicKey))

    // What earlier versions made: one self-signed certificate, both CA and server. It goes, CA and all.
    rmSync(first.caPath)
    const old = await generate([{ name: 'commonName', value: 'localhost' }], {
      keyType: 'ec',
      algorithm: 'sha256',
      extensions: [{ name: 'basicConstraints', cA: true, critical: true }, { name: 'subjectAltName', altNames: [{ type: 2, value: 'localhost' }] }],
    })
    writeFileSync(first.certPath, old.cert)
    writeFileSync(first.keyPath, old.private)
    const replaced = await ensureDevCert(dir)
    assert.ok(replaced.created)
    assert.not.ok(new X509Certificate(replaced.cert).ca)
    assert.not.equal(replaced.ca, first.ca)
    assert.is(readFileSync(replaced.caPath, 'utf8'), replaced.ca)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

/**
 * The Deno binary: `$FRONTDESK_DENO`, else the one test/runtimes installs (as `.ci/run` does for the
 * client's runtime test), `deno` in node_modules/.bin or on the PATH; `null` when there is none.
 */
function denoBinary(): string | null {
  const given = process.env['FRONTDESK_DENO']
  if (given !== undefined && given !== '') return existsSync(given) ? given : null
  const runtimes = fileURLToPath(new URL('../../../test/runtimes/node_modules/@deno/linux-x64-glibc', import.meta.url))
  const dirs = [runtimes, join(process.cwd(), 'node_modules', '.bin'), ...(process.env['PATH'] ?? '').split(delimiter)]
  for (const dir of dirs) if (dir !== '' && existsSync(join(dir, 'deno'))) return join(dir, 'deno')
  return null
}

test('Deno (rustls) trusting only the CA connects; the old self-signed CA-and-server certificate it refuses', async () => {
  const deno = denoBinary()
  if (deno === null) return console.log('  skipped: no deno binary (FRONTDESK_DENO, node_modules/.bin or PATH; `npm install deno` brings one)')
  const dir = mkdtempSync(join(tmpdir(), 'frontdesk-deno-'))
  const pems = await createDevCert()
  const server = await tlsServer(pems.cert, pems.key)
  const old = await generate([{ name: 'commonName', value: 'localhost' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    extensions: [
      { name: 'basicConstraints', cA: true, critical: true },
      { name: 'keyUsage', digitalSignature: true, keyCertSign: true, critical: true },
      { name: 'extKeyUsage', serverAuth: true },
      { name: 'subjectAltName', altNames: [{ type: 2, value: 'localhost' }, { type: 7, ip: '127.0.0.1' }] },
    ],
  })
  const oldServer = await tlsServer(old.cert, old.private)
  try {
    writeFileSync(join(dir, 'ca.pem'), pems.ca)
    writeFileSync(join(dir, 'old.pem'), old.cert)
    // Hint: Deno.connectTls verifies with rustls (webpki) against exactly the CA given, as `deno --cert` does for fetch.
    const script = (port: number, ca: string) =>
      `const conn = await Deno.connectTls({ hostname: 'localhost', port: ${port}, caCerts: [Deno.readTextFileSync(${JSON.stringify(ca)})] });` +
      `const buf = new Uint8Array(2); await conn.handshake(); const n = await conn.read(buf); console.log(new TextDecoder().decode(buf.subarray(0, n ?? 0)));`
    // Hint: asynchronously, so that this process's servers can answer while Deno runs.
    const run = (port: number, ca: string) =>
      new Promise<{ failed: boolean; out: string }>((resolve) => {
        const env = { ...process.env, NO_COLOR: '1', DENO_NO_UPDATE_CHECK: '1', DENO_DIR: join(dir, 'deno-dir') }
        execFile(deno, ['eval', '--no-config', script(port, ca)], { encoding: 'utf8', timeout: 30_000, env }, (error, stdout, stderr) => resolve({ failed: error !== null, out: stdout + stderr }))
      })
    const good = await run(server.port, join(dir, 'ca.pem'))
    assert.is(good.out.trim(), 'ok', good.out)
    const refused = await run(oldServer.port, join(dir, 'old.pem'))
    assert.ok(refused.failed)
    assert.match(refused.out, /CaUsedAsEndEntity/)
  } finally {
    await server.close()
    await oldServer.close()
    rmSync(dir, { recursive: true, force: true })
  }
})

test.run()
