// `npm run pack`: packs every workspace package (each one's `prepack` builds it) into one
// folder, ./dist-packages (or `npm run pack -- --out DIR`), first removing the tarballs an
// earlier run left there, so that a service installs them all, from a checkout, with
//   npm install /path/to/frontdesk/dist-packages/*.tgz
// (the way to install while the packages are not on the npm registry).
import { spawnSync } from 'node:child_process'
import { mkdirSync, readdirSync, rmSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))
const at = process.argv.indexOf('--out')
const out = resolve(at === -1 ? join(root, 'dist-packages') : (process.argv[at + 1] ?? 'dist-packages'))
mkdirSync(out, { recursive: true })
for (const name of readdirSync(out)) if (/^frontdesk-.*\.tgz$/.test(name)) rmSync(join(out, name))
const packed = spawnSync('npm', ['pack', '--workspaces', '--pack-destination', out, '--json', '--loglevel=error'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] })
if (packed.status !== 0) {
  process.stderr.write(`npm pack failed (${packed.status ?? packed.signal})\n`)
  process.exit(1)
}
const files = JSON.parse(packed.stdout).map((p) => p.filename)
process.stdout.write(`${files.map((file) => join(out, file)).join('\n')}\n\nInstall them in a service's directory with:\n  npm install ${join(out, '*.tgz')}\n`)
