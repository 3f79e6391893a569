// Bundles the CLI into packages/cli/dist/cli.js (run by `npm install` and `npm test`).
// Dependencies stay external: only our own TypeScript is compiled, once, ahead of time.
import { build } from 'esbuild'
import { existsSync } from 'node:fs'

const entry = new URL('../packages/cli/src/main.ts', import.meta.url).pathname
if (!existsSync(entry)) {
  console.log('build: packages/cli/src/main.ts not found yet, skipping')
  process.exit(0)
}
await build({
  entryPoints: [entry],
  outfile: new URL('../packages/cli/dist/cli.js', import.meta.url).pathname,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  conditions: ['source'],
  // Workspace packages are bundled from source; third-party packages stay external.
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
