/*
 * A request that holds an `Idempotency-Key` and never finishes, in a process of its own, for
 * the kill -9 test of `inquiry-durability.test.ts`: `node --conditions=source --import tsx
 * claim-holder.child.ts <db> <api-key> <idempotency-key> <body-json>`, where `<db>` is a SQLite
 * file or a `postgres://` URL. It runs `createInquiry` on a real store whose inquiry write
 * never lands (as a request waiting for a lock would), prints `HELD` once the claim is stored,
 * and renews it as long as it lives. The parent kills it with SIGKILL.
 */
import { openPostgresStore } from '@frontdesk/adapter-postgres'
import { openSqliteStore } from '@frontdesk/adapter-sqlite'
import type { Store } from '@frontdesk/core'
import { createFrontdesk } from '@frontdesk/core'

const [db, apiKey, idempotencyKey, body] = process.argv.slice(2)
if (db === undefined || apiKey === undefined || idempotencyKey === undefined || body === undefined) {
  process.stderr.write('usage: claim-holder.child.ts <db> <api-key> <idempotency-key> <body-json>\n')
  process.exit(2)
}
const store: Store = db.startsWith('postgres://') ? await openPostgresStore({ url: db }) : openSqliteStore({ path: db })
const stuck = new Proxy(store, {
  get(target, name) {
    const value = Reflect.get(target, name, target) as unknown
    if (typeof value !== 'function') return value
    if (name === 'insertInquiry') return () => new Promise(() => {})
    if (name !== 'claimIdempotencyKey') return value.bind(target)
    return async (...args: unknown[]) => {
      const claim = await (value as (...a: unknown[]) => Promise<{ state: string }>).apply(target, args)
      process.stdout.write(claim.state === 'claimed' ? 'HELD\n' : `NOT HELD ${claim.state}\n`)
      return claim
    }
  },
})
const frontdesk = createFrontdesk({ store: stuck })
const principal = await frontdesk.authenticate({ apiKey, authorization: false }, 'inquiry:create')
void frontdesk.createInquiry(principal, JSON.parse(body), idempotencyKey)
// Hint: if the parent dies without killing us, do not linger.
process.stdin.on('end', () => process.exit(0))
process.stdin.resume()
