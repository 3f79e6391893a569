import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import * as https from 'node:https'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import * as tls from 'node:tls'
import { X509Certificate } from 'node:crypto'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import type { DevCertPems } from '@frontdesk/http'
import { createDevCert, reloadTls, TLS_SETTINGS } from '@frontdesk/http'
import type { TlsWatch } from './tls-files.ts'
import { watchTlsFiles } from './tls-files.ts'

interface World {
  dir: string
  files: { certPath: string; keyPath: string }
  /** Signed by one CA, which `ca` is. */
  first: DevCertPems
  second: DevCertPems
  server: https.Server
  port: number
  lines: string[]
  watch: TlsWatch | null
}

const test = suite<World>('certificate files reloaded without a restart')

test.before(async (world) => {
  world.first = await createDevCert()
  world.second = await createDevCert({ cert: world.first.ca, key: world.first.caKey })
})

test.before.each(async (world) => {
  world.dir = mkdtempSync(join(tmpdir(), 'frontdesk-tls-files-'))
  world.files = { certPath: join(world.dir, 'cert.pem'), keyPath: join(world.dir, 'key.pem') }
  writeFileSync(world.files.certPath, world.first.cert)
  writeFileSync(world.files.keyPath, world.first.key)
  world.server = https.createServer({ cert: world.first.cert, key: world.first.key, ...TLS_SETTINGS }, (_request, response) => response.end('ok'))
  await new Promise<void>((resolve) => world.server.listen(0, '127.0.0.1', resolve))
  world.port = (world.server.address() as AddressInfo).port
  world.lines = []
  world.watch = null
})

test.after.each(async (world) => {
  world.watch?.close()
  world.server.closeAllConnections()
  await new Promise((resolve) => world.server.close(resolve))
  rmSync(world.dir, { recursive: true, force: true })
})

const fingerprintOf = (pem: string) => new X509Certificate(pem).fingerprint256

/** The SHA-256 fingerprint of the certificate a fresh TLS handshake shows (or the error code), trusting the test CA only. */
function handshake(world: World, options: tls.ConnectionOptions = {}): Promise<string> {
  return new Promise((resolve) => {
    const socket = tls.connect({ host: '127.0.0.1', port: world.port, servername: 'localhost', ca: world.first.ca, ...options }, () => {
      resolve(socket.getPeerCertificate().fingerprint256)
      socket.destroy()
    })
    socket.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message))
  })
}

function watch(world: World, intervalMs: number): TlsWatch {
  world.watch = watchTlsFiles(world.files, { apply: (pems) => reloadTls(world.server, pems), say: (line) => world.lines.push(line), intervalMs })
  return world.watch
}

async function until(condition: () => Promise<boolean> | boolean, ms = 5_000): Promise<void> {
  const deadline = Date.now() + ms
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('timed out')
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

/** Writes the files as an ACME client does: new files renamed over the old ones, the certificate first. */
function renew(world: World, pems: { cert: string; key: string }): void {
  writeFileSync(`${world.files.certPath}.new`, pems.cert)
  renameSync(`${world.files.certPath}.new`, world.files.certPath)
  writeFileSync(`${world.files.keyPath}.new`, pems.key)
  renameSync(`${world.files.keyPath}.new`, world.files.keyPath)
}

test('renewed files are picked up: new handshakes show the new certificate, a connection opened before keeps working', async (world) => {
  watch(world, 25)
  assert.is(await handshake(world), fingerprintOf(world.first.cert))
  const agent = new https.Agent({ keepAlive: true, ca: world.first.ca, maxSockets: 1 })
  const get = () =>
    new Promise<{ text: string; fingerprint: string }>((resolve, reject) => {
      https
        .get({ host: '127.0.0.1', port: world.port, servername: 'localhost', agent, path: '/' }, (response) => {
          const fingerprint = (response.socket as tls.TLSSocket).getPeerCertificate().fingerprint256
          let text = ''
          response.on('data', (chunk: Buffer) => (text += chunk.toString()))
          response.on('end', () => resolve({ text, fingerprint }))
        })
        .on('error', reject)
    })
  assert.equal(await get(), { text: 'ok', fingerprint: fingerprintOf(world.first.cert) })
  renew(world, world.second)
  await until(async () => (await handshake(world)) === fingerprintOf(world.second.cert))
  assert.equal(await get(), { text: 'ok', fingerprint: fingerprintOf(world.first.cert) }, 'the kept-alive connection goes on with its certificate')
  agent.destroy()
  assert.is(world.lines.length, 1, world.lines.join('\n'))
  assert.match(world.lines[0] ?? '', `certificate reloaded from ${world.files.certPath} (files changed): CN=localhost, O=frontdesk development, valid until `)
  assert.match(world.lines[0] ?? '', fingerprintOf(world.second.cert))
})

test('a broken pair is refused in one line and the current certificate keeps serving, until the files are fixed', async (world) => {
  watch(world, 25)
  const other = await createDevCert()
  const current = fingerprintOf(world.first.cert)
  for (const [broken, expected] of [
    [{ cert: world.second.cert, key: other.key }, `--key ${world.files.keyPath} does not belong to the certificate in --cert ${world.files.certPath}`],
    [{ cert: world.second.cert.slice(0, 300), key: world.second.key }, `--cert ${world.files.certPath} holds a PEM certificate that cannot be read`],
    [{ cert: world.second.key, key: world.second.cert }, 'they are swapped'],
  ] as const) {
    world.lines.length = 0
    renew(world, broken)
    await until(() => world.lines.length > 0)
    // Hint: several more looks at the same broken files say nothing more.
    await new Promise((resolve) => setTimeout(resolve, 150))
    assert.is(world.lines.length, 1, world.lines.join('\n'))
    assert.match(world.lines[0] ?? '', 'certificate not reloaded (files changed), the current one keeps serving: ')
    assert.match(world.lines[0] ?? '', expected)
    assert.is(await handshake(world), current)
  }
  world.lines.length = 0
  rmSync(world.files.keyPath)
  await until(() => world.lines.length > 0)
  assert.match(world.lines[0] ?? '', `--key ${world.files.keyPath} cannot be read (ENOENT)`)
  assert.is(await handshake(world), current)
  renew(world, world.second)
  await until(async () => (await handshake(world)) === fingerprintOf(world.second.cert))
})

test('SIGHUP reloads at once, and the reloaded server offers the same TLS versions and suites', async (world) => {
  // Hint: files are looked at once an hour here, so only the signal can explain the reload.
  watch(world, 3_600_000)
  renew(world, world.second)
  assert.is(await handshake(world), fingerprintOf(world.first.cert))
  process.kill(process.pid, 'SIGHUP')
  await until(() => world.lines.length > 0)
  assert.match(world.lines[0] ?? '', '(SIGHUP)')
  assert.is(await handshake(world), fingerprintOf(world.second.cert))
  assert.is(await handshake(world, { minVersion: 'TLSv1', maxVersion: 'TLSv1.1', ciphers: 'DEFAULT@SECLEVEL=0' }), 'ERR_SSL_TLSV1_ALERT_PROTOCOL_VERSION')
  assert.not.equal(await handshake(world, { maxVersion: 'TLSv1.2', ciphers: 'ECDHE-ECDSA-AES128-SHA' }), fingerprintOf(world.second.cert), 'a CBC suite stays refused')
  assert.is(await handshake(world, { maxVersion: 'TLSv1.2', ciphers: 'ECDHE-ECDSA-AES128-GCM-SHA256' }), fingerprintOf(world.second.cert))
})

test.run()
