/*
 * A frontdesk HTTPS server as a child process, for the durability tests of
 * `inquiry-durability.test.ts`: `node --conditions=source --import tsx inquiry-server.child.ts
 * <db> <cert.pem> <key.pem>`, where `<db>` is a SQLite file or a `postgres://` URL. It listens on 127.0.0.1 (a free port) and prints `READY <port>`.
 * The parent kills it with SIGKILL, so it has no shutdown path on purpose.
 */
import { readFileSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { openPostgresStore } from '@frontdesk/adapter-postgres'
import { openSqliteStore } from '@frontdesk/adapter-sqlite'
import { createFrontdesk } from '@frontdesk/core'
import { createServer } from '@frontdesk/http'

const [db, certFile, keyFile] = process.argv.slice(2)
if (db === undefined || certFile === undefined || keyFile === undefined) {
  process.stderr.write('usage: inquiry-server.child.ts <db> <cert.pem> <key.pem>\n')
  process.exit(2)
}
const store = db.startsWith('postgres://') ? await openPostgresStore({ url: db }) : openSqliteStore({ path: db })
const frontdesk = createFrontdesk({ store })
const server = createServer(frontdesk, { tls: { cert: readFileSync(certFile, 'utf8'), key: readFileSync(keyFile, 'utf8') } }, { onError: () => {} })
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`READY ${(server.address() as AddressInfo).port}\n`)
})
// Hint: if the parent dies without killing us, do not linger.
process.stdin.on('end', () => process.exit(0))
process.stdin.resume()
