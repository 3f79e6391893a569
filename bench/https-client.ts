import * as https from 'node:https'

/** An answer as the benchmark's checks read it. */
export interface Answer {
  status: number
  /** Parsed JSON, or `null` when the body is not JSON. */
  json: unknown
}

/** A tiny HTTPS client trusting one certificate, for the benchmark's own checks (not for load). */
export class HttpsClient {
  readonly #agent: https.Agent

  constructor(
    readonly origin: string,
    ca: string,
    readonly headers: Record<string, string>,
  ) {
    this.#agent = new https.Agent({ keepAlive: true, ca, maxSockets: 4 })
  }

  /** Sends one request; rejects on a network error or after `timeoutMs`. */
  request(method: string, path: string, body?: string, timeoutMs = 10_000): Promise<Answer> {
    return new Promise((resolve, reject) => {
      const req = https.request(
        `${this.origin}${path}`,
        {
          method,
          agent: this.#agent,
          timeout: timeoutMs,
          headers: { ...this.headers, ...(body === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }) },
        },
        (res) => {
          const chunks: Buffer[] = []
          res.on('data', (chunk: Buffer) => chunks.push(chunk))
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8')
            let json: unknown = null
            try {
              json = JSON.parse(text)
            } catch {
              json = null
            }
            resolve({ status: res.statusCode ?? 0, json })
          })
          res.on('error', reject)
        },
      )
      req.on('timeout', () => req.destroy(new Error(`${method} ${path}: no answer within ${timeoutMs} ms`)))
      req.on('error', reject)
      req.end(body)
    })
  }

  /** Closes the kept-alive connections. */
  close(): void {
    this.#agent.destroy()
  }
}
