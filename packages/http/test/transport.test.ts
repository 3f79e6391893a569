import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs'
import * as http from 'node:http'
import * as https from 'node:https'
import * as net from 'node:net'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import * as tls from 'node:tls'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { createDevCert, createHandler, createServer, ensureDevCert } from '@frontdesk/http'
import type { TestServer } from './util/test-server.ts'
import { closeServer, startTestServer } from './util/test-server.ts'

let server: TestServer
let key: string

test.before(async () => {
  server = await startTestServer()
  await server.tenant('acme')
  key = await server.key('acme', ['cms:read'])
})

test.after(async () => {
  // Hint: whatever `before` got to; a throw here would end the whole test run.
  await server?.close()
})

function tlsConnect(options: tls.ConnectionOptions): Promise<tls.TLSSocket> {
  return new Promise((resolve, reject) => {
    const socket = tls.connect({ host: '127.0.0.1', port: server.port, ca: server.cert, ...options }, () => resolve(socket))
    socket.on('error', reject)
    socket.setTimeout(5_000, () => socket.destroy(new Error('timed out')))
  })
}

async function listen(target: http.Server): Promise<number> {
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', () => resolve()))
  return (target.address() as AddressInfo).port
}

/** One plain-HTTP request; `headers` may forge anything. */
function plainRequest(port: number, path: string, headers: Record<string, string>): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request({ host: '127.0.0.1', port, path, headers, agent: false, timeout: 5_000 }, (response) => {
      let body = ''
      response.setEncoding('utf8')
      response.on('data', (chunk: string) => (body += chunk))
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }))
    })
    request.on('timeout', () => request.destroy(new Error('timed out')))
    request.on('error', reject)
    request.end()
  })
}

test('TLS 1.2 and 1.3 handshakes succeed', async () => {
  for (const version of ['TLSv1.2', 'TLSv1.3'] as const) {
    const socket = await tlsConnect({ minVersion: version, maxVersion: version })
    assert.is(socket.getProtocol(), version)
    socket.destroy()
  }
})

test('a TLS 1.1 handshake is refused by the server', async () => {
  // Hint: security level 0 lets this client offer TLS 1.1 at all, so the refusal is the server's.
  const error = await tlsConnect({ minVersion: 'TLSv1', maxVersion: 'TLSv1.1', ciphers: 'DEFAULT@SECLEVEL=0' }).then(
    (socket) => {
      socket.destroy()
      return null
    },
    (e: Error) => e,
  )
  assert.ok(error, 'the handshake must fail')
  assert.match(error.message, /alert protocol version/i, 'the server sent the protocol_version alert')
})

test('plain HTTP sent to the TLS port never gets a 2xx or 3xx', async () => {
  const reply = await new Promise<string>((resolve) => {
    const socket = net.connect(server.port, '127.0.0.1', () => {
      socket.write(`GET /v1/cms/categories HTTP/1.1\r\nHost: 127.0.0.1\r\nX-API-Key: ${key}\r\n\r\n`)
    })
    let data = ''
    socket.setEncoding('latin1')
    socket.on('data', (chunk: string) => (data += chunk))
    socket.on('close', () => resolve(data))
    socket.on('error', () => undefined)
    socket.setTimeout(5_000, () => socket.destroy())
  })
  assert.not.match(reply, /^HTTP\/1\.[01] [23]/)
  assert.not.match(reply, /Location:/i)
})

test('request headers over the limit get a JSON 431', async () => {
  const res = await server.request('GET', '/v1/cms/categories', { headers: { 'x-api-key': key, 'x-padding': 'a'.repeat(20_000) } })
  assert.is(res.status, 431)
  assert.equal(res.body, { error: { code: 'HEADERS_TOO_LARGE', message: 'Request headers too large' } })
  assert.is(res.headers['content-type'], 'application/json; charset=utf-8')
  assert.is(res.headers['strict-transport-security'], 'max-age=31536000')
})

test('the server enforces the timeouts of CONTRACT §1', async () => {
  const direct = createServer(server.frontdesk, { tls: await createDevCert() })
  const proxied = createServer(server.frontdesk, { behindProxy: true })
  try {
    assert.is(direct.headersTimeout, 10_000)
    assert.is(direct.requestTimeout, 30_000)
    assert.is(direct.keepAliveTimeout, 5_000)
    assert.is(proxied.keepAliveTimeout, 65_000)
    assert.ok(direct instanceof https.Server)
    assert.not.ok(proxied instanceof https.Server)
  } finally {
    direct.close()
    proxied.close()
  }
})

test('behind a proxy, X-Forwarded-Proto: https from a trusted proxy is served, with HSTS', async () => {
  const proxied = createServer(server.frontdesk, { behindProxy: true })
  const port = await listen(proxied)
  try {
    const res = await plainRequest(port, '/v1/cms/categories', { 'x-api-key': key, 'x-forwarded-proto': 'https' })
    assert.is(res.status, 200, res.body)
    assert.is(res.headers['strict-transport-security'], 'max-age=31536000')
    // The nearest proxy appends its own scheme last: only that entry counts.
    assert.is((await plainRequest(port, '/v1/cms/categories', { 'x-api-key': key, 'x-forwarded-proto': 'http, https' })).status, 200)
  } finally {
    await closeServer(proxied)
  }
})

