// Connections that never finish their TLS handshake, or never send a request, as an attacker
// (or a broken client) leaves them: each must be closed by the server within its timeout and
// leave no socket behind — no CLOSE_WAIT, no file descriptor — whether the client then closes,
// resets or stays. The server runs in its own process so that its descriptors can be counted.
import * as net from 'node:net'
import * as tls from 'node:tls'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { CLIENT_ERROR_LINGER_MS, HANDSHAKE_TIMEOUT_MS } from '@frontdesk/http'
import { clientHello } from './util/client-hello.ts'
import type { ServerProcess } from './util/server-process.ts'
import { startServerProcess } from './util/server-process.ts'

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** A client connection under test, and when (ms after it opened) the server closed it. */
interface Probe {
  socket: net.Socket
  /** Resolves with the time the server ended the connection, or `null` if it is still open at the deadline. */
  closed: Promise<number | null>
}

function closedWithin(socket: net.Socket, deadlineMs: number): Promise<number | null> {
  const started = Date.now()
  return new Promise<number | null>((resolve) => {
    const timer = setTimeout(() => resolve(null), deadlineMs)
    const done = () => {
      clearTimeout(timer)
      resolve(Date.now() - started)
    }
    socket.once('end', done)
    socket.once('close', done)
  })
}

function open(port: number, deadlineMs: number, first?: Buffer): Probe {
  const socket = net.connect(port, '127.0.0.1')
  socket.on('error', () => {})
  socket.on('data', () => {})
  if (first !== undefined) socket.once('connect', () => socket.write(first))
  return { socket, closed: closedWithin(socket, deadlineMs) }
}

/** A TLS client that never closes its side by itself (it allows half-open connections). */
function openTls(port: number, ca: string, deadlineMs: number, afterHandshake?: Buffer): Probe {
  const socket = tls.connect({ host: '127.0.0.1', port, ca, servername: 'localhost' })
  socket.allowHalfOpen = true
  socket.on('error', () => {})
  socket.on('data', () => {})
  if (afterHandshake !== undefined) socket.once('secureConnect', () => socket.write(afterHandshake))
  return { socket, closed: closedWithin(socket, deadlineMs) }
}

/** Waits until the server holds no socket but its listener and no connection on its port, or `ms` pass. */
async function released(server: ServerProcess, baseline: number, ms: number): Promise<{ fds: number; states: Record<string, number> }> {
  const until = Date.now() + ms
  for (;;) {
    const fds = server.socketFds()
    const states = server.tcpStates()
    const lingering = Object.entries(states).filter(([state]) => state !== 'TIME_WAIT' && state !== 'FIN_WAIT2')
    if ((fds <= baseline && lingering.length === 0) || Date.now() > until) return { fds, states }
    await sleep(100)
  }
}

const N = 5

const short = suite('connections that never finish a handshake (short timeouts)')

