import { readFileSync } from 'node:fs'
import * as https from 'node:https'
import type { AddressInfo } from 'node:net'

/*
 * The ceiling: a bare `node:https` server answering every request with the same 1 KB JSON
 * body, over the same certificate and keep-alive settings as frontdesk. Run as its own
 * process (forked with an IPC channel): argv = cert file, key file. Sends `{ port }` once
 * listening; exits when the parent goes away.
 */

const [certPath, keyPath] = process.argv.slice(2)
if (certPath === undefined || keyPath === undefined) throw new Error('usage: ceiling-server.ts CERT KEY')

/** A JSON body of exactly 1024 bytes, shaped like an API reply. */
function oneKilobyte(): Buffer {
  const base = { id: 'cnt_ceiling', title: 'A fixed answer', body: '' }
  const padding = 1024 - Buffer.byteLength(JSON.stringify(base))
  return Buffer.from(JSON.stringify({ ...base, body: 'x'.repeat(padding) }))
}

const body = oneKilobyte()
const server = https.createServer({ cert: readFileSync(certPath), key: readFileSync(keyPath), minVersion: 'TLSv1.2', keepAliveTimeout: 5_000 }, (req, res) => {
  // Read (and drop) any request body before answering, as a real handler must.
  req.resume()
  req.on('end', () => {
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length })
    res.end(body)
  })
})
server.keepAliveTimeout = 5_000
server.listen(0, '127.0.0.1', () => {
  process.send?.({ port: (server.address() as AddressInfo).port })
})
process.on('disconnect', () => process.exit(0))
process.on('SIGTERM', () => process.exit(0))
