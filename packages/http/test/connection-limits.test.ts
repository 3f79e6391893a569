// Limits on connections, checked before any TLS work: per client address (IPv6: per /64),
// overall, trusted proxies exempt; and a client that keeps sending on a connection after a 429
// told it to wait loses that connection.
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import * as net from 'node:net'
import * as tls from 'node:tls'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import type { ServerOptions } from '@frontdesk/http'
import { addressKey, createDevCert, createServer } from '@frontdesk/http'
import type { TestServer } from './util/test-server.ts'
import { closeServer, startTestServer } from './util/test-server.ts'

interface World {
  server: TestServer
  key: string
  limited: string
}

const test = suite<World>('connection limits')

test.before(async (world) => {
  world.server = await startTestServer({ server: { maxConnectionsPerAddress: 3, maxConnections: 5 } })
  await world.server.tenant('acme')
  world.key = await world.server.key('acme', ['cms:read'], { rateLimit: 0 })
  world.limited = await world.server.key('acme', ['cms:read'], { rateLimit: 1 })
})

test.after(async (world) => {
  // Hint: whatever `before` got to; a throw here would end the whole test run.
  await world.server?.close()
})

/** A TLS connection from `localAddress` to the server at `port` (trusting `ca`): resolves with the socket once secure, or `null` when the server refused it. */
function connectTo(port: number, ca: string, localAddress: string): Promise<tls.TLSSocket | null> {
  return new Promise((resolve) => {
    const tcp = net.connect({ host: '127.0.0.1', port, localAddress })
    tcp.on('error', () => {})
    const socket = tls.connect({ socket: tcp, ca, servername: 'localhost' })
    socket.once('secureConnect', () => {
      // Hint: with TLS 1.3 the client is done before the server has seen its Finished; a refused
      // connection shows as a reset right after, so a request proves it is really open.
      socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n')
      socket.once('data', () => resolve(socket))
    })
    socket.on('error', () => resolve(null))
    socket.once('close', () => resolve(null))
  })
}

/** `connectTo` the world's server. */
const connect = (world: World, localAddress: string) => connectTo(world.server.port, world.server.cert, localAddress)

const closed = (socket: tls.TLSSocket) => new Promise<void>((resolve) => (socket.destroyed ? resolve() : socket.once('close', () => resolve())))

test('one address holds at most maxConnectionsPerAddress connections; others are not affected; a closed one frees its place', async (world) => {
  const held = await Promise.all([1, 2, 3].map(() => connect(world, '127.0.0.5')))
  assert.ok(held.every((socket) => socket !== null), 'the first three are served')
  assert.is(await connect(world, '127.0.0.5'), null, 'the fourth is refused')
  const neighbour = await connect(world, '127.0.0.6')
  assert.ok(neighbour !== null, 'another address is served')
  held[0]?.destroy()
  await closed(held[0] as tls.TLSSocket)
  await new Promise((resolve) => setTimeout(resolve, 50))
  const again = await connect(world, '127.0.0.5')
  assert.ok(again !== null, 'a place freed is taken again')
  for (const socket of [...held, neighbour, again]) socket?.destroy()
  await new Promise((resolve) => setTimeout(resolve, 50))
})

test('the server holds at most maxConnections connections in all', async (world) => {
  const sockets = await Promise.all(['127.0.0.7', '127.0.0.7', '127.0.0.8', '127.0.0.8', '127.0.0.9'].map((address) => connect(world, address)))
  assert.ok(sockets.every((socket) => socket !== null), 'five are served')
  assert.is(await connect(world, '127.0.0.10'), null, 'the sixth is refused')
  for (const socket of sockets) socket?.destroy()
  await new Promise((resolve) => setTimeout(resolve, 50))
})

test('a client that keeps sending after a 429 told it to wait loses its connection; one that waits keeps it', async (world) => {
  // The key allows 1/s with bursts of 2.
  const hasty = await keptAlive(world, world.limited, [0, 0, 0])
  assert.equal(hasty.statuses, [200, 200, 429, 429])
  assert.equal(hasty.connections, ['keep-alive', 'keep-alive', 'keep-alive', 'close'], 'the refusal it ignored closes the connection')
  assert.ok(hasty.closedByServer, 'the server closed it')
  await new Promise((resolve) => setTimeout(resolve, 2_100))
  const patient = await keptAlive(world, world.limited, [0, 0, 2_100, 0])
  assert.equal(patient.statuses, [200, 200, 429, 200, 200])
  assert.not.ok(patient.closedByServer, 'waiting as told keeps the connection')
})

/**
 * Requests on one kept-alive connection, the first at once and each next one `delays[i]` ms
 * after the previous answer; `closedByServer` tells whether the server ended the connection
 * (looked for 300 ms after the last answer).
 */
