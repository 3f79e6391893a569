// Bundles the CLI into packages/cli/dist/cli.js (run by `npm install` and `npm test`).
// Workspace packages (@frontdesk/*) are bundled from their TypeScript source, compiled once
// ahead of time, so that start-up never pays for transpiling; third-party packages stay
// external (resolved from node_modules at run time). Code splitting keeps lazily imported
// modules (SQLite, the HTTP server) in their own chunks: `--help` and usage errors load
// neither, and each command loads only what it uses.
import { build } from 'esbuild'
import { existsSync, readdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'

const entry = new URL('../packages/cli/src/main.ts', import.meta.url).pathname
const outdir = new URL('../packages/cli/dist', import.meta.url).pathname
if (!existsSync(entry)) {
  console.log('build: packages/cli/src/main.ts not found yet, skipping')
  process.exit(0)
}
const result = await build({
  entryPoints: { cli: entry },
  outdir,
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  splitting: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  conditions: ['source'],
  plugins: [{
    name: 'external-dependencies',
    setup(b) {
      b.onResolve({ filter: /^[^./]/ }, (args) =>
        args.path.startsWith('@frontdesk/') ? undefined : { path: args.path, external: true })
    },
  }],
  sourcemap: 'linked',
  logLevel: 'warning',
  metafile: true,
})
// Hint: chunks of earlier builds are removed only after this one is written, so that the
// CLI is never left without its files while it is being rebuilt.
const written = new Set(Object.keys(result.metafile.outputs).map((file) => join(process.cwd(), file)))
const chunks = join(outdir, 'chunks')
for (const name of existsSync(chunks) ? readdirSync(chunks) : []) {
  const file = join(chunks, name)
  if (!written.has(file)) rmSync(file, { force: true })
}
