// Transport limits as an attacker tests them: a client dribbling its headers is cut off by the
// header timeout while others are served; a 10 MiB body is refused without being read.
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import * as tls from 'node:tls'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { createServer } from '@frontdesk/http'
import type { TestServer } from './util/test-server.ts'
import { closeServer, startTestServer, testRequest } from './util/test-server.ts'
import { createDevCert } from '@frontdesk/http'

interface World {
  server: TestServer
  key: string
}

const test = suite<World>('transport limits')

test.before(async (world) => {
  world.server = await startTestServer({ failedAuthRate: 0 })
  await world.server.tenant('acme')
  world.key = await world.server.key('acme', ['cms:read', 'inquiry:create'], { rateLimit: 0 })
})

test.after(async (world) => {
  // Hint: whatever `before` got to; a throw here would end the whole test run.
  await world.server?.close()
})

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

test('a client sending its headers at 1 byte/s is cut off by the header timeout while others keep being served', async (world) => {
  const { cert, key, ca } = await createDevCert()
  const server = createServer(world.server.frontdesk, { tls: { cert, key } }, { headersTimeoutMs: 1_000, requestTimeoutMs: 2_000, onError: () => {} }) as Server
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  const url = `https://127.0.0.1:${port}`
  try {
    const started = Date.now()
    const slow = tls.connect({ host: '127.0.0.1', port, ca, servername: 'localhost' })
    const received: Buffer[] = []
    slow.on('data', (chunk: Buffer) => received.push(chunk))
    slow.on('error', () => {})
    const closed = new Promise<number>((resolve) => slow.once('close', () => resolve(Date.now() - started)))
    await new Promise<void>((resolve) => slow.once('secureConnect', () => resolve()))
    const head = Buffer.from(`GET /v1/cms/categories HTTP/1.1\r\nHost: 127.0.0.1\r\nX-API-Key: ${world.key}\r\nX-Padding: ${'x'.repeat(30)}\r\n\r\n`)
    let sent = 0
    let open = true
    void closed.then(() => void (open = false))
    const dribble = (async () => {
      while (open && sent < head.length && Date.now() - started < 8_000) {
        slow.write(head.subarray(sent, sent + 1))
        sent++
        await sleep(1_000)
      }
    })()
    // Meanwhile another client is served, again and again, without waiting on the slow one.
    const served: number[] = []
    while (open && Date.now() - started < 8_000) {
      const t0 = Date.now()
      const response = await testRequest(url, ca, 'GET', '/v1/cms/categories', { headers: { 'x-api-key': world.key } })
      assert.is(response.status, 200)
      served.push(Date.now() - t0)
      await sleep(150)
    }
    const closedAfter = await closed
    await dribble
    assert.ok(closedAfter < 4_000, `the slow client was cut off only after ${closedAfter} ms`)
    assert.ok(sent < head.length, 'the slow client was never cut off')
    const reply = Buffer.concat(received).toString('utf8')
    assert.match(reply, /^HTTP\/1\.1 408 /)
    assert.match(reply, /"code":"REQUEST_TIMEOUT"/)
    assert.ok(served.length >= 3, `only ${served.length} requests were served meanwhile`)
    assert.ok(Math.max(...served) < 1_000, `a request took ${Math.max(...served)} ms while the slow client dribbled`)
  } finally {
    await closeServer(server)
  }
})

test('a 10 MiB POST gets 413 and the connection is closed long before the body is sent; memory stays flat', async (world) => {
  const total = 10 * 1024 * 1024
  const chunk = Buffer.alloc(64 * 1024, 0x20)
  const rssBefore = process.memoryUsage().rss
  const result = await new Promise<{ reply: string; written: number }>((resolve, reject) => {
    const socket = tls.connect({ host: '127.0.0.1', port: world.server.port, ca: world.server.cert, servername: 'localhost' })
    const received: Buffer[] = []
    let written = 0
    let done = false
    const finish = () => {
      if (done) return
      done = true
      clearTimeout(timer)
      socket.destroy()
      resolve({ reply: Buffer.concat(received).toString('utf8'), written })
    }
    const timer = setTimeout(() => reject(new Error(`no answer after ${written} bytes`)), 15_000)
    socket.on('data', (data: Buffer) => received.push(data))
    socket.on('close', finish)
    socket.on('error', finish)
    socket.once('secureConnect', () => {
      socket.write(`POST /v1/inquiries HTTP/1.1\r\nHost: 127.0.0.1\r\nX-API-Key: ${world.key}\r\nContent-Type: application/json\r\nContent-Length: ${total}\r\n\r\n`)
      const pump = () => {
        while (!done && written < total) {
          written += chunk.length
          if (!socket.write(chunk)) {
            socket.once('drain', pump)
            return
          }
        }
      }
      pump()
    })
  })
  assert.match(result.reply, /^HTTP\/1\.1 413 /, result.reply.slice(0, 200))
  assert.match(result.reply, /"code":"PAYLOAD_TOO_LARGE"/)
  assert.ok(result.written < total, `the server read all ${result.written} bytes before closing`)
  const grown = process.memoryUsage().rss - rssBefore
  assert.ok(grown < 8 * 1024 * 1024, `the process grew by ${Math.round(grown / 1024)} KiB`)
})

test.run()