function keptAlive(world: World, key: string, delays: number[]): Promise<{ statuses: number[]; connections: string[]; closedByServer: boolean }> {
  return new Promise((resolve, reject) => {
    const socket = tls.connect({ host: '127.0.0.1', port: world.server.port, ca: world.server.cert, servername: 'localhost' })
    const statuses: number[] = []
    const connections: string[] = []
    let closedByServer = false
    let buffer = ''
    const send = () => socket.write(`GET /v1/cms/categories HTTP/1.1\r\nHost: x\r\nX-API-Key: ${key}\r\n\r\n`)
    const finish = () => {
      socket.destroy()
      resolve({ statuses, connections, closedByServer })
    }
    socket.on('error', reject)
    socket.once('secureConnect', send)
    socket.once('end', () => void (closedByServer = true))
    socket.on('data', (chunk: Buffer) => {
      buffer += chunk.toString('latin1')
      for (;;) {
        const end = buffer.indexOf('\r\n\r\n')
        if (end < 0) return
        const head = buffer.slice(0, end)
        const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0)
        if (buffer.length < end + 4 + length) return
        buffer = buffer.slice(end + 4 + length)
        statuses.push(Number(head.slice(9, 12)))
        connections.push(/\r\nconnection: *([^\r]+)/i.exec(head)?.[1]?.toLowerCase() ?? '')
        const delay = delays[statuses.length - 1]
        if (delay === undefined) setTimeout(finish, 300)
        else setTimeout(() => (socket.writable ? send() : undefined), delay)
      }
    })
  })
}

test.run()

const proxied = suite('connection limits behind a proxy')

proxied('a trusted proxy is exempt from the per-address limit; any other address is not', async () => {
  const world = await startTestServer()
  const options: ServerOptions = { maxConnectionsPerAddress: 2, onError: () => {} }
  const server = createServer(world.frontdesk, { behindProxy: true }, options) as Server
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  const open = (localAddress: string) =>
    new Promise<net.Socket | null>((resolve) => {
      const socket = net.connect({ host: '127.0.0.1', port, localAddress })
      socket.once('connect', () => socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n'))
      socket.once('data', () => resolve(socket))
      socket.on('error', () => resolve(null))
      socket.once('close', () => resolve(null))
    })
  try {
    const fromProxy = await Promise.all([1, 2, 3, 4].map(() => open('127.0.0.1')))
    assert.ok(fromProxy.every((socket) => socket !== null), 'the trusted proxy (loopback) holds more than two')
    const others = await Promise.all([1, 2, 3].map(() => open('127.0.0.11')))
    assert.is(others.filter((socket) => socket !== null).length, 2, 'another address holds two')
    for (const socket of [...fromProxy, ...others]) socket?.destroy()
  } finally {
    await closeServer(server)
    await world.close()
  }
})

proxied('IPv6 clients are counted per /64, IPv4-mapped ones as their IPv4 address', () => {
  assert.is(addressKey('2001:db8:1:2:3:4:5:6'), '2001:db8:1:2::/64')
  assert.is(addressKey('2001:db8:1:2::9'), '2001:db8:1:2::/64')
  assert.is(addressKey('2001:0db8:0001:0002:ffff::1'), '2001:db8:1:2::/64')
  assert.is(addressKey('2001:db8::1'), '2001:db8:0:0::/64')
  assert.is(addressKey('::1'), '0:0:0:0::/64')
  assert.is(addressKey('::ffff:192.0.2.1'), '192.0.2.1')
  assert.is(addressKey('192.0.2.1'), '192.0.2.1')
})

proxied.run()

const refusedOnes = suite('connections refused by the per-address limit')

refusedOnes('a refused connection reaches no listener of the server: no TLS handshake is begun for it, nor reported failed', async () => {
  const world = await startTestServer()
  const { cert, key, ca } = await createDevCert()
  const server = createServer(world.frontdesk, { tls: { cert, key } }, { maxConnectionsPerAddress: 1, onError: () => {} }) as Server
  let connections = 0
  let tlsErrors = 0
  server.on('connection', () => connections++)
  server.on('tlsClientError', () => tlsErrors++)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  const open = () => connectTo(port, ca, '127.0.0.12')
  try {
    const held = await open()
    assert.ok(held !== null, 'the first is served')
    const refused = await Promise.all([1, 2, 3, 4, 5].map(open))
    assert.ok(refused.every((socket) => socket === null), 'the next five are refused')
    await new Promise((resolve) => setTimeout(resolve, 100))
    assert.is(connections, 1, "only the one let in reached the server's 'connection' listeners")
    assert.is(tlsErrors, 0, 'no handshake was begun, so none failed')
    held?.destroy()
  } finally {
    await closeServer(server)
    await world.close()
  }
})

refusedOnes.run()
