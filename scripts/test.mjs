// `npm test`: build the packages, type-check the repo, run every package's uvu tests under c8,
// run them all again with every memo and cache switched off (FRONTDESK_NO_MEMO=1: each memo
// must change speed only), run the tests that load a server alone on the machine, check core's
// coverage, pack and install the packages outside the repository and run the client on Bun,
// Deno and workerd (test/), and end with one line
// `N passed, N failed` (read by CI), followed by
// `, N skipped` when tests were skipped; the line before says why they were.
//
// A service the tests need that cannot start here (the throwaway PostgreSQL server) costs its
// tests only: they are skipped, saying why, and every other test runs and counts.
//
// Every step has a time limit, and the whole run one (CI allows 20 minutes, `npm ci`
// included; a full run takes 15.5-16, its two test runs side by side 12.5-14 each on this
// 2-core virtual machine, whose speed moves by a quarter from day to day): a step still running
// at its limit is killed with every process it started and counts as failed, and the steps left
// when the run's time is up count as failed without running, so that the last line is always
// printed. The two runs' limit leaves the steps after them (~1.5 minutes) just the run's time
// they need: a slow day spends the rest on the runs rather than fail them at a limit of their own.
//
//   node scripts/test.mjs [PATTERN]                        the steps, tests matching PATTERN
//   node scripts/test.mjs --step-guard MS COMMAND ARGS…    one step, within MS (see guard)
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { spawn, spawnSync } from 'node:child_process'
import { once } from 'node:events'
import { fileURLToPath } from 'node:url'
import { NO_MEMO, skipsOf, skipSummary, testEnv, UVU_FLAGS, UVU_PRELOAD } from './test-env.mjs'
import { UNAVAILABLE, withTestPostgres } from './test-postgres.mjs'

const SELF = fileURLToPath(import.meta.url)
const GUARD = '--step-guard'
/** The guard's exit code for a step stopped at its time limit (as GNU timeout's). */
const TIMED_OUT = 124
/** The time of the whole run, its steps' own limits aside. */
const RUN_MINUTES = 17.5
/** The limit of each of the two test runs side by side: what RUN_MINUTES leaves once the steps before and after them (~1.5 minutes) have theirs. */
const TEST_RUN_MINUTES = 15.5
/** How much of a run's stderr is kept to be shown again when the run ends without its summary. */
const STDERR_KEPT = 4000

if (process.argv[2] === GUARD) await guard(Number(process.argv[3]), process.argv[4], process.argv.slice(5))

const root = fileURLToPath(new URL('..', import.meta.url))
const pattern = process.argv[2] ?? '\\.test\\.ts$'
const deadline = Date.now() + RUN_MINUTES * 60_000
const timedOut = []
/** What failed, said again just before the last line, since a CI log is often read from its end. */
const failures = []
let passed = 0
let failed = 0
/** Skipped tests by reason, over every uvu run. */
const skipped = new Map()

/**
 * Runs a step, for `minutes` at most and not past the run's deadline. The result has
 * `timedOut` set when the step was stopped at its limit, or not run for want of time.
 */
function step(name, command, args, { parse, env = {}, minutes }) {
  console.log(`\n── ${name}`)
  const ms = stepTime(name, minutes)
  if (ms === null) return { name, status: null, stdout: '', timedOut: true }
  const started = performance.now()
  const result = spawnSync(process.execPath, [SELF, GUARD, String(ms), command, ...args], {
    cwd: root,
    encoding: 'utf8',
    stdio: parse ? ['inherit', 'pipe', 'inherit'] : 'inherit',
    env: { ...testEnv(process.env), ...env },
    // Hint: only if the guard itself stopped answering; it ends the step at `ms`.
    timeout: ms + 60_000,
    killSignal: 'SIGKILL',
  })
  if (parse) process.stdout.write(result.stdout ?? '')
  return finished(name, ms, started, { name, ...result, late: result.status === TIMED_OUT || result.error?.code === 'ETIMEDOUT' })
}

/**
 * Runs a step beside others, as `step` does; what it prints to stdout is kept and printed
 * under its heading when it ends, so that two runs' reports do not interleave (their stderr,
 * failures' details, goes out as it comes).
 */
