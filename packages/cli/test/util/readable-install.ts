// Test helper (not a test): the CLI binary where another user can run it. A test that runs
// the binary as another user (as root, `nobody`, since permission bits do not stop root) needs
// that user to read the bundle and every package it imports, which a checkout in a private
// folder (a clone in a mode-700 directory, as in a CI job) does not allow.
import { chmodSync, cpSync, existsSync, lstatSync, mkdtempSync, readdirSync, readFileSync, realpathSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, dirname, join, relative } from 'node:path'

/**
 * Copies the CLI's bin/, its bundle (dist/bundle: the @frontdesk packages are inlined) and
 * the third-party packages it depends on, transitively, into a new directory under the temp
 * folder, in the repository's layout and readable by every user. Resolves to the directory
 * and the binary's path in it; the caller deletes the directory.
 */
export function readableInstall(root: string): { dir: string; bin: string } {
  const dir = mkdtempSync(join(tmpdir(), 'frontdesk-readable-cli-'))
  const cli = join(root, 'packages/cli')
  for (const part of ['package.json', 'bin', 'dist/bundle']) cpSync(join(cli, part), join(dir, 'packages/cli', part), { recursive: true })
  for (const [from, name] of dependencies(cli)) {
    const inside = relative(root, from)
    const to = inside.startsWith('..') ? join(dir, 'node_modules', name) : join(dir, inside)
    // Hint: a package nested in another's node_modules came with it.
    if (!existsSync(to)) cpSync(from, to, { recursive: true, verbatimSymlinks: true, filter: (path) => !buildLeftover(path) })
  }
  readableByAll(dir)
  return { dir, bin: join(dir, 'packages/cli/bin/frontdesk.js') }
}

/** The folders (and names) of the packages `dir`'s package needs at run time, resolved as Node does (up the node_modules folders). */
function dependencies(dir: string, found = new Map<string, string>()): Map<string, string> {
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { dependencies?: Record<string, string>; optionalDependencies?: Record<string, string> }
  for (const name of Object.keys({ ...manifest.dependencies, ...manifest.optionalDependencies })) {
    if (name.startsWith('@frontdesk/')) continue
    const at = resolvePackage(name, dir)
    if (at === null || found.has(at)) continue
    found.set(at, name)
    dependencies(at, found)
  }
  return found
}

/** What compiling a native addon left beside it and running it does not need: its C sources (`deps/` beside binding.gyp), objects and archives. */
function buildLeftover(path: string): boolean {
  const name = basename(path)
  return ['obj', 'obj.target', '.deps'].includes(name) || /\.[ao]$/.test(name) || (name === 'deps' && existsSync(join(dirname(path), 'binding.gyp')))
}

function resolvePackage(name: string, from: string): string | null {
  for (let dir = from; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name)
    if (existsSync(join(candidate, 'package.json'))) return realpathSync(candidate)
    if (dirname(dir) === dir) return null
  }
}

/** Adds read permission for all (and search, to folders and executables) under `dir`, whatever the installer's umask was. */
function readableByAll(dir: string): void {
  chmodSync(dir, 0o755)
  for (const name of readdirSync(dir, { recursive: true })) {
    const path = join(dir, String(name))
    const { mode } = lstatSync(path)
    if ((mode & 0o170000) !== 0o120000) chmodSync(path, mode | 0o444 | (mode & 0o100 ? 0o111 : 0))
  }
}
