/*
 * A frontdesk HTTPS server as a child process, for the hardening tests that count the server's
 * sockets and file descriptors (`/proc/<pid>/fd`) or load it from another process:
 * `node --conditions=source --import tsx server.child.ts '<json>'` where the JSON holds
 * `{ db, cert, key, server? }` (`server`: `createServer` options). It listens on 127.0.0.1 (a
 * free port), prints `READY <port>`, and exits when its stdin closes (the parent went away).
 */
import { readFileSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { openSqliteStore } from '@frontdesk/adapter-sqlite'
import { createFrontdesk } from '@frontdesk/core'
import type { ServerOptions } from '@frontdesk/http'
import { createServer, LISTEN_BACKLOG } from '@frontdesk/http'

const config = JSON.parse(process.argv[2] ?? '{}') as { db: string; cert: string; key: string; server?: ServerOptions }
const frontdesk = createFrontdesk({ store: openSqliteStore({ path: config.db }) })
const tls = { cert: readFileSync(config.cert, 'utf8'), key: readFileSync(config.key, 'utf8') }
const server = createServer(frontdesk, { tls }, { onError: () => {}, ...config.server })
server.listen({ port: 0, host: '127.0.0.1', backlog: LISTEN_BACKLOG }, () => {
  process.stdout.write(`READY ${(server.address() as AddressInfo).port}\n`)
})
process.stdin.on('end', () => process.exit(0))
process.stdin.resume()
