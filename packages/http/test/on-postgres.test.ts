// The HTTP behaviour tests once more, on PostgreSQL: each file below is imported again with
// `?store=postgres`, which its `startTestServer` calls read (see `storeOf`). Files that test
// SQLite itself (WAL, files, its faults) or only the transport (TLS, connection limits, the
// handshake) are not listed; PostgreSQL's own faults are in postgres-faults.test.ts.
const BEHAVIOUR = [
  'content-api', 'inquiry-create', 'inquiry-categories', 'inquiry-durability', 'preview-api', 'response-headers', 'hardening-last-used',
  'rate-limit', 'auth', 'routing', 'request-body', 'hardening-tenant-isolation', 'openapi-conformance', 'search-api', 'ops-access-log',
  'hardening-unwanted-bodies', 'hardening-fuzz', 'ops-shutdown', 'product-differential',
]

for (const name of BEHAVIOUR) await import(new URL(`./${name}.test.ts?store=postgres`, import.meta.url).href)
