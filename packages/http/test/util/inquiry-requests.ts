import * as https from 'node:https'

/** A response as the inquiry tests read it. */
export interface AgentResponse {
  status: number
  /** Whether `Idempotent-Replayed: true` was sent. */
  replayed: boolean
  headers: import('node:http').IncomingHttpHeaders
  body: { id?: string; title?: string; error?: { code: string } } | null
}

/**
 * One JSON request over `agent`, trusting `ca`. With a kept-alive agent whose connections are
 * already open, a burst of these reaches the server together instead of being spread out by
 * TLS handshakes. Rejects on a network error (e.g. the server was killed) or after 10 s.
 */
export function agentRequest(
  target: { url: string; ca: string; agent: https.Agent },
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: unknown,
): Promise<AgentResponse> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body)
    const request = https.request(
      new URL(path, target.url),
      { method, agent: target.agent, ca: target.ca, timeout: 10_000, headers: { ...(payload === undefined ? {} : { 'content-type': 'application/json' }), ...headers } },
      (response) => {
        const chunks: Buffer[] = []
        response.on('data', (chunk: Buffer) => chunks.push(chunk))
        response.on('error', reject)
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8')
          let parsed: AgentResponse['body'] = null
          try {
            parsed = text === '' ? null : (JSON.parse(text) as AgentResponse['body'])
          } catch {
            parsed = null
          }
          resolve({ status: response.statusCode ?? 0, replayed: response.headers['idempotent-replayed'] === 'true', headers: response.headers, body: parsed })
        })
      },
    )
    request.on('timeout', () => request.destroy(new Error(`${method} ${path} timed out`)))
    request.on('error', reject)
    request.end(payload)
  })
}
