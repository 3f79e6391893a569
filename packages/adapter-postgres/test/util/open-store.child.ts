// A child process for the adapter tests: opens the store at the URL of argv[2] (migrating it
// if needed), prints "open" and the schema version, and closes it.
import { openPostgresStore } from '../../src/postgres-store.ts'

const url = process.argv[2]
if (url === undefined) throw new Error('usage: open-store.child.ts URL')
const store = await openPostgresStore({ url })
await store.ping()
process.stdout.write('open\n')
await store.close()
