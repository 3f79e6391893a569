// The tests of several server processes once more, on PostgreSQL: each file below is imported
// again with `?store=postgres`, which it reads to run its servers with `--db postgres://…`.
const BEHAVIOUR = ['several-processes', 'webhooks']

for (const name of BEHAVIOUR) await import(new URL(`./${name}.test.ts?store=postgres`, import.meta.url).href)
