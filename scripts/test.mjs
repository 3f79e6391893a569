// `npm test`: build the packages, type-check the repo, run every package's uvu tests under c8,
// run them all again with every memo and cache switched off (FRONTDESK_NO_MEMO=1: each memo
// must change speed only), check core's coverage, pack and install the packages outside the
// repository (test/), and end with one line `N passed, N failed` (read by CI).
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { NO_MEMO, testEnv, UVU_FLAGS } from './test-env.mjs'
import { withTestPostgres } from './test-postgres.mjs'

const root = fileURLToPath(new URL('..', import.meta.url))
const pattern = process.argv[2] ?? '\\.test\\.ts$'
let passed = 0
let failed = 0

function step(name, command, args, { parse, env = {} } = {}) {
  console.log(`\n── ${name}`)
  const started = performance.now()
  const result = spawnSync(command, args, {
    cwd: root,
    encoding: 'utf8',
    stdio: parse ? ['inherit', 'pipe', 'inherit'] : 'inherit',
    env: { ...testEnv(process.env), ...env },
  })
  if (parse) process.stdout.write(result.stdout)
  console.log(`   (${((performance.now() - started) / 1000).toFixed(1)} s)`)
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

const uvu = [process.execPath, '--conditions=source', '--import', 'tsx', 'node_modules/uvu/bin.js', 'packages', pattern, ...UVU_FLAGS]
const runs = await withTestPostgres(() => [
  step(
    'tests (uvu under c8)',
    bin('c8'),
    ['--all', '--reporter=text-summary', '--reporter=html', '--reports-dir=coverage', '--include=packages/*/src/**', ...EXCLUDE, ...uvu],
    // Hint: memos on, whatever the caller's environment says; the second run switches them off.
    { parse: true, env: { [NO_MEMO]: '0' } },
  ),
  step(`tests again with every memo and cache off (${NO_MEMO}=1, not under c8)`, uvu[0], uvu.slice(1), { parse: true, env: { [NO_MEMO]: '1' } }),
])
for (const run of runs) count(run)

/** Adds a uvu run's summary to the tally. */
function count(run) {
  const total = Number(/Total:\s+(\d+)/.exec(run.stdout)?.[1] ?? 0)
  const ok = Number(/Passed:\s+(\d+)/.exec(run.stdout)?.[1] ?? 0)
  const skipped = Number(/Skipped:\s+(\d+)/.exec(run.stdout)?.[1] ?? 0)
  // Hint: uvu's Total counts the tests that ran; skipped ones (each states its reason) are apart.
  passed += ok
  failed += total - ok
  if (skipped > 0) console.log(`(${skipped} skipped)`)
  // A crash before uvu's summary still has to count as a failure.
  if (run.status !== 0 && total - ok === 0) failed++
}

if (pattern === '\\.test\\.ts$') {
  const coverage = step('coverage of packages/core (lines ≥ 90 %)', bin('c8'), [
    'check-coverage', '--all', '--lines=90', '--include=packages/core/src/**', ...EXCLUDE,
  ])
  coverage.status === 0 ? passed++ : failed++
}

// Not under c8: it runs the packed dist/ in child processes outside the repository.
const packed = step(
  'packed packages installed outside the repository (test/)',
  process.execPath,
  ['--import', 'tsx', 'node_modules/uvu/bin.js', 'test', pattern, ...UVU_FLAGS],
  { parse: true },
)
count(packed)

console.log(`\n${passed} passed, ${failed} failed`)
process.exit(failed === 0 ? 0 : 1)