short('silent, half-handshake and requestless connections are closed in time and leave no socket, however the client goes', async () => {
  const handshakeTimeoutMs = 1_000
  const headersTimeoutMs = 1_500
  const server = await startServerProcess({ server: { handshakeTimeoutMs, headersTimeoutMs, requestTimeoutMs: 3_000 } })
  try {
    const baseline = server.socketFds()
    const hello = await clientHello()
    const deadline = 8_000
    const many = (make: () => Probe) => Array.from({ length: N }, make)
    // The client goes away after the handshake timeout: with a FIN, with a RST, or before it.
    const silentThenClose = many(() => open(server.port, deadline))
    const silentThenReset = many(() => open(server.port, deadline))
    const halfHelloThenClose = many(() => open(server.port, deadline, hello.subarray(0, 100)))
    const helloThenClose = many(() => open(server.port, deadline, hello))
    const silentClosedEarly = many(() => open(server.port, deadline))
    // The client stays: the server must close these itself.
    const silentStays = many(() => open(server.port, deadline))
    const helloStays = many(() => open(server.port, deadline, hello))
    const noRequest = many(() => openTls(server.port, server.ca, deadline))
    const halfHeaders = many(() => openTls(server.port, server.ca, deadline, Buffer.from('GET /v1/cms/categories HTTP/1.1\r\nHost: x\r\n')))
    const malformed = many(() => openTls(server.port, server.ca, deadline, Buffer.from('NOT HTTP AT ALL\r\n\r\n')))

    await sleep(200)
    for (const probe of silentClosedEarly) probe.socket.end()
    await sleep(handshakeTimeoutMs + 300)
    for (const probe of [...silentThenClose, ...halfHelloThenClose, ...helloThenClose]) probe.socket.end()
    for (const probe of silentThenReset) probe.socket.resetAndDestroy()

    const closedBy = async (probes: Probe[]) => Math.max(...(await Promise.all(probes.map((p) => p.closed))).map((t) => t ?? Infinity))
    // Each timeout fires on time: the header timeout is checked once a second, and an answered
    // client that keeps its side open is cut CLIENT_ERROR_LINGER_MS later.
    const answered = headersTimeoutMs + 1_000 + CLIENT_ERROR_LINGER_MS + 500
    assert.ok((await closedBy(silentStays)) < handshakeTimeoutMs + 1_000, 'silent connections were closed at the handshake timeout')
    assert.ok((await closedBy(helloStays)) < handshakeTimeoutMs + 1_000, 'a ClientHello without the rest was closed at the handshake timeout')
    assert.ok((await closedBy(noRequest)) < answered, `connections without a request were closed at the header timeout `)
    assert.ok((await closedBy(halfHeaders)) < answered, 'half a request head was cut off at the header timeout')
    assert.ok((await closedBy(malformed)) < CLIENT_ERROR_LINGER_MS + 1_000, 'a malformed request was answered and its connection closed')

    const after = await released(server, baseline, 3_000)
    assert.is(after.states.CLOSE_WAIT ?? 0, 0, `sockets left in CLOSE_WAIT: ${JSON.stringify(after.states)}`)
    assert.is(after.states.ESTABLISHED ?? 0, 0, `connections left open: ${JSON.stringify(after.states)}`)
    assert.ok(after.fds <= baseline, `the server holds ${after.fds - baseline} socket descriptors more than before`)
  } finally {
    await server.stop()
  }
})

short.run()

const defaults = suite('connections that never finish a handshake (default timeouts)')

defaults('with the default timeouts, silent and half-handshake connections are closed after 10 s, an answered client error at once, and all release their sockets', async () => {
  const server = await startServerProcess()
  try {
    const baseline = server.socketFds()
    const hello = await clientHello()
    const deadline = HANDSHAKE_TIMEOUT_MS + 2_500
    const probes = [open(server.port, deadline), open(server.port, deadline), open(server.port, deadline, hello.subarray(0, 100)), open(server.port, deadline, hello)]
    // A request served, then garbage on the same connection from a client that never closes
    // its side: answered 400 and cut CLIENT_ERROR_LINGER_MS later, long before the 10 s timeouts.
    const garbage = openTls(server.port, server.ca, deadline, Buffer.from('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n'))
    const answers: string[] = []
    garbage.socket.on('data', (chunk: Buffer) => {
      answers.push(chunk.toString('latin1'))
      if (answers.length === 1) garbage.socket.write('NOT HTTP AT ALL\r\n\r\n')
    })
    await sleep(CLIENT_ERROR_LINGER_MS + 1_500)
    assert.match(answers.join(''), /HTTP\/1\.1 400 /)
    assert.is(server.socketFds() - baseline, probes.length, 'only the silent connections are still open')
    const closedAt = await Promise.all(probes.map((p) => p.closed))
    for (const at of closedAt) {
      assert.ok(at !== null, 'the server never closed a silent connection')
      assert.ok(at >= HANDSHAKE_TIMEOUT_MS - 500, `closed after ${at} ms, before the timeout`)
    }
    const after = await released(server, baseline, 2_000)
    assert.is(after.states.CLOSE_WAIT ?? 0, 0, `sockets left in CLOSE_WAIT: ${JSON.stringify(after.states)}`)
    assert.ok(after.fds <= baseline, `the server holds ${after.fds - baseline} socket descriptors more than before`)
  } finally {
    await server.stop()
  }
})

defaults.run()
