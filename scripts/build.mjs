// Bundles the CLI into packages/cli/dist/cli.js (run by `npm install` and `npm test`).
// Workspace packages (@frontdesk/*) are bundled from their TypeScript source, compiled once
// ahead of time, so that start-up never pays for transpiling; third-party packages stay
// external (resolved from node_modules at run time). Code splitting keeps lazily imported
// modules (SQLite, the HTTP server) in their own chunks: `--help` and usage errors load
// neither, and each command loads only what it uses.
import { build } from 'esbuild'
import { existsSync, rmSync } from 'node:fs'

const entry = new URL('../packages/cli/src/main.ts', import.meta.url).pathname
const outdir = new URL('../packages/cli/dist', import.meta.url).pathname
if (!existsSync(entry)) {
  console.log('build: packages/cli/src/main.ts not found yet, skipping')
  process.exit(0)
}
rmSync(outdir, { recursive: true, force: true })
await build({
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
})
