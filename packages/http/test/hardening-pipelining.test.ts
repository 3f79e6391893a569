// Deep HTTP/1.1 pipelining (issue 31): every request pipelined on an open connection is
// answered, in order, up to the connection's request limit; the last one answered says
// `Connection: close` and the server then closes the connection (RFC 9112 §9.3.2, §9.6).
// Before, 400 GETs in one write got one answer and a dropped connection (node:http's parser,
// fed by TLS while paused, failed with HPE_PAUSED).
import * as tls from 'node:tls'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { MAX_REQUESTS_PER_CONNECTION } from '@frontdesk/http'
import type { TestServer } from './util/test-server.ts'
import { startTestServer } from './util/test-server.ts'

interface World {
  server: TestServer
  limited: TestServer
  key: string
  limitedKey: string
}

const test = suite<World>('deep pipelining')

test.before(async (world) => {
  world.server = await startTestServer()
  world.limited = await startTestServer({ server: { maxRequestsPerConnection: 100 } })
  for (const [server, name] of [[world.server, 'key'], [world.limited, 'limitedKey']] as const) {
    await server.tenant('acme')
    world[name] = await server.key('acme', ['cms:read', 'cms:search'], { rateLimit: 0 })
  }
})

test.after(async (world) => {
  // Hint: whatever `before` got to; a throw here would end the whole test run.
  await world.server?.close()
  await world.limited?.close()
})

interface Pipelined {
  /** The answers in the order they came: status, `X-Request-Id`, `Connection`. */
  answers: { status: number; id: string; connection: string }[]
  /** Whether the server ended the connection (within 1 s of the last answer). */
  closedByServer: boolean
}

/** Sends `count` GETs of `path` (or POSTs of `body`) in one write, each with its own `X-Request-Id` (`pipe-0001`…), and reads the answers. */
function pipelined(server: TestServer, key: string, path: string, count: number, body?: string): Promise<Pipelined> {
  return new Promise((resolve, reject) => {
    const socket = tls.connect({ host: '127.0.0.1', port: server.port, ca: server.cert, servername: 'localhost' })
    const answers: Pipelined['answers'] = []
    let buffer = Buffer.alloc(0)
    let closedByServer = false
    let idle: NodeJS.Timeout | undefined
    const finish = () => {
      clearTimeout(idle)
      clearTimeout(limit)
      socket.destroy()
      resolve({ answers, closedByServer })
    }
    const limit = setTimeout(finish, 20_000)
    socket.on('error', reject)
    socket.once('secureConnect', () => {
      const method = body === undefined ? 'GET' : 'POST'
      const content = body === undefined ? '' : `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n`
      const requests = Array.from({ length: count }, (_, i) => `${method} ${path} HTTP/1.1\r\nHost: x\r\nX-API-Key: ${key}\r\nX-Request-Id: pipe-${String(i + 1).padStart(4, '0')}\r\n${content}\r\n${body ?? ''}`)
      socket.write(requests.join(''))
    })
    socket.once('end', () => {
      closedByServer = true
      finish()
    })
    socket.on('data', (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk])
      for (;;) {
        const end = buffer.indexOf('\r\n\r\n')
        if (end < 0) break
        const head = buffer.subarray(0, end).toString('latin1')
        const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0)
        if (buffer.length < end + 4 + length) break
        buffer = buffer.subarray(end + 4 + length)
        answers.push({
          status: Number(head.slice(9, 12)),
          id: /\r\nx-request-id: *([^\r]+)/i.exec(head)?.[1] ?? '',
          connection: /\r\nconnection: *([^\r]+)/i.exec(head)?.[1]?.toLowerCase() ?? '',
        })
      }
      clearTimeout(idle)
      if (answers.length >= count) idle = setTimeout(finish, 1_000)
    })
  })
}

const ids = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => `pipe-${String(from + i).padStart(4, '0')}`)

test('400 GETs pipelined in one write are all answered, in order, and the connection stays open', async (world) => {
  const result = await pipelined(world.server, world.key, '/v1/cms/categories', 400)
  assert.is(result.answers.length, 400, `${result.answers.length} answers`)
  assert.equal(result.answers.map((answer) => answer.id), ids(1, 400), 'in the order asked')
  assert.ok(result.answers.every((answer) => answer.status === 200 && answer.connection === 'keep-alive'))
  assert.not.ok(result.closedByServer, 'the connection is kept')
})

