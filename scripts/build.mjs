// Builds every workspace package (run by `npm install`, by each package's `prepack`, and by
// `npm test`). `node scripts/build.mjs [--clean]`.
//
// 1. Each workspace (from the root package.json's `workspaces`) that has a
//    `tsconfig.build.json` is compiled by tsc into its `dist/`: ESM JavaScript, `.d.ts` and
//    source maps. Its `references` must name exactly the workspace packages it depends on
//    (checked here), so that `tsc -b` builds them first and rebuilds dependants when they
//    change. Up-to-date packages are skipped (`dist/tsconfig.build.tsbuildinfo`); outputs
//    whose source file is gone are removed. A new package needs only its own package.json
//    and tsconfig.build.json (see DESIGN.md, "Build and packages").
// 2. The CLI is also bundled with esbuild into packages/cli/dist/bundle/cli.js, which the
//    `frontdesk` binary runs: the @frontdesk/* packages are compiled into it from their
//    TypeScript source, so that start-up loads a few chunks instead of ~250 modules (see
//    DESIGN.md for the measurement). Third-party packages stay external and must therefore
//    be dependencies of @frontdesk/cli itself (checked here). Code splitting keeps lazily
//    imported modules (SQLite, the HTTP server) in their own chunks.
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))
const clean = process.argv.includes('--clean')

/** Bundles built after the packages: `entry` and `outdir` are relative to the package. */
const BUNDLES = [{ dir: 'packages/cli', entry: 'src/main.ts', name: 'cli', outdir: 'dist/bundle' }]

/** Dependency kinds that must be built first (devDependencies are for tests only). */
const BUILD_DEPENDENCY_KINDS = ['dependencies', 'peerDependencies', 'optionalDependencies']

function fail(message) {
  console.error(`build: ${message}`)
  process.exit(1)
}

async function load(name) {
  try {
    return await import(name)
  } catch {
    fail(`${name} is not installed; run \`npm install\` (with dev dependencies) at the repository root`)
  }
}

/** The workspace packages: `{ dir, manifest, config }` (config: path of tsconfig.build.json or null). */
function workspaces() {
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
  const dirs = []
  for (const pattern of manifest.workspaces ?? []) {
    if (pattern.endsWith('/*')) {
      const parent = pattern.slice(0, -2)
      for (const name of readdirSync(join(root, parent)).sort()) {
        if (existsSync(join(root, parent, name, 'package.json'))) dirs.push(`${parent}/${name}`)
      }
    } else if (existsSync(join(root, pattern, 'package.json'))) {
      dirs.push(pattern)
    }
  }
  return dirs.map((dir) => {
    const config = join(root, dir, 'tsconfig.build.json')
    return { dir, manifest: JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8')), config: existsSync(config) ? config : null }
  })
}

/** Refuses a package whose tsconfig references differ from its workspace dependencies. */
function checkReferences(ts, packages) {
  const byName = new Map(packages.map((p) => [p.manifest.name, p]))
  const problems = []
  for (const p of packages) {
    if (p.config === null) continue
    const read = ts.readConfigFile(p.config, ts.sys.readFile)
    if (read.error) fail(ts.flattenDiagnosticMessageText(read.error.messageText, '\n'))
    const referenced = new Set((read.config.references ?? []).map((r) => relative(root, join(dirname(p.config), r.path)).replace(/\/tsconfig\.build\.json$/, '')))
    const needed = new Set()
    for (const kind of BUILD_DEPENDENCY_KINDS) {
      for (const name of Object.keys(p.manifest[kind] ?? {})) {
        const dependency = byName.get(name)
        if (dependency?.config) needed.add(dependency.dir)
      }
    }
    const missing = [...needed].filter((d) => !referenced.has(d))
    const extra = [...referenced].filter((d) => !needed.has(d))
    if (missing.length > 0) problems.push(`${p.dir}/tsconfig.build.json must reference ${missing.map((d) => `{ "path": "${relative(p.dir, d)}/tsconfig.build.json" }`).join(', ')} (a dependency in package.json)`)
    if (extra.length > 0) problems.push(`${p.dir}/tsconfig.build.json references ${extra.join(', ')}, which its package.json does not depend on`)
  }
  if (problems.length > 0) fail(problems.join('\n'))
}

/** Removes what tsc emitted for source files that no longer exist (tsc never deletes). */
function removeStaleOutputs(dir, skip) {
  const dist = join(root, dir, 'dist')
  const walk = (folder) => {
    for (const name of existsSync(folder) ? readdirSync(folder) : []) {
      const file = join(folder, name)
      if (skip.has(file)) continue
      if (statSync(file).isDirectory()) {
        walk(file)
        continue
      }
      const base = /^(.*)\.(?:js|js\.map|d\.ts|d\.ts\.map)$/.exec(relative(dist, file))?.[1]
      if (base === undefined) continue
      if (!existsSync(join(root, dir, 'src', `${base}.ts`))) rmSync(file)
    }
    if (folder !== dist && readdirSync(folder).length === 0) rmSync(folder, { recursive: true })
  }
  walk(dist)
}

async function compilePackages(packages) {
  const { default: ts } = await load('typescript')
  checkReferences(ts, packages)
  const configs = packages.filter((p) => p.config !== null)
  if (clean) for (const p of configs) rmSync(join(root, p.dir, 'dist'), { recursive: true, force: true })
  const host = ts.createSolutionBuilderHost(ts.sys, undefined, (diagnostic) => {
    console.error(ts.formatDiagnosticsWithColorAndContext([diagnostic], { getCanonicalFileName: (f) => f, getCurrentDirectory: () => root, getNewLine: () => '\n' }))
  })
  const status = ts.createSolutionBuilder(host, configs.map((p) => p.config), {}).build()
  if (status !== ts.ExitStatus.Success) fail('tsc reported errors (above)')
  for (const p of configs) {
    const skip = new Set(BUNDLES.filter((b) => b.dir === p.dir).map((b) => join(root, b.dir, b.outdir)))
    removeStaleOutputs(p.dir, skip)
  }
}

/** The package name of a bare import (`minisearch/SearchableMap` → `minisearch`), or null for builtins. */
function packageOf(path) {
  if (path.startsWith('node:')) return null
  const parts = path.split('/')
  return path.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]
}

