// A crash of a uvu run (which uvu cannot catch: an 'error' event nobody listens to, an
// unhandled rejection, a wait on a promise nothing settles, a throw in an after hook) says
// which file and test were running, and the run still fails as before; a run without one is
// unchanged.
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { testEnv, UVU_FLAGS, UVU_PRELOAD } from '../scripts/test-env.mjs'

const root = fileURLToPath(new URL('..', import.meta.url))
const uvu = JSON.stringify(join(root, 'node_modules/uvu/dist/index.mjs'))

/** Runs uvu as `npm test` does over a passing file and one whose second test is `body` (and whose after hook is `after`). */
function crashing(body: string, after = ''): { status: number | null; stdout: string; stderr: string } {
  const dir = mkdtempSync(join(tmpdir(), 'frontdesk-crash-report-'))
  try {
    writeFileSync(join(dir, 'a.test.mjs'), `import { suite } from ${uvu}\nconst s = suite('calm')\ns('passes', () => {})\ns.run()\n`)
    writeFileSync(join(dir, 'b.test.mjs'), `import { suite } from ${uvu}\nconst s = suite('stormy')\ns('passes too', () => {})\ns('the culprit', async () => {\n${body}\n})\ns('never run', () => {})\ns.after(() => {\n${after}\n})\ns.run()\n`)
    const run = spawnSync(process.execPath, [...UVU_PRELOAD, join(root, 'node_modules/uvu/bin.js'), dir, '\\.test\\.mjs$', ...UVU_FLAGS], {
      cwd: root, encoding: 'utf8', timeout: 20_000, env: testEnv(process.env),
    })
    return { status: run.status, stdout: run.stdout, stderr: run.stderr }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

const culprit = 'in b.test.mjs, suite "stormy", test "the culprit"'

test('an error event nobody listens to: the file, suite, test and stack are said last, and the run fails', () => {
  const run = crashing(`const emitter = new (await import('node:events')).EventEmitter()
  setTimeout(() => emitter.emit('error', new Error('nobody listens')), 5)
  await new Promise((resolve) => setTimeout(resolve, 200))`)
  assert.is(run.status, 1, run.stderr)
  assert.not.match(run.stdout, /Total:/)
  assert.match(run.stderr, /Error: nobody listens\n\s+at /)
  assert.match(run.stderr, `The test process crashed with an uncaught exception ${culprit}`)
  assert.match(run.stderr.trim().split('\n').slice(-2).join('\n'), /crashed with an uncaught exception .*\nExiting early/, 'said at the very end, where a report that keeps the end of the output still has it')
})

test('an unhandled rejection, a wait on nothing and a throwing after hook say where they happened too', () => {
  const rejected = crashing(`void Promise.reject(new Error('floating'))
  await new Promise((resolve) => setTimeout(resolve, 200))`)
  assert.is(rejected.status, 1, rejected.stderr)
  assert.match(rejected.stderr, /Error: floating/)
  assert.match(rejected.stderr, `The test process crashed with an unhandled rejection ${culprit}`)
  const stranded = crashing('await new Promise(() => {})')
  assert.is(stranded.status, 1, stranded.stderr)
  assert.match(stranded.stderr, `The test process exited while its tests were still running, ${culprit}`)
  const hook = crashing('', "throw new Error('a broken after hook')")
  assert.is(hook.status, 1, hook.stderr)
  assert.match(hook.stderr, /Error: a broken after hook/)
  assert.match(hook.stderr, 'The test process exited while its tests were still running, in b.test.mjs, suite "stormy", in a before/after hook')
})

test('a run that does not crash is as before', () => {
  const run = crashing(`await new Promise((resolve) => setTimeout(resolve, 5))
  if (!({ __test__: 'x' }).__test__) throw new Error('a property named as uvu\\'s is still an ordinary one')`)
  assert.is(run.status, 0, run.stdout + run.stderr)
  assert.match(run.stdout, /Passed:\s+4/)
  assert.is(run.stderr, '')
})

test.run()
