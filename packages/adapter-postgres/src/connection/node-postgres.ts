import { createRequire } from 'node:module'
import type pg from 'pg'

/**
 * node-postgres, loaded so that its start-up probe stays cheap: when it is loaded, it asks
 * whether it runs on Cloudflare Workers, and on a Node.js without `navigator` (20) it does so
 * by constructing a fetch `Response`, which loads Node's whole fetch stack (undici, HTTP/2, web
 * streams): ~25 ms of CPU and ~8 MB on every process that opens a PostgreSQL store, a third of
 * a one-item `frontdesk import`'s module loading. A `navigator` that is not Cloudflare's,
 * present only while the module loads (as Node.js 21+ has one anyway), answers the probe first.
 */
function load(): typeof pg {
  const require = createRequire(import.meta.url)
  if ('navigator' in globalThis) return require('pg') as typeof pg
  Object.defineProperty(globalThis, 'navigator', { value: { userAgent: `Node.js/${process.versions.node}` }, configurable: true, writable: true })
  try {
    return require('pg') as typeof pg
  } finally {
    delete (globalThis as { navigator?: unknown }).navigator
  }
}

const { Client, Pool } = load()
export { Client, Pool }