async function bundle(packages, spec) {
  const { build } = await load('esbuild')
  const { builtinModules } = await import('node:module')
  const owner = packages.find((p) => p.dir === spec.dir)
  const outdir = join(root, spec.dir, spec.outdir)
  const result = await build({
    absWorkingDir: root,
    entryPoints: { [spec.name]: join(root, spec.dir, spec.entry) },
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
    write: false,
  })
  for (const file of result.outputFiles) writeIfChanged(file.path, file.contents)
  // Every third-party package the bundle imports is resolved from @frontdesk/cli's own
  // node_modules once installed, so it must be one of its dependencies (not only of the
  // @frontdesk package the bundle inlined).
  const declared = owner?.manifest.dependencies ?? {}
  const missing = new Set()
  for (const output of Object.values(result.metafile.outputs)) {
    for (const imported of output.imports) {
      if (!imported.external) continue
      const name = packageOf(imported.path)
      if (name !== null && !builtinModules.includes(name) && declared[name] === undefined) missing.add(name)
    }
  }
  if (missing.size > 0) {
    const ranges = [...missing].map((name) => {
      const range = packages.map((p) => p.manifest.dependencies?.[name]).find((r) => r !== undefined)
      return `"${name}": "${range ?? '…'}"`
    })
    fail(`${spec.dir}/package.json must list ${ranges.join(', ')} in its dependencies: the bundle in ${spec.outdir} imports them`)
  }
  // Hint: chunks of earlier builds are removed only after this one is written, so that the
  // CLI is never left without its files while it is being rebuilt.
  const written = new Set(Object.keys(result.metafile.outputs).map((file) => join(root, file)))
  const chunks = join(outdir, 'chunks')
  for (const name of existsSync(chunks) ? readdirSync(chunks) : []) {
    const file = join(chunks, name)
    if (!written.has(file)) rmSync(file, { force: true })
  }
}

/**
 * Writes `path` only when its bytes change, and then whole at once (a new file renamed over
 * the old): the tests run the CLI while other tests, in another test run, build it again.
 */
function writeIfChanged(path, contents) {
  if (existsSync(path) && readFileSync(path).equals(contents)) return
  mkdirSync(dirname(path), { recursive: true })
  const staged = `${path}.${process.pid}.tmp`
  writeFileSync(staged, contents)
  renameSync(staged, path)
}

const packages = workspaces()
await compilePackages(packages)
for (const spec of BUNDLES) {
  if (existsSync(join(root, spec.dir, spec.entry))) await bundle(packages, spec)
}
