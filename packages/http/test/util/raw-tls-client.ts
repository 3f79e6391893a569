import * as tls from 'node:tls'

/** A response as read off the wire. */
export interface RawResponse {
  status: number
  /** Header names lower-cased; repeated ones joined with `, `. */
  headers: Record<string, string>
  /** The body bytes (chunked encoding decoded). */
  body: Buffer
}

/**
 * Sends `bytes` as they are over a new TLS connection to 127.0.0.1:`port` (trusting `ca`,
 * resuming the last TLS session to save handshakes), and reads one HTTP/1.1 response until
 * the server closes the connection or `timeoutMs` passes. `null` when no response came.
 */
export function rawTlsClient(port: number, ca: string) {
  let session: Buffer | undefined
  return function send(bytes: Buffer, timeoutMs = 15_000): Promise<RawResponse | null> {
    return new Promise((resolve, reject) => {
      const socket = tls.connect({ host: '127.0.0.1', port, ca, servername: 'localhost', ...(session === undefined ? {} : { session }) })
      const chunks: Buffer[] = []
      let settled = false
      const timer = setTimeout(() => finish(new Error('no response in time')), timeoutMs)
      const finish = (error: Error | null) => {
        if (settled) return
        settled = true
        clearTimeout(timer)
        socket.destroy()
        if (error !== null) return reject(error)
        resolve(parseResponse(Buffer.concat(chunks)))
      }
      socket.on('session', (data: Buffer) => void (session = data))
      socket.on('secureConnect', () => socket.end(bytes))
      socket.on('data', (chunk: Buffer) => {
        chunks.push(chunk)
        const parsed = parseResponse(Buffer.concat(chunks))
        if (parsed !== null && parsed.complete) finish(null)
      })
      // A reset after the response was read is the server closing early: what counts is the response.
      socket.on('error', (error) => (chunks.length > 0 ? finish(null) : finish(error)))
      socket.on('close', () => finish(null))
    })
  }
}

function parseResponse(raw: Buffer): (RawResponse & { complete: boolean }) | null {
  // Interim responses (100 Continue) come first; the final one follows.
  while (/^HTTP\/1\.[01] 1\d\d /.test(raw.subarray(0, 16).toString('latin1'))) {
    const interim = raw.indexOf('\r\n\r\n')
    if (interim < 0) return null
    raw = raw.subarray(interim + 4)
  }
  const end = raw.indexOf('\r\n\r\n')
  if (end < 0) return null
  const lines = raw.subarray(0, end).toString('latin1').split('\r\n')
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(lines[0] ?? '')?.[1] ?? 0)
  const headers: Record<string, string> = {}
  for (const line of lines.slice(1)) {
    const colon = line.indexOf(':')
    if (colon < 0) continue
    const name = line.slice(0, colon).trim().toLowerCase()
    const value = line.slice(colon + 1).trim()
    headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`
  }
  const rest = raw.subarray(end + 4)
  if (headers['transfer-encoding']?.includes('chunked')) {
    const body: Buffer[] = []
    let at = 0
    for (;;) {
      const lineEnd = rest.indexOf('\r\n', at)
      if (lineEnd < 0) return { status, headers, body: Buffer.concat(body), complete: false }
      const size = parseInt(rest.subarray(at, lineEnd).toString('latin1'), 16)
      if (Number.isNaN(size)) return { status, headers, body: Buffer.concat(body), complete: true }
      if (size === 0) return { status, headers, body: Buffer.concat(body), complete: true }
      if (rest.length < lineEnd + 2 + size) return { status, headers, body: Buffer.concat(body), complete: false }
      body.push(rest.subarray(lineEnd + 2, lineEnd + 2 + size))
      at = lineEnd + 2 + size + 2
    }
  }
  const length = headers['content-length'] === undefined ? null : Number(headers['content-length'])
  const complete = length === null ? false : rest.length >= length || status === 304 || status === 204
  return { status, headers, body: length === null ? rest : rest.subarray(0, length), complete }
}
