// A service the tests need that is missing costs its own tests only: when PostgreSQL could not
// start, its tests are skipped, saying why, and every other test of the run still runs and
// counts; when it cannot be reached, its tests fail, and the run still ends with its count (no
// teardown assumes a setup that did not happen). `npm test` sums the skips by reason.
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { skipsOf, skipSummary, testEnv, UVU_FLAGS, UVU_PRELOAD } from '../scripts/test-env.mjs'

const root = fileURLToPath(new URL('..', import.meta.url))
const test = suite('a missing service')

/**
 * Runs uvu as `npm test` does over one file that imports `modules` (paths from the root, with
 * a query as on-postgres.test.ts gives them), in `env`, and returns what it printed.
 */
function runUvu(modules: string[], env: Record<string, string>): { status: number | null; stdout: string; stderr: string } {
  const dir = mkdtempSync(join(tmpdir(), 'frontdesk-missing-service-'))
  try {
    const imports = modules.map((module) => `await import(${JSON.stringify(pathToFileURL(join(root, module.split('?')[0] ?? '')).href + (module.includes('?') ? `?${module.split('?')[1]}` : ''))})`)
    writeFileSync(join(dir, 'run.test.mjs'), `${imports.join('\n')}\n`)
    const { FRONTDESK_TEST_PG_URL: _url, FRONTDESK_TEST_PG_UNAVAILABLE: _why, ...rest } = process.env
    const run = spawnSync(process.execPath, ['--conditions=source', '--import', 'tsx', ...UVU_PRELOAD, join(root, 'node_modules/uvu/bin.js'), dir, 'run\\.test\\.mjs$', ...UVU_FLAGS], {
      cwd: root, encoding: 'utf8', timeout: 120_000, env: testEnv({ ...rest, ...env }),
    })
    return { status: run.status, stdout: run.stdout, stderr: run.stderr }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

const count = (output: string, what: string): number => Number(new RegExp(`${what}:\\s+(\\d+)`).exec(output)?.[1] ?? NaN)

test('PostgreSQL that could not start: its tests are skipped with the reason, the others run and count', () => {
  const why = 'PostgreSQL could not start (a test of the runner)'
  const run = runUvu(['packages/http/test/content-api.test.ts?store=postgres', 'packages/adapter-postgres/src/bulk-load.test.ts', 'packages/http/test/routing.test.ts'], { FRONTDESK_TEST_PG_UNAVAILABLE: why })
  assert.is(run.status, 0, run.stdout + run.stderr)
  assert.ok(count(run.stdout, 'Total') > 0, 'the SQLite tests ran')
  assert.is(count(run.stdout, 'Passed'), count(run.stdout, 'Total'), run.stdout)
  const onPostgres = Number(/^ {2}content API over HTTPS \(PostgreSQL\): (\d+) skipped: (.*)$/m.exec(run.stdout)?.[1])
  assert.ok(onPostgres > 0, run.stdout)
  assert.match(run.stdout, `  content API over HTTPS (PostgreSQL): ${onPostgres} skipped: ${why}`)
  const skips = skipsOf(run.stdout)
  assert.ok(skips.total > onPostgres, 'bulk-load.test.ts skipped too')
  assert.equal([...skips.byReason], [[why, skips.total]])
  assert.is(skipSummary(skips.byReason), `Skipped ${skips.total}: ${skips.total} because ${why}`)
})

test('PostgreSQL that could not start: every test that needs it, in every package, is skipped with the reason, none fails', () => {
  // Hint: the files that run tests on PostgreSQL only: the adapter's, and those importing the
  // behaviour tests with `?store=postgres`. A suite made without `postgresSuite` (or a
  // `behaviourSuite` over it) fails in its hooks here instead of saying why it is skipped.
  const why = 'PostgreSQL could not start (a test of the runner, every package)'
  const { FRONTDESK_TEST_PG_URL: _url, ...rest } = process.env
  const run = spawnSync(process.execPath, ['--conditions=source', '--import', 'tsx', ...UVU_PRELOAD, join(root, 'node_modules/uvu/bin.js'), 'packages', '(adapter-postgres/.*|on-postgres|postgres-[a-z-]+)\\.test\\.ts$', ...UVU_FLAGS], {
    cwd: root, encoding: 'utf8', timeout: 120_000, env: testEnv({ ...rest, FRONTDESK_TEST_PG_UNAVAILABLE: why, FRONTDESK_NO_MEMO: '0' }),
  })
  assert.is(run.status, 0, run.stdout + run.stderr)
  assert.is(count(run.stdout, 'Passed'), count(run.stdout, 'Total'), run.stdout)
  const skips = skipsOf(run.stdout)
  assert.ok(skips.total > 200, `${skips.total} skipped`)
  assert.equal([...skips.byReason], [[why, skips.total]], 'each skip says why')
})

test('PostgreSQL that cannot be reached: its tests fail, and the run still ends with its count', () => {
  // Hint: a URL given is used as given; nothing listens on port 9 (discard) of 127.0.0.1 here.
  const run = runUvu(['packages/http/test/content-api.test.ts?store=postgres', 'packages/http/test/routing.test.ts'], { FRONTDESK_TEST_PG_URL: 'postgres://postgres:none@127.0.0.1:9/postgres' })
  assert.not.match(run.stderr, /Exiting early/, run.stderr)
  assert.not.match(run.stderr, /Cannot read properties of undefined/, run.stderr)
  const onPostgres = Number(/content API over HTTPS \(PostgreSQL\)\s+\(0 \/ (\d+)\)/.exec(run.stdout)?.[1])
  assert.ok(onPostgres > 0, `none of the tests on PostgreSQL passed: ${run.stdout}`)
  assert.match(run.stdout, /routing\s+[• ]+\((\d+) \/ \1\)/, 'the SQLite tests after them ran and passed')
  assert.is(count(run.stdout, 'Total') - count(run.stdout, 'Passed'), onPostgres, 'the summary counts every test')
})

test('skips are summed by reason, the most common first; skips that printed none are said so', () => {
  const output = [
    '  a (PostgreSQL): 25 skipped: PostgreSQL could not start (spawnSync /x/initdb EACCES)',
    '  memos off: skipped "a case: with a colon": it checks what a memo keeps',
    '  b: 3 skipped: PostgreSQL could not start (spawnSync /x/initdb EACCES)',
    '',
    '  Total:     10',
    '  Passed:    10',
    '  Skipped:   30',
  ].join('\n')
  const { total, byReason } = skipsOf(output)
  assert.is(total, 30)
  assert.is(skipSummary(byReason), 'Skipped 30: 28 because PostgreSQL could not start (spawnSync /x/initdb EACCES); 1 because it checks what a memo keeps; 1 (reason not printed)')
  assert.is(skipsOf('  Total:     3\n  Passed:    3\n  Skipped:   0\n').total, 0)
  const cut = skipsOf(output.slice(0, output.indexOf('  Total:')))
  assert.is(cut.total, 0, 'a run stopped before its summary skipped nothing')
  assert.is(cut.byReason.size, 0)
})

test.run()
