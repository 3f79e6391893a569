import { randomUUID } from 'node:crypto'
import { readFileSync } from 'node:fs'
import type { OutgoingHttpHeaders } from 'node:http'
import * as https from 'node:https'
import type { AddressInfo } from 'node:net'

/*
 * The ceiling: a bare `node:https` server answering every request with the same 1 KB JSON
 * body, over the same certificate and keep-alive settings as frontdesk. Run as its own
 * process (forked with an IPC channel): argv = cert file, key file [, reply file]. Sends
 * `{ port }` once listening; exits when the parent goes away.
 *
 * With a reply file (`RecordedReply` as JSON, written by the benchmark from one real answer of
 * frontdesk), it answers with that reply's status, headers and body instead, and a fresh
 * `x-request-id` each time as frontdesk does: what a server doing no work at all would reach
 * with frontdesk's reply, bytes for bytes, on this machine.
 */

/** One recorded answer: status, headers as sent (Node adds date and connection itself), body. */
export interface RecordedReply {
  status: number
  headers: Record<string, string>
  bodyBase64: string
}

const [certPath, keyPath, replyPath] = process.argv.slice(2)
if (certPath === undefined || keyPath === undefined) throw new Error('usage: ceiling-server.ts CERT KEY [REPLY]')

/** A JSON body of exactly 1024 bytes, shaped like an API reply. */
function oneKilobyte(): Buffer {
  const base = { id: 'cnt_ceiling', title: 'A fixed answer', body: '' }
  const padding = 1024 - Buffer.byteLength(JSON.stringify(base))
  return Buffer.from(JSON.stringify({ ...base, body: 'x'.repeat(padding) }))
}

const recorded = replyPath === undefined ? null : (JSON.parse(readFileSync(replyPath, 'utf8')) as RecordedReply)
const body = recorded === null ? oneKilobyte() : Buffer.from(recorded.bodyBase64, 'base64')
const status = recorded?.status ?? 200
const fixedHeaders: Record<string, string> = recorded?.headers ?? { 'content-type': 'application/json; charset=utf-8' }
const hasRequestId = 'x-request-id' in fixedHeaders

const server = https.createServer({ cert: readFileSync(certPath), key: readFileSync(keyPath), minVersion: 'TLSv1.2', keepAliveTimeout: 5_000 }, (req, res) => {
  // Read (and drop) any request body before answering, as a real handler must.
  req.resume()
  req.on('end', () => {
    const headers: OutgoingHttpHeaders = { ...fixedHeaders, 'content-length': body.length }
    if (hasRequestId) headers['x-request-id'] = randomUUID()
    res.writeHead(status, headers)
    res.end(body)
  })
})
server.keepAliveTimeout = 5_000
server.listen(0, '127.0.0.1', () => {
  process.send?.({ port: (server.address() as AddressInfo).port })
})
process.on('disconnect', () => process.exit(0))
process.on('SIGTERM', () => process.exit(0))
