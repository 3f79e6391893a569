// `npm test`: bundle the CLI, type-check the repo, run every package's uvu tests under c8,
// check core's coverage, and end with one line `N passed, N failed` (read by CI).
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))
const pattern = process.argv[2] ?? '\\.test\\.ts$'
let passed = 0
let failed = 0

function step(name, command, args, { parse } = {}) {
  console.log(`\n── ${name}`)
  const result = spawnSync(command, args, {
    cwd: root,
    encoding: 'utf8',
    stdio: parse ? ['inherit', 'pipe', 'inherit'] : 'inherit',
    env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
  })
  if (parse) process.stdout.write(result.stdout)
  return result
}

// Tests and their helpers are not measured, nor is core's test support (`@frontdesk/core/testing`:
// the conformance suites, the memory store and the reference search run themselves, so they
// would only lift the figure); nor are files of types only (the model and the port
// interfaces), which compile to nothing and would count as uncovered under --all.
const EXCLUDE = [
  '--exclude=**/*.test.ts', '--exclude=**/*.test-util.ts', '--exclude=**/test/**',
  '--exclude=packages/core/src/testing/**',
  '--exclude=packages/core/src/model/**', '--exclude=packages/core/src/port/**',
]

const bin = (name) => `${root}node_modules/.bin/${name}`

const built = step('build', process.execPath, ['scripts/build.mjs'])
built.status === 0 ? passed++ : failed++

const typed = step('typecheck (tsc --noEmit)', bin('tsc'), ['-p', 'tsconfig.json'])
typed.status === 0 ? passed++ : failed++

const tests = step(
  'tests (uvu under c8)',
  bin('c8'),
  [
    '--all', '--reporter=text-summary', '--reporter=html', '--reports-dir=coverage',
    '--include=packages/*/src/**', ...EXCLUDE,
    process.execPath, '--conditions=source', '--import', 'tsx',
    'node_modules/uvu/bin.js', 'packages', pattern,
  ],
  { parse: true },
)
const total = Number(/Total:\s+(\d+)/.exec(tests.stdout)?.[1] ?? 0)
const ok = Number(/Passed:\s+(\d+)/.exec(tests.stdout)?.[1] ?? 0)
const skipped = Number(/Skipped:\s+(\d+)/.exec(tests.stdout)?.[1] ?? 0)
// Hint: uvu's Total counts the tests that ran; skipped ones (each states its reason) are apart.
passed += ok
failed += total - ok
if (skipped > 0) console.log(`(${skipped} skipped)`)
// A crash before uvu's summary still has to count as a failure.
if (tests.status !== 0 && total - ok === 0) failed++

if (pattern === '\\.test\\.ts$') {
  const coverage = step('coverage of packages/core (lines ≥ 90 %)', bin('c8'), [
    'check-coverage', '--all', '--lines=90', '--include=packages/core/src/**', ...EXCLUDE,
  ])
  coverage.status === 0 ? passed++ : failed++
}

console.log(`\n${passed} passed, ${failed} failed`)
process.exit(failed === 0 ? 0 : 1)
