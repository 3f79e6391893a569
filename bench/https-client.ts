import * as https from 'node:https'

/** An answer as the benchmark's checks read it. */
export interface Answer {
  status: number
  /** Parsed JSON, or `null` when the body is not JSON. */
  json: unknown
}

/** An answer as sent: status, headers and the body's bytes. */
export interface RawAnswer {
  status: number
  headers: Record<string, string>
  body: Buffer
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
  async request(method: string, path: string, body?: string, timeoutMs = 10_000): Promise<Answer> {
    const raw = await this.raw(method, path, body, timeoutMs)
    let json: unknown = null
    try {
      json = JSON.parse(raw.body.toString('utf8'))
    } catch {
      json = null
    }
    return { status: raw.status, json }
  }

  /** Sends one request and returns the answer as it came; rejects on a network error or after `timeoutMs`. */
  raw(method: string, path: string, body?: string, timeoutMs = 10_000): Promise<RawAnswer> {
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
            const headers: Record<string, string> = {}
            for (const [name, value] of Object.entries(res.headers)) if (typeof value === 'string') headers[name] = value
            resolve({ status: res.statusCode ?? 0, headers, body: Buffer.concat(chunks) })
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
