import * as https from 'node:https'
import type { TestResponse } from './test-server.ts'

/** A request as the hardening tests send it: raw headers (repeated names allowed) and a raw body. */
export interface RawRequest {
  method: string
  path: string
  /** Header pairs, sent in order; a name may repeat. */
  headers?: [string, string][]
  body?: Buffer | string
}

/**
 * An HTTPS client over one keep-alive agent (many requests without a TLS handshake each),
 * trusting `ca`. Bodies are parsed as JSON when they are JSON, else left `null`.
 */
export function keepAliveClient(baseUrl: string, ca: string) {
  const agent = new https.Agent({ keepAlive: true, maxSockets: 4, ca })
  return {
    send(request: RawRequest): Promise<TestResponse> {
      const url = new URL(request.path, baseUrl)
      // Hint: with headers given as an array, Node adds no Host header of its own.
      const flat: string[] = (request.headers ?? []).some(([name]) => name.toLowerCase() === 'host') ? [] : ['host', url.host]
      for (const [name, value] of request.headers ?? []) flat.push(name, value)
      const body = request.body === undefined ? null : Buffer.from(request.body)
      if (body !== null && !(request.headers ?? []).some(([name]) => /^(content-length|transfer-encoding)$/i.test(name))) {
        flat.push('content-length', String(body.length))
      }
      return new Promise((resolve, reject) => {
        const req = https.request(url, { method: request.method, headers: flat, agent, timeout: 15_000 }, (response) => {
          const chunks: Buffer[] = []
          response.on('data', (chunk: Buffer) => chunks.push(chunk))
          response.on('error', reject)
          response.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8')
            let parsed: unknown = null
            try {
              parsed = text === '' ? null : JSON.parse(text)
            } catch {
              parsed = null
            }
            resolve({ status: response.statusCode ?? 0, headers: response.headers, body: parsed, text })
          })
        })
        req.on('timeout', () => req.destroy(new Error(`${request.method} ${request.path.slice(0, 80)} timed out`)))
        req.on('error', reject)
        req.end(body ?? undefined)
      })
    },
    /** Closes the agent's sockets. */
    close(): void {
      agent.destroy()
    },
  }
}
