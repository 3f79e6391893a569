// The HTTP behaviour tests once more, on PostgreSQL: each file below is imported again with
// `?store=postgres`, which its `startTestServer` calls read (see `storeOf`). Files that test
// SQLite itself (WAL, files, faults) or search (no engine on PostgreSQL yet) are not listed.
const BEHAVIOUR = [
  'content-api', 'inquiry-create', 'inquiry-categories', 'inquiry-durability', 'preview-api', 'response-headers', 'hardening-last-used',
  'rate-limit', 'product-differential',
]

for (const name of BEHAVIOUR) await import(new URL(`./${name}.test.ts?store=postgres`, import.meta.url).href)
