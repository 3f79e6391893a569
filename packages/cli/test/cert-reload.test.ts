// A certificate renewed in place while `frontdesk serve --workers 2` (the bundled binary, as an
// operator runs it) is under load: on SIGHUP and when the files change, every worker presents
// the new one to new connections, a broken pair is refused and the current one keeps serving,
// and not one request fails meanwhile. Bounded in time.
import { X509Certificate } from 'node:crypto'
import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import * as https from 'node:https'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { TLSSocket } from 'node:tls'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import type { DevCertPems } from '@frontdesk/http'
import { createDevCert } from '@frontdesk/http'
import type { ServeProcess } from './util/serve-process.ts'
import { buildCli, sleep, startServe } from './util/serve-process.ts'

interface World {
  dir: string
  files: { cwd: string; cert: string; key: string }
  pairs: DevCertPems[]
  server: ServeProcess | null
}

const test = suite<World>('certificate reload under load')

test.before(async (world) => {
  buildCli()
  world.dir = mkdtempSync(join(tmpdir(), 'frontdesk-reload-'))
  world.files = { cwd: world.dir, cert: join(world.dir, 'cert.pem'), key: join(world.dir, 'key.pem') }
  const first = await createDevCert()
  world.pairs = [first]
  for (let i = 0; i < 2; i++) world.pairs.push(await createDevCert({ cert: first.ca, key: first.caKey }))
  renew(world, first)
  world.server = null
})

test.after(async (world) => {
  // Hint: whatever `before` got to; a throw here would end the whole test run.
  await world.server?.stop('SIGKILL')
  if (world.dir !== undefined) rmSync(world.dir, { recursive: true, force: true })
})

/** Writes the files as an ACME client does: new files renamed over the old ones, the certificate first. */
function renew(world: World, pems: { cert: string; key: string }): void {
  for (const [path, text] of [[world.files.cert, pems.cert], [world.files.key, pems.key]] as const) {
    writeFileSync(`${path}.new`, text)
    renameSync(`${path}.new`, path)
  }
}

const fingerprintOf = (pem: string) => new X509Certificate(pem).fingerprint256

/** GET /healthz; resolves with the status (0 when the request failed) and the certificate its connection shows. */
function health(url: string, ca: string, agent: https.Agent | false): Promise<{ status: number; fingerprint: string }> {
  return new Promise((resolve) => {
    const request = https.get(`${url}/healthz`, { ca, agent, timeout: 10_000 }, (response) => {
      const fingerprint = (response.socket as TLSSocket).getPeerCertificate().fingerprint256
      response.resume()
      response.on('end', () => resolve({ status: response.statusCode ?? 0, fingerprint }))
      response.on('error', () => resolve({ status: 0, fingerprint }))
    })
    request.on('timeout', () => request.destroy(new Error('timed out')))
    request.on('error', () => resolve({ status: 0, fingerprint: '' }))
  })
}

test('serve --workers 2 takes a renewed certificate on SIGHUP and on a file change in every worker, refuses a broken one, and fails no request', async (world) => {
  const server = await startServe(join(world.dir, 'frontdesk.db'), ['--workers', '2', '--no-access-log'], world.files)
  world.server = server
  const ca = world.pairs[0]?.ca ?? ''
  const [first, second, third] = world.pairs.map((pems) => fingerprintOf(pems.cert)) as [string, string, string]
  /** Requests made under load: status and certificate; fresh connections and kept-alive ones alike. */
  const answers: { status: number; fingerprint: string }[] = []
  let loading = true
  const agents = Array.from({ length: 3 }, () => new https.Agent({ keepAlive: true, maxSockets: 2 }))
  const loops = Array.from({ length: 6 }, async (_, i) => {
    while (loading) answers.push(await health(server.url, ca, i % 2 === 0 ? false : (agents[i % 3] as https.Agent)))
  })
  /** Eight fresh handshakes: the supervisor hands connections to the workers in turn, so both answer. */
  const fresh = async () => new Set(await Promise.all(Array.from({ length: 8 }, () => health(server.url, ca, false).then((answer) => answer.fingerprint))))
  try {
    await sleep(500)
    assert.equal(await fresh(), new Set([first]))

    renew(world, world.pairs[1] as DevCertPems)
    server.child.kill('SIGHUP')
    await server.waitFor(/certificate reloaded from \S+ \(SIGHUP\)/, 10_000)
    // Hint: the workers apply it once the supervisor's message arrives, a moment after the line.
    for (let i = 0; i < 50 && (await fresh()).has(first); i++) await sleep(50)
    assert.equal(await fresh(), new Set([second]), 'both workers present the new certificate')

    renew(world, world.pairs[2] as DevCertPems)
    await server.waitFor(/certificate reloaded from \S+ \(files changed\)/, 10_000)
    for (let i = 0; i < 50 && (await fresh()).has(second); i++) await sleep(50)
    assert.equal(await fresh(), new Set([third]))

    renew(world, { cert: (world.pairs[1] as DevCertPems).cert, key: (world.pairs[2] as DevCertPems).key })
    await server.waitFor(/certificate not reloaded \(files changed\), the current one keeps serving: --key \S+ does not belong to the certificate in --cert/, 10_000)
    assert.equal(await fresh(), new Set([third]), 'the current certificate keeps serving')
    await sleep(300)
  } finally {
    loading = false
    await Promise.all(loops)
    for (const agent of agents) agent.destroy()
  }
  const failed = answers.filter((answer) => answer.status !== 200)
  assert.is(failed.length, 0, `${failed.length} of ${answers.length} requests failed`)
  assert.ok(answers.length > 100, `${answers.length} requests`)
  const seen = new Set(answers.map((answer) => answer.fingerprint))
  for (const fingerprint of [first, second, third]) assert.ok(seen.has(fingerprint), 'each certificate served under load')
  assert.is(server.stderr().match(/certificate reloaded/g)?.length, 2, 'one line per reload, said by the supervisor for all workers')
  assert.is(server.stderr().match(/certificate not reloaded/g)?.length, 1)
  assert.is(await server.stop(), 0)
})

test.run()