test('behind a proxy, anything not vouched for as HTTPS is 403 HTTPS_REQUIRED and never redirected', async () => {
  const proxied = createServer(server.frontdesk, { behindProxy: true })
  const port = await listen(proxied)
  try {
    const forged: Record<string, string>[] = [{}, { 'x-forwarded-proto': 'http' }, { 'x-forwarded-proto': 'https, http' }, { forwarded: 'proto=https' }]
    for (const headers of forged) {
      const res = await plainRequest(port, '/v1/cms/categories', { 'x-api-key': key, ...headers })
      assert.is(res.status, 403, JSON.stringify(headers))
      // The caller is on the proxy's (loopback) address: told that only the proxy's word opens plain HTTP.
      assert.equal(JSON.parse(res.body), {
        error: {
          code: 'HTTPS_REQUIRED',
          message:
            "HTTPS is required: this server serves plain HTTP only when its trusted proxy says the client used HTTPS (X-Forwarded-Proto: https); call the proxy's https:// address, not this port",
        },
      })
      assert.is(res.headers.location, undefined)
      assert.is(res.headers['strict-transport-security'], undefined)
    }
    const unknown = await plainRequest(port, '/anything', {})
    assert.is(unknown.status, 403, 'the HTTPS check comes before routing')
  } finally {
    await closeServer(proxied)
  }
})

test('behind a proxy, a forged X-Forwarded-Proto from an untrusted peer is refused', async () => {
  const proxied = createServer(server.frontdesk, { behindProxy: true, trustedProxies: ['10.0.0.0/8', 'fd00::/8'] })
  const port = await listen(proxied)
  try {
    const res = await plainRequest(port, '/v1/cms/categories', { 'x-api-key': key, 'x-forwarded-proto': 'https' })
    assert.is(res.status, 403)
    assert.equal(JSON.parse(res.body).error, { code: 'HTTPS_REQUIRED', message: "HTTPS is required: call the service's https:// address" })
  } finally {
    await closeServer(proxied)
  }
  const loopback = createServer(server.frontdesk, { behindProxy: true, trustedProxies: ['127.0.0.0/8'] })
  const loopbackPort = await listen(loopback)
  try {
    assert.is((await plainRequest(loopbackPort, '/v1/cms/categories', { 'x-api-key': key, 'x-forwarded-proto': 'https' })).status, 200)
  } finally {
    await closeServer(loopback)
  }
})

test('createHandler mounts inside a plain node:http server next to its own routes', async () => {
  const api = createHandler(server.frontdesk)
  const host = http.createServer((req, res) => {
    if (req.url === '/health') {
      res.end('ok')
      return
    }
    api(req, res, () => {
      res.statusCode = 404
      res.end('host 404')
    })
  })
  const port = await listen(host)
  try {
    assert.equal(await plainRequest(port, '/health', {}).then((r) => [r.status, r.body]), [200, 'ok'])
    assert.equal(await plainRequest(port, '/elsewhere', {}).then((r) => [r.status, r.body]), [404, 'host 404'])
    const viaProxy = await plainRequest(port, '/v1/cms/categories', { 'x-api-key': key, 'x-forwarded-proto': 'https' })
    assert.is(viaProxy.status, 200)
    assert.equal(JSON.parse(viaProxy.body), { items: [] })
    const plain = await plainRequest(port, '/v1/cms/categories', { 'x-api-key': key })
    assert.is(plain.status, 403)
    assert.is(JSON.parse(plain.body).error.code, 'HTTPS_REQUIRED')
    assert.is((await plainRequest(port, '/v1/unknown', { 'x-forwarded-proto': 'https' })).status, 404)
  } finally {
    await closeServer(host)
  }
})

test('the development certificate is made once, reused, private, and trusted by clients given it', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'frontdesk-devcert-'))
  try {
    const first = await ensureDevCert(join(dir, '.frontdesk'))
    const second = await ensureDevCert(join(dir, '.frontdesk'))
    assert.ok(first.created)
    assert.not.ok(second.created)
    assert.is(second.cert, first.cert)
    assert.is(statSync(first.keyPath).mode & 0o777, 0o600)
    assert.is(statSync(first.certPath).mode & 0o777, 0o600)
    const devServer = createServer(server.frontdesk, { tls: { cert: first.cert, key: first.key } })
    const port = await listen(devServer)
    try {
      for (const host of ['127.0.0.1', 'localhost']) {
        const status = await new Promise<number>((resolve, reject) => {
          https
            .get({ host, port, path: '/v1/cms/categories', ca: readFileSync(first.caPath), agent: false, headers: { 'x-api-key': key } }, (res) => {
              res.resume()
              resolve(res.statusCode ?? 0)
            })
            .on('error', reject)
        })
        assert.is(status, 200, host)
      }
    } finally {
      await closeServer(devServer)
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

test.run()
