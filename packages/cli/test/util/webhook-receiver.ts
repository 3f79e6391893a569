// Test helper (not a test): an HTTPS webhook receiver on 127.0.0.1 with its own certificate
// (the sender trusts it as its CA), recording every request and answering as the test says.
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http'
import { createServer } from 'node:https'
import type { AddressInfo } from 'node:net'
import { createDevCert } from '@frontdesk/http'
import { Webhook } from 'standardwebhooks'

/** A request the receiver got. */
export interface Received {
  path: string
  headers: IncomingHttpHeaders
  body: string
  /** `performance.now()` when the request had been read. */
  at: number
}

/** How the receiver answers a request. */
export type Behaviour = 'ok' | 'slow' | 'fail' | 'hang' | 'redirect' | 'huge'

export interface Receiver {
  url: (path?: string) => string
  ca: string
  received: Received[]
  /** What the next requests get; `ok` (204) by default. */
  behave: (behaviour: Behaviour | ((req: Received) => Behaviour)) => void
  close: () => Promise<void>
}

/** Starts a receiver. */
export async function startReceiver(): Promise<Receiver> {
  const { cert, key, ca } = await createDevCert()
  const received: Received[] = []
  let decide: (req: Received) => Behaviour = () => 'ok'
  const sockets = new Set<import('node:stream').Duplex>()
  const server = createServer({ cert, key }, (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const got: Received = { path: req.url ?? '/', headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: performance.now() }
      received.push(got)
      switch (decide(got)) {
        case 'ok':
          res.writeHead(204).end()
          return
        case 'slow':
          setTimeout(() => res.writeHead(204).end(), 150)
          return
        case 'fail':
          res.writeHead(500, { 'content-type': 'text/plain' }).end('broken')
          return
        case 'redirect':
          res.writeHead(302, { location: 'https://127.0.0.1:1/elsewhere' }).end()
          return
        case 'hang':
          return
        case 'huge': {
          res.writeHead(200, { 'content-type': 'application/octet-stream' })
          const block = Buffer.alloc(1024 * 1024, 120)
          let sent = 0
          const more = () => {
            while (sent < 10 && res.write(block)) sent++
            if (sent >= 10) res.end()
            else res.once('drain', more)
          }
          res.on('error', () => {})
          more()
        }
      }
    })
  })
  server.on('connection', (socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  return {
    url: (path = '/hook') => `https://127.0.0.1:${port}${path}`,
    ca,
    received,
    behave: (behaviour) => {
      decide = typeof behaviour === 'function' ? behaviour : () => behaviour
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy()
        server.close(() => resolve())
      }),
  }
}

/** Verifies a received delivery with the reference library and returns its payload; throws when the signature does not verify. */
export function verified(secret: string, got: Received): { type: string; timestamp: string; data: Record<string, unknown> } {
  const headers: Record<string, string> = {}
  for (const name of ['webhook-id', 'webhook-timestamp', 'webhook-signature']) headers[name] = String(got.headers[name] ?? '')
  return new Webhook(secret).verify(got.body, headers) as { type: string; timestamp: string; data: Record<string, unknown> }
}