test('large answers (the OpenAPI document, 45 KiB each) pipelined 200 deep are all answered in order', async (world) => {
  const result = await pipelined(world.server, world.key, '/v1/openapi.json', 200)
  assert.equal(result.answers.map((answer) => answer.id), ids(1, 200))
  assert.ok(result.answers.every((answer) => answer.status === 200))
})

test('searches (POST with a body) pipelined 1,000 deep in one write are all answered, in order', async (world) => {
  const result = await pipelined(world.server, world.key, '/v1/cms/search', 1_000, '{"query":"harbour"}')
  assert.is(result.answers.length, 1_000, `${result.answers.length} answers`)
  assert.equal(result.answers.map((answer) => answer.id), ids(1, 1_000), 'in the order asked')
  assert.ok(result.answers.every((answer) => answer.status === 200))
  assert.is(result.answers.at(-1)?.connection, 'close', 'the 1,000th is the connection\u2019s last')
})

test(`at the request limit (default ${MAX_REQUESTS_PER_CONNECTION}) the last answer says Connection: close and the server closes; what was pipelined behind it is not answered`, async (world) => {
  const exactly = await pipelined(world.limited, world.limitedKey, '/v1/cms/categories', 100)
  assert.equal(exactly.answers.map((answer) => answer.id), ids(1, 100), 'up to the limit, every request is answered')
  assert.equal(exactly.answers.slice(0, 99).map((answer) => answer.connection), Array<string>(99).fill('keep-alive'))
  assert.is(exactly.answers[99]?.connection, 'close', 'the last one answered says so')
  assert.ok(exactly.closedByServer)

  const beyond = await pipelined(world.limited, world.limitedKey, '/v1/cms/categories', 400)
  assert.equal(beyond.answers.map((answer) => answer.id), ids(1, 100), 'the first 100, in order, and nothing after them')
  assert.ok(beyond.answers.every((answer) => answer.status === 200))
  assert.is(beyond.answers[99]?.connection, 'close')
  assert.ok(beyond.closedByServer, 'the server closed the connection cleanly')

  const byDefault = await pipelined(world.server, world.key, '/v1/cms/categories', MAX_REQUESTS_PER_CONNECTION + 50)
  assert.equal(byDefault.answers.map((answer) => answer.id), ids(1, MAX_REQUESTS_PER_CONNECTION))
  assert.is(byDefault.answers.at(-1)?.connection, 'close')
  assert.is(byDefault.answers.filter((answer) => answer.connection === 'close').length, 1)
  assert.ok(byDefault.closedByServer)
})

test('a last request whose body comes later is still read and answered, then the connection closed', async (world) => {
  const answer = await new Promise<{ statuses: number[]; last: string; ended: boolean }>((resolve, reject) => {
    const socket = tls.connect({ host: '127.0.0.1', port: world.limited.port, ca: world.limited.cert, servername: 'localhost' })
    const body = '{"query":"harbour"}'
    let text = ''
    socket.on('error', reject)
    socket.once('secureConnect', () => {
      const gets = `GET /v1/cms/categories HTTP/1.1\r\nHost: x\r\nX-API-Key: ${world.limitedKey}\r\n\r\n`.repeat(99)
      socket.write(`${gets}POST /v1/cms/search HTTP/1.1\r\nHost: x\r\nX-API-Key: ${world.limitedKey}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`)
      setTimeout(() => socket.write(body), 300)
    })
    socket.on('data', (chunk: Buffer) => void (text += chunk.toString('latin1')))
    socket.once('end', () => {
      const heads = [...text.matchAll(/HTTP\/1\.1 (\d{3})[^]*?\r\nconnection: *([^\r]+)/gi)]
      resolve({ statuses: heads.map((head) => Number(head[1])), last: heads.at(-1)?.[2]?.toLowerCase() ?? '', ended: true })
    })
    setTimeout(() => resolve({ statuses: [], last: '', ended: false }), 10_000).unref()
  })
  assert.ok(answer.ended, 'the server closed the connection')
  assert.is(answer.statuses.length, 100)
  assert.is(answer.statuses.at(-1), 200, 'the search, whose body came after the limit was reached, is answered')
  assert.is(answer.last, 'close')
})

test.run()
