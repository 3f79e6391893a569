// The CLI behaviour tests once more, on PostgreSQL: each file below is imported again with
// `?store=postgres`, which its fixture reads (see `cliFixtureFor`), so that every command runs
// with `--db postgres://…` and must print what it prints on SQLite.
const BEHAVIOUR = ['tenant-key', 'import-export', 'preview', 'inquiry', 'serve', 'demo', 'import-search', 'import-sequences', 'synonyms']

for (const name of BEHAVIOUR) await import(new URL(`./${name}.test.ts?store=postgres`, import.meta.url).href)
