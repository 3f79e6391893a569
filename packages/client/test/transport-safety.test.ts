// What the client refuses or explains about the connection itself: a certificate it cannot
// trust, a plain-http base URL, and that it needs nothing of Node (any fetch runtime).
import { readdirSync, readFileSync } from 'node:fs'
import * as http from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import type { FetchLike } from '@frontdesk/client'
import { FrontdeskApiError, FrontdeskCertificateError, FrontdeskClient } from '@frontdesk/client'
import { createHandler } from '@frontdesk/http'
// Hint: the HTTPS test server is a test utility of @frontdesk/http, not part of any package's API.
import type { TestServer } from '../../http/test/util/test-server.ts'
import { startTestServer } from '../../http/test/util/test-server.ts'
import { httpsFetch } from './util/https-fetch.ts'

let server: TestServer
let key = ''
const test = suite('the client and its connection')

test.before(async () => {
  server = await startTestServer()
  await server.tenant('acme')
  key = await server.key('acme', ['cms:read'])
})

test.after(async () => {
  // Hint: whatever `before` got to; a throw here would end the whole test run.
  await server?.close()
})

function counted(fetch: FetchLike): FetchLike & { calls: number } {
  const wrapped = Object.assign((input: string, init: RequestInit) => {
    wrapped.calls++
    return fetch(input, init)
  }, { calls: 0 })
  return wrapped
}

test('an untrusted certificate (the global fetch) is a FrontdeskCertificateError that says so, not retried', async () => {
  const fetch = counted((input, init) => globalThis.fetch(input, init))
  const cms = new FrontdeskClient({ baseUrl: server.url, apiKey: key, fetch, retry: { retries: 2, baseDelayMs: 5 } })
  const error = await cms.categories.list().catch((e: unknown) => e)
  assert.instance(error, FrontdeskCertificateError)
  const refused = error as FrontdeskCertificateError
  assert.is(refused.origin, server.url)
  assert.match(refused.message, new RegExp(`^The TLS certificate of ${server.url} was not accepted \\([A-Z_]+: [^)]+\\)`))
  assert.match(refused.message, /NODE_EXTRA_CA_CERTS/)
  assert.not.match(refused.message, /fetch failed/)
  assert.instance(refused.cause, TypeError, 'the runtime error is kept as the cause')
  assert.is(fetch.calls, 1)
})

test('a certificate refused through another fetch (node:https without the CA) is recognised by its code', async () => {
  const cms = new FrontdeskClient({ baseUrl: server.url, apiKey: key, fetch: httpsFetch(''), retry: { retries: 0 } })
  const error = (await cms.categories.list().catch((e: unknown) => e)) as FrontdeskCertificateError
  assert.instance(error, FrontdeskCertificateError)
  assert.ok(error.code !== null && /CERT|SIGNATURE|ISSUER/.test(error.code), String(error.code))
})

test('a network error that is not about certificates stays the runtime error', async () => {
  const cms = new FrontdeskClient({ baseUrl: 'https://127.0.0.1:1', apiKey: key, retry: { retries: 0 } })
  const error = await cms.categories.list().catch((e: unknown) => e)
  assert.instance(error, TypeError)
  assert.not.instance(error, FrontdeskCertificateError)
})

test('an http:// base URL is refused unless allowHttp is set; with it, a server behind a proxy answers what the proxy vouches for', async () => {
  const plain = http.createServer(createHandler(server.frontdesk))
  await new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', resolve))
  try {
    const baseUrl = `http://127.0.0.1:${(plain.address() as AddressInfo).port}`
    assert.throws(() => new FrontdeskClient({ baseUrl, apiKey: key }), (e: unknown) => e instanceof TypeError && /plain http: the API key would travel unencrypted.*allowHttp: true/.test(e.message))
    assert.throws(() => new FrontdeskClient({ baseUrl: 'ftp://example.com', apiKey: key }), /baseUrl must be an https URL/)
    assert.throws(() => new FrontdeskClient({ baseUrl: 'https://', apiKey: key }), /baseUrl must be an https URL/)
    // As behind a TLS-terminating proxy on this host: frontdesk trusts loopback's X-Forwarded-Proto.
    const cms = new FrontdeskClient({ baseUrl, apiKey: key, allowHttp: true, headers: { 'x-forwarded-proto': 'https' } })
    assert.equal(await cms.categories.list(), [])
    // Called directly, bypassing the proxy, even from its host: refused, and told why (as the README says).
    const direct = new FrontdeskClient({ baseUrl, apiKey: key, allowHttp: true, retry: { retries: 0 } })
    const refused = (await direct.categories.list().catch((e: unknown) => e)) as FrontdeskApiError
    assert.instance(refused, FrontdeskApiError)
    assert.is(refused.status, 403)
    assert.is(refused.code, 'HTTPS_REQUIRED')
    assert.match(refused.message, /only when its trusted proxy says the client used HTTPS \(X-Forwarded-Proto: https\); call the proxy's https:\/\/ address/)
  } finally {
    plain.closeAllConnections()
    await new Promise((resolve) => plain.close(resolve))
  }
})

test('the client imports nothing of Node: no node: modules, no process, no Buffer', () => {
  const dir = fileURLToPath(new URL('../src', import.meta.url))
  const sources = readdirSync(dir).filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'))
  assert.ok(sources.length >= 4)
  for (const name of sources) {
    const text = readFileSync(join(dir, name), 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '')
    assert.not.match(text, /from '(node:|fs|http|https|net|tls|crypto|path|os|stream|buffer)['/]/, name)
    assert.not.match(text, /\b(process|Buffer|require)\b/, name)
  }
})

test.run()