async function stepBeside(name, command, args, { env = {}, minutes }) {
  console.log(`\n── ${name}: started`)
  const ms = stepTime(name, minutes)
  if (ms === null) return { name, status: null, stdout: '', timedOut: true }
  const started = performance.now()
  const child = spawn(process.execPath, [SELF, GUARD, String(ms), command, ...args], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...testEnv(process.env), ...env },
  })
  let stdout = ''
  let stderr = ''
  child.stdout.setEncoding('utf8').on('data', (chunk) => (stdout += chunk))
  child.stderr.setEncoding('utf8').on('data', (chunk) => {
    process.stderr.write(chunk)
    stderr = (stderr + chunk).slice(-STDERR_KEPT)
  })
  // Hint: only if the guard itself stopped answering; it ends the step at `ms`.
  const backstop = setTimeout(() => child.kill('SIGKILL'), ms + 60_000)
  const [status, signal] = await once(child, 'close')
  clearTimeout(backstop)
  console.log(`\n── ${name}`)
  process.stdout.write(stdout)
  return finished(name, ms, started, { name, status, stdout, stderr, late: status === TIMED_OUT || signal === 'SIGKILL' })
}

/** The time a step starting now may take, or null (said, and counted) when the run's time is up. */
function stepTime(name, minutes) {
  const ms = Math.min(minutes * 60_000, deadline - Date.now())
  if (ms >= 1000) return ms
  console.log(`   NOT RUN: the run's ${RUN_MINUTES} minutes are up`)
  timedOut.push(`${name} (not run)`)
  return null
}

/** Says how a step ended and how long it took. */
function finished(name, ms, started, { late, ...result }) {
  if (late) {
    console.log(`\n   TIMED OUT: ${name}, still running after ${Math.round(ms / 1000)} s, was killed with every process it started`)
    timedOut.push(name)
  }
  console.log(`   (${((performance.now() - started) / 1000).toFixed(1)} s)`)
  return { ...result, timedOut: late }
}

/**
 * The step guard: runs `command` in a process group of its own and exits with its exit code,
 * or TIMED_OUT once `ms` have passed. The whole group is killed, at the limit and when the step
 * ends: a SIGKILL of the step's process alone would leave its children running (c8 runs uvu,
 * which runs the tests' processes), and a process left holding the step's stdout keeps
 * spawnSync, and so the run, waiting. The tests' throwaway PostgreSQL servers are in the group;
 * their watchdogs are detached, outlive it and delete what a killed test left behind.
 */
async function guard(ms, command, args) {
  const child = spawn(command, args, { stdio: 'inherit', detached: true })
  const group = (signal) => {
    try {
      process.kill(-child.pid, signal)
    } catch {
      // Every process of the group has ended.
    }
  }
  // Hint: a group of its own no longer gets the terminal's Ctrl+C; the guard passes it on.
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => group(signal))
  let late = false
  const timer = setTimeout(() => {
    late = true
    group('SIGKILL')
  }, ms)
  const [code] = await once(child, 'exit')
  clearTimeout(timer)
  group('SIGKILL')
  process.exit(late ? TIMED_OUT : code ?? 1)
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

const built = step('build', process.execPath, ['scripts/build.mjs'], { minutes: 4 })
tally(built)

const typed = step('typecheck (tsc --noEmit)', bin('tsc'), ['-p', 'tsconfig.json'], { minutes: 4 })
tally(typed)

/**
 * Test files that bound a new client's latency while other processes load the server (a
 * keep-alive flood, slow readers): beside the other run on a 2-core machine they would time the
 * neighbour's tests as much as the server, so they run once, in a step of their own, after the
 * two runs (memos do not touch what they measure). Paths as uvu names them, under packages/.
 */
const ALONE = ['http/test/hardening-flood.test.ts', 'http/test/hardening-slow-readers.test.ts']
const alone = `(?:${ALONE.map((file) => file.replace(/[.]/g, '\\.')).join('|')})$`
/** The uvu command for the test files under packages/ that match `pattern` and `only` (a regular expression). */
const uvuOf = (only) => [process.execPath, '--conditions=source', '--import', 'tsx', ...UVU_PRELOAD, 'node_modules/uvu/bin.js', 'packages', `^${only}[\\s\\S]*?(?:${pattern})`, ...UVU_FLAGS]
const uvu = uvuOf(`(?!${alone})`)
// Where each run's preload writes how long its test files took (`uvu-crash-report.mjs`).
const TIMES = 'FRONTDESK_TEST_TIMES'
const timesDir = mkdtempSync(join(tmpdir(), 'frontdesk-test-times-'))
const timesOf = [join(timesDir, 'c8.json'), join(timesDir, 'no-memo.json')]

