// Slow readers (issue 31): connections that pipeline requests and never take their answers,
// take them through a closed receive window, or one byte a second. Each is closed once its
// answers have waited `sendTimeoutMs` without progress, holds little of the server's memory
// meanwhile, and a new client is served within a second throughout, whether the slow readers
// send a key or not. Before, such connections stayed open for ever with every answer queued
// (about 23 MB each with a key). A receive window of 1 byte cannot be asked of Linux (it keeps
// a socket's buffer at 2 KiB or more), so the reader that takes one byte a second stands for
// it: once its buffers are full, TCP's silly-window avoidance keeps the window it advertises
// shut while it reads a byte a second, and the server sees what a 1-byte window shows it, no
// progress. The server runs in its own process, whose memory and sockets are read from /proc;
// the slow readers come from 127.0.0.2, the new client from 127.0.0.3.
import * as https from 'node:https'
import * as net from 'node:net'
import { Duplex } from 'node:stream'
import * as tls from 'node:tls'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import type { ServerProcess } from './util/server-process.ts'
import { startServerProcess } from './util/server-process.ts'

const SEND_TIMEOUT_MS = 1_500
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** How a slow reader takes its answers. */
type Mode = 'never' | 'closed-window' | 'byte-a-second'

/** A slow reader: its TCP socket (to destroy at the end) and how many answer bytes reached it. */
interface SlowReader {
  tcp: net.Socket
  received: () => number
}

/**
 * Opens a TLS connection from 127.0.0.2 and pipelines `count` copies of `request` in one write;
 * then never reads an answer (`never`: a paused TLS socket), or stops reading the TCP socket
 * under TLS, so that its receive window closes (`closed-window`), or passes one byte a second of
 * it to TLS (`byte-a-second`).
 */
function slowReader(server: ServerProcess, mode: Mode, request: string, count: number): Promise<SlowReader> {
  return new Promise((resolve, reject) => {
    const tcp = net.connect({ host: '127.0.0.1', port: server.port, localAddress: '127.0.0.2' })
    tcp.on('error', () => {})
    setTimeout(() => reject(new Error(`${mode}: no TLS connection within 10 s`)), 10_000).unref()
    if (mode === 'never') {
      const socket = tls.connect({ socket: tcp, ca: server.ca, servername: 'localhost' })
      socket.on('error', () => {})
      socket.once('secureConnect', () => {
        socket.pause()
        socket.write(request.repeat(count), () => resolve({ tcp, received: () => 0 }))
      })
      return
    }
    let received = 0
    let trickle: NodeJS.Timeout | undefined
    tcp.once('close', () => clearInterval(trickle))
    // Hint: TLS over a stream of our own, so that what reaches TLS is decided here, byte by byte.
    const wire = new Duplex({
      read() {},
      write(chunk: Buffer, _encoding, done) {
        tcp.write(chunk, done)
      },
    })
    const fromTcp = (chunk: Buffer) => wire.push(chunk)
    tcp.on('data', fromTcp)
    const socket = tls.connect({ socket: wire, ca: server.ca, servername: 'localhost' })
    socket.on('error', () => {})
    socket.once('secureConnect', () => {
      socket.write(request.repeat(count), () => {
        tcp.off('data', fromTcp)
        tcp.pause()
        if (mode === 'byte-a-second') {
          trickle = setInterval(() => {
            const byte = tcp.read(1) as Buffer | null
            if (byte !== null) wire.push(byte)
          }, 1_000)
        }
        socket.on('data', (chunk: Buffer) => void (received += chunk.length))
        resolve({ tcp, received: () => received })
      })
    })
  })
}

/** One request on a new TLS connection from 127.0.0.3; resolves with its status and how long it took. */
function freshRequest(server: ServerProcess, key: string): Promise<{ status: number; ms: number }> {
  const started = performance.now()
  return new Promise((resolve) => {
    const request = https.get(
      { host: '127.0.0.1', port: server.port, path: '/v1/cms/categories', headers: { 'x-api-key': key }, ca: server.ca, servername: 'localhost', agent: false, localAddress: '127.0.0.3', timeout: 10_000 },
      (response) => {
        response.resume()
        response.on('end', () => resolve({ status: response.statusCode ?? 0, ms: performance.now() - started }))
      },
    )
    request.on('timeout', () => request.destroy())
    request.on('error', () => resolve({ status: 0, ms: performance.now() - started }))
  })
}

