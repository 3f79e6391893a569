// `serve --workers 2 --send-timeout 1` (issue 31): every worker closes the connections whose
// answers the client does not take, as a single server does. The supervisor hands each
// connection over unread, so each worker's own server watches it; this checks it from
// outside, with the bundled binary, counting each worker's sockets in /proc.
import { mkdtempSync, readdirSync, readlinkSync, rmSync } from 'node:fs'
import * as net from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import * as tls from 'node:tls'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { openSqliteStore } from '@frontdesk/adapter-sqlite'
import { createApiKey, createFrontdesk, createTenant } from '@frontdesk/core'
import type { ServeProcess } from './util/serve-process.ts'
import { buildCli, devCertFiles, send, sleep, startServe } from './util/serve-process.ts'

const test = suite('slow readers on every worker')

/** How many of `pid`'s file descriptors are sockets. */
function socketFds(pid: number): number {
  let sockets = 0
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      if (readlinkSync(`/proc/${pid}/fd/${fd}`).startsWith('socket:')) sockets++
    } catch {
      // Closed between the listing and the look.
    }
  }
  return sockets
}

test('serve --workers 2 closes, in each worker, the connections that never read their pipelined answers', async () => {
  buildCli()
  const dir = mkdtempSync(join(tmpdir(), 'frontdesk-slow-workers-'))
  const db = join(dir, 'frontdesk.db')
  const store = openSqliteStore({ path: db })
  const ctx = createFrontdesk({ store }).context
  await createTenant(ctx, { code: 'acme' })
  const key = (await createApiKey(ctx, { tenantCode: 'acme', name: 'reader', permissions: ['cms:read'], rateLimit: 0 })).key
  await store.close()
  const { ca, files } = await devCertFiles(dir)
  let cluster: ServeProcess | undefined
  const sockets: net.Socket[] = []
  try {
    cluster = await startServe(db, ['--workers', '2', '--send-timeout', '1', '--no-access-log'], files)
    const port = Number(new URL(cluster.url).port)
    const pids = [...cluster.workers().values()]
    assert.is(pids.length, 2)
    const base = pids.map(socketFds)
    // Four connections, handed to the workers in turn, each pipelining 1,000 requests for the
    // 45 KiB OpenAPI document (more than the kernel buffers) and reading nothing.
    for (let i = 0; i < 4; i++) {
      await new Promise<void>((resolve, reject) => {
        const tcp = net.connect({ host: '127.0.0.1', port })
        tcp.on('error', () => {})
        sockets.push(tcp)
        const socket = tls.connect({ socket: tcp, ca: ca, servername: 'localhost' })
        socket.on('error', () => {})
        socket.once('secureConnect', () => {
          socket.pause()
          socket.write('GET /v1/openapi.json HTTP/1.1\r\nHost: x\r\n\r\n'.repeat(1_000), () => resolve())
        })
        setTimeout(() => reject(new Error('no TLS connection within 10 s')), 10_000).unref()
      })
    }
    const started = performance.now()
    const peak = [...base]
    let closedMs: number | null = null
    while (performance.now() - started < 6_000) {
      const now = pids.map(socketFds)
      for (const [i, count] of now.entries()) peak[i] = Math.max(peak[i] ?? 0, count)
      if (now.every((count, i) => count <= (base[i] ?? 0))) {
        closedMs = performance.now() - started
        if (peak.every((count, i) => count >= (base[i] ?? 0) + 2)) break
      }
      await sleep(100)
    }
    const summary = `sockets per worker: before ${base.join('/')}, at most ${peak.join('/')}; back after ${closedMs === null ? 'never' : Math.round(closedMs)} ms`
    assert.ok(peak.every((count, i) => count >= (base[i] ?? 0) + 2), `each worker held two of the slow connections: ${summary}`)
    assert.ok(closedMs !== null && closedMs < 4_500, `each worker closed them after about the send timeout: ${summary}`)
    const fresh = await send(cluster.url, ca, 'GET', '/v1/cms/categories', { headers: { 'x-api-key': key } })
    assert.is(fresh.status, 200)
  } finally {
    for (const socket of sockets) socket.destroy()
    await cluster?.stop('SIGKILL')
    rmSync(dir, { recursive: true, force: true })
  }
})

test.run()
