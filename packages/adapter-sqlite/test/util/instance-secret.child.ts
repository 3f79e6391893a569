// Child process for the instance-secret race: `instance-secret.child.ts <db path> <candidate>`
// opens (creating and migrating) the store, prints `ready`, waits for a line on stdin, then
// asks for the secret `cursor-hmac` with its own candidate and prints `secret <value>`.
import { createInterface } from 'node:readline'
import { openSqliteStore } from '../../src/sqlite-store.ts'

const [path, candidate] = process.argv.slice(2)
if (path === undefined || candidate === undefined) throw new Error('usage: instance-secret.child <db path> <candidate>')
const store = openSqliteStore({ path })
process.stdout.write('ready\n')
const lines = createInterface({ input: process.stdin })
for await (const _ of lines) break
lines.close()
process.stdout.write(`secret ${await store.instanceSecret('cursor-hmac', candidate)}\n`)
await store.close()