// Hint: answers must outgrow what the kernel buffers for a connection that does not read (up to
// tens of MB on loopback here): 1,000 answers of 100 KiB, or of the 45 KiB OpenAPI document.
const BODY = `<p>${'A paragraph of a long article, repeated until the item weighs a hundred kilobytes. '.repeat(1_200)}</p>`
const RECORDS = [
  { kind: 'category', code: 'news', name: 'News' },
  { kind: 'content', slug: 'long-read', title: 'A long read', body: BODY, category_code: 'news', status: 'published', published_at: '2025-01-01T00:00:00Z' },
]

const test = suite('slow readers')

test('connections that do not take their answers are closed after the send timeout, hold little memory meanwhile, and leave a new client’s p99 under 1 s', async () => {
  const server = await startServerProcess({ server: { sendTimeoutMs: SEND_TIMEOUT_MS }, records: RECORDS })
  const readers: SlowReader[] = []
  try {
    const keyed = `GET /v1/cms/contents/slug/long-read HTTP/1.1\r\nHost: x\r\nX-API-Key: ${server.unlimitedKey}\r\n\r\n`
    const keyless = 'GET /v1/openapi.json HTTP/1.1\r\nHost: x\r\n\r\n'
    // Warm up (the first answers build caches and code), then measure the memory from there.
    for (let i = 0; i < 5; i++) await freshRequest(server, server.unlimitedKey)
    const baseFds = server.socketFds()
    const baseRss = server.rss()
    const started = performance.now()
    // Each mode, with a key and without: 1,000 requests pipelined on each connection.
    for (const mode of ['never', 'closed-window', 'byte-a-second'] as const) {
      for (const request of [keyed, keyless]) readers.push(await slowReader(server, mode, request, 1_000))
    }
    const connectedMs = performance.now() - started
    const samples: { status: number; ms: number }[] = []
    let peakRss = 0
    let peakFds = 0
    let allClosedMs: number | null = null
    while (performance.now() - started < connectedMs + SEND_TIMEOUT_MS + 4_000) {
      samples.push(await freshRequest(server, server.limitedKey))
      peakRss = Math.max(peakRss, server.rss())
      const fds = server.socketFds()
      peakFds = Math.max(peakFds, fds)
      if (allClosedMs === null && fds <= baseFds) allClosedMs = performance.now() - started
      await sleep(50)
    }
    const times = samples.map((s) => s.ms).sort((a, b) => a - b)
    const p99 = times[Math.ceil(times.length * 0.99) - 1] ?? Infinity
    const grown = peakRss - baseRss
    const taken = readers.reduce((sum, reader) => sum + reader.received(), 0)
    const summary = `connected in ${Math.round(connectedMs)} ms; ${peakFds - baseFds} slow connections held at most; all closed after ${allClosedMs === null ? 'never' : Math.round(allClosedMs)} ms; RSS ${Math.round(baseRss / 2 ** 20)} MB + ${Math.round(grown / 2 ** 20)} MB at most; slow readers took ${taken} bytes; ${samples.length} fresh requests, p50 ${Math.round(times[Math.floor(times.length / 2)] ?? 0)} ms, p99 ${Math.round(p99)} ms`
    console.log(`    ${summary}`)
    assert.ok(peakFds - baseFds >= 6, `the slow connections were open: ${summary}`)
    assert.ok(allClosedMs !== null && allClosedMs <= connectedMs + SEND_TIMEOUT_MS + 3_000, `every slow connection is closed in time: ${summary}`)
    // Six connections asked for 6,000 answers (some 440 MB, of which the kernel buffers up to
    // some 30 MB a connection): each may hold a few, and the garbage of those the kernel took
    // is not all collected yet.
    assert.ok(grown < 48 * 2 ** 20, `the server's memory stayed bounded: ${summary}`)
    assert.ok(samples.every((s) => s.status === 200 || s.status === 429), `statuses ${samples.map((s) => s.status).join()}`)
    assert.ok(p99 < 1_000, summary)
  } finally {
    for (const reader of readers) reader.tcp.destroy()
    await server.stop()
  }
})

test.run()
