// Bodies nobody asked for: every route, known or not, keyed or not (`/healthz` included),
// answers without reading a body it does not want and closes the connection, so that an
// upload can neither cost the server its bandwidth nor outlive the request timeout.
import * as tls from 'node:tls'
import * as assert from 'uvu/assert'
import type { TestServer } from './util/test-server.ts'
import { behaviourSuite, startTestServer, storeOf } from './util/test-server.ts'

interface World {
  server: TestServer
  key: string
}

const test = await behaviourSuite<World>('bodies a route does not want', import.meta.url)

test.before(async (world) => {
  world.server = await startTestServer({ store: storeOf(import.meta.url), failedAuthRate: 0 })
  await world.server.tenant('acme')
  world.key = await world.server.key('acme', ['cms:read'], { rateLimit: 0 })
})

test.after(async (world) => {
  // Hint: whatever `before` got to; a throw here would end the whole test run.
  await world.server?.close()
})

const TOTAL = 64 * 1024 * 1024
const CHUNK = Buffer.alloc(64 * 1024, 0x61)

/** Streams a body as fast as the server takes it, until the server answers and closes. */
function upload(world: World, head: string, chunked: boolean): Promise<{ reply: string; written: number }> {
  return new Promise((resolve, reject) => {
    const socket = tls.connect({ host: '127.0.0.1', port: world.server.port, ca: world.server.cert, servername: 'localhost' })
    const received: Buffer[] = []
    let written = 0
    let done = false
    const finish = () => {
      if (done) return
      done = true
      clearTimeout(timer)
      socket.destroy()
      resolve({ reply: Buffer.concat(received).toString('latin1'), written })
    }
    const timer = setTimeout(() => {
      done = true
      socket.destroy()
      reject(new Error(`no close after ${written} bytes: ${Buffer.concat(received).toString('latin1').slice(0, 120)}`))
    }, 20_000)
    socket.on('data', (data: Buffer) => received.push(data))
    socket.on('close', finish)
    socket.on('error', finish)
    socket.once('secureConnect', () => {
      socket.write(`${head}\r\n${chunked ? 'Transfer-Encoding: chunked' : `Content-Length: ${TOTAL}`}\r\n\r\n`)
      const frame = chunked ? Buffer.concat([Buffer.from(`${CHUNK.length.toString(16)}\r\n`), CHUNK, Buffer.from('\r\n')]) : CHUNK
      const pump = () => {
        while (!done && written < TOTAL) {
          written += CHUNK.length
          if (!socket.write(frame)) {
            socket.once('drain', pump)
            return
          }
        }
      }
      pump()
    })
  })
}

const cases: [string, (world: World) => string, number][] = [
  ['GET /healthz', () => 'GET /healthz HTTP/1.1\r\nHost: x', 200],
  ['POST /healthz', () => 'POST /healthz HTTP/1.1\r\nHost: x\r\nContent-Type: application/json', 405],
  ['PUT /healthz', () => 'PUT /healthz HTTP/1.1\r\nHost: x', 405],
  ['an unknown path', () => 'POST /upload HTTP/1.1\r\nHost: x', 404],
  ['an unknown /v1 path with a key', (w) => `POST /v1/upload HTTP/1.1\r\nHost: x\r\nX-API-Key: ${w.key}`, 404],
  ['a keyed GET route', (w) => `GET /v1/cms/categories HTTP/1.1\r\nHost: x\r\nX-API-Key: ${w.key}`, 200],
  ['a GET route without a key', () => 'GET /v1/cms/categories HTTP/1.1\r\nHost: x', 401],
  ['a wrong method', (w) => `DELETE /v1/inquiries HTTP/1.1\r\nHost: x\r\nX-API-Key: ${w.key}`, 405],
  ['the OpenAPI document', () => 'GET /v1/openapi.json HTTP/1.1\r\nHost: x', 200],
  ['a POST route the key may not use', (w) => `POST /v1/inquiries HTTP/1.1\r\nHost: x\r\nX-API-Key: ${w.key}\r\nContent-Type: application/json`, 403],
]

for (const [name, head, status] of cases) {
  for (const chunked of [false, true]) {
    test(`${name} answers ${status} without reading a ${chunked ? 'chunked' : '64 MiB'} body, and closes the connection`, async (world) => {
      const { reply, written } = await upload(world, head(world), chunked)
      assert.match(reply, new RegExp(`^HTTP/1\\.1 ${status} `), reply.slice(0, 200))
      assert.match(reply, /\r\nconnection: close\r\n/i, 'the answer announces the close')
      assert.ok(written < TOTAL / 4, `the server took ${Math.round(written / 1024 / 1024)} MiB of the body before closing`)
    })
  }
}

test('a body trickling into /healthz does not keep the connection past the answer', async (world) => {
  const started = Date.now()
  const result = await new Promise<{ reply: string; closedAfter: number }>((resolve) => {
    const socket = tls.connect({ host: '127.0.0.1', port: world.server.port, ca: world.server.cert, servername: 'localhost' })
    const received: Buffer[] = []
    const timer = setInterval(() => socket.writable && socket.write('a'), 100)
    socket.on('data', (data: Buffer) => received.push(data))
    socket.on('error', () => {})
    socket.on('close', () => {
      clearInterval(timer)
      resolve({ reply: Buffer.concat(received).toString('latin1'), closedAfter: Date.now() - started })
    })
    socket.once('secureConnect', () => socket.write('POST /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: 1000000\r\n\r\n'))
  })
  assert.match(result.reply, /^HTTP\/1\.1 405 /)
  assert.ok(result.closedAfter < 2_000, `the connection stayed open ${result.closedAfter} ms`)
})

test.run()