/** One line per run: its slowest test files, so that a run near its time limit says where the time goes. */
function slowest(names, files) {
  return names
    .map((name, i) => {
      let times = []
      try {
        times = JSON.parse(readFileSync(files[i] ?? '', 'utf8'))
      } catch {
        return `Slowest test files (${name}): not known`
      }
      const total = times.reduce((sum, [, ms]) => sum + ms, 0)
      const top = times.sort((a, b) => b[1] - a[1]).slice(0, 8).map(([file, ms]) => `${file} ${(ms / 1000).toFixed(0)} s`)
      return `Slowest test files (${name}, ${(total / 1000).toFixed(0)} s in all): ${top.join(', ')}`
    })
    .join('\n')
}
/** Why PostgreSQL is missing (it could not start), or null: the last step's test of it says so too. */
let postgresMissing = null
const runs = await withTestPostgres(() => {
  postgresMissing = process.env[UNAVAILABLE] ?? null
  // Hint: the two runs go side by side, one per core: each is one uvu process (plus the servers
  // its tests start) that spends much of its time waiting on them, and one after the other they
  // would not fit in CI's 20 minutes.
  return Promise.all([
    stepBeside(
      'tests (uvu under c8)',
      bin('c8'),
      ['--all', '--reporter=text-summary', '--reporter=html', '--reports-dir=coverage', '--include=packages/*/src/**', ...EXCLUDE, ...uvu],
      // Hint: memos on, whatever the caller's environment says; the second run switches them off.
      { env: { [NO_MEMO]: '0', [TIMES]: timesOf[0] }, minutes: TEST_RUN_MINUTES },
    ),
    stepBeside(`tests again with every memo and cache off (${NO_MEMO}=1, not under c8)`, uvu[0], uvu.slice(1), { env: { [NO_MEMO]: '1', [TIMES]: timesOf[1] }, minutes: TEST_RUN_MINUTES }),
  ])
})
for (const run of runs) count(run)
const loaded = step('tests that load a server, alone on the machine', process.execPath, uvuOf(`(?=${alone})`).slice(1), { parse: true, env: { [NO_MEMO]: '0' }, minutes: 3 })
count(loaded)
console.log(`\n${slowest(['tests under c8', 'tests without memos'], timesOf)}`)
rmSync(timesDir, { recursive: true, force: true })

/** Counts a step that is one check: it passed or it did not. */
function tally(result) {
  if (result.status === 0) return passed++
  failed++
  failures.push(`${result.name}: ${result.timedOut ? 'stopped at its time limit' : `exit code ${result.status}`}`)
}

/** Adds a uvu run's summary to the tally. */
function count(run) {
  const total = Number(/Total:\s+(\d+)/.exec(run.stdout)?.[1] ?? 0)
  const ok = Number(/Passed:\s+(\d+)/.exec(run.stdout)?.[1] ?? 0)
  // Hint: uvu's Total counts the tests that ran; skipped ones (each states its reason) are apart.
  passed += ok
  failed += total - ok
  const skips = skipsOf(run.stdout ?? '')
  if (skips.total > 0) console.log(skipSummary(skips.byReason))
  for (const [reason, n] of skips.byReason) skipped.set(reason, (skipped.get(reason) ?? 0) + n)
  // A crash before uvu's summary still has to count as a failure, and so does a run stopped
  // at its time limit, whatever it had printed.
  const output = run.stdout ?? ''
  for (const line of output.split('\n')) if (/^\s*FAIL\s/.test(line)) failures.push(`${run.name}: ${line.trim()}`)
  if (run.timedOut || (run.status !== 0 && total - ok === 0)) {
    failed++
    const why = run.timedOut ? 'stopped at its time limit' : `ended with exit code ${run.status} before all its tests had passed`
    const tail = `${output.slice(-1500)}\n${run.stderr ?? ''}`.trim().split('\n').slice(-25).join('\n')
    failures.push(`${run.name}: ${why}${/Total:/.test(output) ? '' : ', without a summary'}; the end of what it printed:\n${tail}`)
  }
}

if (pattern === '\\.test\\.ts$') {
  const coverage = step('coverage of packages/core (lines ≥ 90 %)', bin('c8'), [
    'check-coverage', '--all', '--lines=90', '--include=packages/core/src/**', ...EXCLUDE,
  ], { minutes: 2 })
  tally(coverage)
}

// Not under c8: it runs the packed dist/ in child processes outside the repository.
const packed = step(
  'packed packages installed outside the repository, the client on Bun, Deno and workerd (test/)',
  process.execPath,
  ['--import', 'tsx', ...UVU_PRELOAD, 'node_modules/uvu/bin.js', 'test', pattern, ...UVU_FLAGS],
  { parse: true, env: postgresMissing === null ? {} : { [UNAVAILABLE]: postgresMissing }, minutes: 6 },
)
count(packed)

if (timedOut.length > 0) console.log(`\nOut of time: ${timedOut.join('; ')}`)
if (failures.length > 0) console.log(`\nFailed:\n${failures.map((f) => `  ${f}`).join('\n')}`)
const skips = [...skipped.values()].reduce((sum, n) => sum + n, 0)
if (skips > 0) console.log(`\n${skipSummary(skipped)}`)
console.log(`\n${passed} passed, ${failed} failed${skips > 0 ? `, ${skips} skipped` : ''}`)
process.exit(failed === 0 ? 0 : 1)
