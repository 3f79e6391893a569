// What `npm test` itself prints around the tests: nothing of its own making.
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { testEnv, UVU_FLAGS } from '../scripts/test-env.mjs'

const root = fileURLToPath(new URL('..', import.meta.url))

test('a process started by a test under npm test prints no NO_COLOR/FORCE_COLOR warning', () => {
  const dir = mkdtempSync(join(tmpdir(), 'frontdesk-test-env-'))
  try {
    writeFileSync(
      join(dir, 'child.test.mjs'),
      `import { spawnSync } from 'node:child_process'
import { test } from ${JSON.stringify(join(root, 'node_modules/uvu/dist/index.mjs'))}
test('a child', () => {
  const child = spawnSync(process.execPath, ['-e', 'console.log({ logged: true })'], { encoding: 'utf8' })
  if (child.stderr !== '') throw new Error('child stderr: ' + child.stderr)
})
test.run()
`,
    )
    const env = testEnv({ ...process.env, FORCE_COLOR: '1' })
    const run = spawnSync(process.execPath, [join(root, 'node_modules/uvu/bin.js'), dir, 'child', ...UVU_FLAGS], { env, encoding: 'utf8', timeout: 20_000 })
    assert.is(run.status, 0, run.stdout + run.stderr)
    assert.match(run.stdout, /Passed:\s+1/)
    assert.not.match(run.stdout + run.stderr, /Warning/)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

test.run()
