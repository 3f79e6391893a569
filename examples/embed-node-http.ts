// Embedding frontdesk in an existing node:https service, next to the service's own routes.
//
//   npm install /path/to/frontdesk/dist-packages/*.tgz tsx   # `npm run pack` in the checkout first
//   # once published: npm install @frontdesk/core @frontdesk/adapter-sqlite @frontdesk/search @frontdesk/http @frontdesk/cli tsx
//   npx frontdesk --db ./frontdesk.db tenant create acme   # the CLI makes the database, tenants, keys, imports
//   FRONTDESK_DB=./frontdesk.db TLS_CERT=cert.pem TLS_KEY=key.pem PORT=8443 npx tsx examples/embed-node-http.ts
//
// (tsx runs TypeScript as it is; compile it with tsc for production.) In this repository
// `npm install` builds the packages and the same command works. cert.pem and key.pem are your
// certificate, or one for localhost made as the README's embedding section shows (openssl);
// without TLS_CERT/TLS_KEY it uses the development certificate `frontdesk serve --dev-cert` makes
// (.frontdesk/ beside the database; clients trust .frontdesk/dev-ca.pem, as the log line says).
// The service keeps `/` and `/healthz` for itself; `/v1/...` is frontdesk's, served with the
// same checks, errors and headers as `frontdesk serve`.
import { readFileSync } from 'node:fs'
import type { IncomingMessage, ServerResponse } from 'node:http'
import * as https from 'node:https'
import type { AddressInfo } from 'node:net'
import { dirname, join } from 'node:path'
import { openSqliteStore } from '@frontdesk/adapter-sqlite'
import { createFrontdesk } from '@frontdesk/core'
import { createHandler, ensureDevCert, formatAccessLog } from '@frontdesk/http'
import { createSearchEngine, directorySnapshots } from '@frontdesk/search'

const dbPath = process.env.FRONTDESK_DB ?? './frontdesk.db'
const store = openSqliteStore({ path: dbPath })
// The search index is kept in memory, restored at start from the snapshots `frontdesk import` wrote.
const search = createSearchEngine({ store, snapshots: directorySnapshots(`${dbPath}.search`) })
const frontdesk = createFrontdesk({
  store,
  search,
  // Your own reaction to new inquiries (a mail, a queue message…), called after the 201.
  hooks: { onInquiryCreated: (inquiry) => console.error(`new inquiry ${inquiry.id}`) },
})

// The access log goes wherever the service's logs go; here, JSON lines on stdout.
const api = createHandler(frontdesk, { onAccess: (entry) => process.stdout.write(formatAccessLog(entry)) })

/** The service's own routes. */
async function ownRoutes(request: IncomingMessage, response: ServerResponse): Promise<void> {
  const path = (request.url ?? '/').split('?')[0]
  if (path === '/') {
    response.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' })
    response.end('Hello from the host service. The content API lives under /v1/.\n')
    return
  }
  if (path === '/healthz') {
    // The host's health check includes frontdesk's database and search engine.
    const { status } = await frontdesk.health()
    response.writeHead(status === 'ok' ? 200 : 503, { 'content-type': 'application/json' })
    response.end(JSON.stringify({ status, service: 'host' }))
    return
  }
  response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' })
  response.end('Not found\n')
}

/** Your certificate, or else the development certificate `frontdesk serve --dev-cert` uses (for localhost only). */
async function certificate(): Promise<{ cert: string | Buffer; key: string | Buffer }> {
  if (process.env.TLS_CERT !== undefined && process.env.TLS_KEY !== undefined) return { cert: readFileSync(process.env.TLS_CERT), key: readFileSync(process.env.TLS_KEY) }
  const dev = await ensureDevCert(join(dirname(dbPath), '.frontdesk'))
  console.log(`development certificate: clients trust its CA ${dev.caPath}`)
  return { cert: dev.cert, key: dev.key }
}
const tls = await certificate()

const server = https.createServer({ ...tls, minVersion: 'TLSv1.2' }, (request, response) => {
  // frontdesk takes /v1 and /v1/...; everything else falls through to `next`.
  api(request, response, () => {
    ownRoutes(request, response).catch(() => response.destroy())
  })
})

server.listen(Number(process.env.PORT ?? 8443), process.env.HOST ?? '127.0.0.1', () => {
  const { address, port } = server.address() as AddressInfo
  console.log(`listening on https://${address}:${port}/ (frontdesk under /v1/)`)
})

// Graceful stop: finish requests in flight, then close the search index and the database.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    server.close(async () => {
      await search.close()
      await store.close()
      console.log('stopped')
    })
    server.closeIdleConnections()
  })
}
