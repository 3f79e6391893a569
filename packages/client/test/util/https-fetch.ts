import * as https from 'node:https'
import type { FetchLike } from '@frontdesk/client'

/**
 * A `fetch` over `node:https` that trusts `ca` (the test server's self-signed certificate).
 * Node's global fetch (undici) takes no per-call CA, and undici itself is not importable from
 * Node 20 without installing it; the client accepts any `fetch`, so tests pass this one. It
 * speaks real HTTPS to the real server; only the transport differs from the global fetch
 * (which the examples test exercises, trusting the certificate via NODE_EXTRA_CA_CERTS).
 * `onRequest` sees every attempt (method, URL, headers), for assertions on retries.
 */
export function httpsFetch(ca: string, onRequest?: (request: { method: string; url: string; headers: Record<string, string> }) => void): FetchLike {
  return (input, init) =>
    new Promise<Response>((resolve, reject) => {
      const headers = Object.fromEntries(new Headers(init.headers).entries())
      const method = init.method ?? 'GET'
      onRequest?.({ method, url: input, headers })
      const request = https.request(input, { method, headers, ca, agent: false }, (res) => {
        const chunks: Buffer[] = []
        res.on('data', (chunk: Buffer) => chunks.push(chunk))
        res.on('error', reject)
        res.on('end', () => {
          const responseHeaders = new Headers()
          for (const [name, value] of Object.entries(res.headers)) {
            if (value !== undefined) responseHeaders.set(name, Array.isArray(value) ? value.join(', ') : value)
          }
          const status = res.statusCode ?? 0
          const body = status === 204 || status === 304 ? null : Buffer.concat(chunks)
          resolve(new Response(body, { status, headers: responseHeaders }))
        })
      })
      const signal = init.signal
      if (signal) {
        if (signal.aborted) request.destroy(signal.reason instanceof Error ? signal.reason : new Error('aborted'))
        signal.addEventListener('abort', () => request.destroy(new TypeError('fetch failed', { cause: signal.reason })), { once: true })
      }
      request.on('error', (error) => reject(new TypeError('fetch failed', { cause: error })))
      request.end(typeof init.body === 'string' ? init.body : undefined)
    })
}
