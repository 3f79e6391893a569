// `frontdesk serve` listens with an accept queue as long as the connections it holds
// (`LISTEN_BACKLOG`), not Node's 511: a client opening a thousand connections at once must not
// leave every other client's SYN dropped by the kernel (retried after 1, 3, 7 s). Checked with
// the server stopped (SIGSTOP), so that it accepts nothing: the kernel alone completes the
// handshake of every connection its queue has room for, and leaves the rest in SYN_SENT.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import * as net from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { openSqliteStore } from '@frontdesk/adapter-sqlite'
import { createFrontdesk, createTenant } from '@frontdesk/core'
import type { ServeProcess } from './util/serve-process.ts'
import { buildCli, devCertFiles, sleep, startServe } from './util/serve-process.ts'

const test = suite('the listen backlog')

/** The states (hex, as /proc/net/tcp writes them: 01 established, 02 SYN sent) of this machine's IPv4 sockets connecting to `port`, counted. */
function clientStates(port: number): Map<string, number> {
  const states = new Map<string, number>()
  const remote = `:${port.toString(16).toUpperCase().padStart(4, '0')}`
  for (const line of readFileSync('/proc/net/tcp', 'utf8').split('\n').slice(1)) {
    const fields = line.trim().split(/\s+/)
    if (fields[2]?.endsWith(remote) !== true) continue
    const state = fields[3] ?? ''
    states.set(state, (states.get(state) ?? 0) + 1)
  }
  return states
}

test('1,500 connections opened at once to a stopped server all complete their handshake', async () => {
  buildCli()
  const dir = mkdtempSync(join(tmpdir(), 'frontdesk-backlog-'))
  const db = join(dir, 'frontdesk.db')
  const store = openSqliteStore({ path: db })
  await createTenant(createFrontdesk({ store }).context, { code: 'acme' })
  await store.close()
  const { files } = await devCertFiles(dir)
  let server: ServeProcess | undefined
  const sockets: net.Socket[] = []
  let stopped = false
  try {
    server = await startServe(db, ['--no-access-log', '--max-connections-per-address', '0'], files)
    const port = Number(new URL(server.url).port)
    process.kill(server.pid, 'SIGSTOP')
    stopped = true
    for (let i = 0; i < 1_500; i++) {
      const socket = net.connect({ host: '127.0.0.1', port })
      socket.on('error', () => {})
      sockets.push(socket)
    }
    // Hint: a handshake the queue has room for completes within microseconds, in the kernel;
    // one it has no room for stays in SYN_SENT for at least the 1 s before its first retry.
    let states = clientStates(port)
    for (let waited = 0; waited < 3_000 && (states.get('01') ?? 0) < 1_500; waited += 50) {
      await sleep(50)
      states = clientStates(port)
    }
    assert.is(states.get('02') ?? 0, 0, `connections left in SYN_SENT: ${JSON.stringify([...states])}`)
    assert.is(states.get('01') ?? 0, 1_500, JSON.stringify([...states]))
  } finally {
    for (const socket of sockets) socket.destroy()
    if (server !== undefined) {
      if (stopped) process.kill(server.pid, 'SIGCONT')
      await server.stop()
    }
    rmSync(dir, { recursive: true, force: true })
  }
})

test.run()
