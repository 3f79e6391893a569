import { CommanderError } from 'commander'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { ForbiddenError, StorageUnavailableError, UsageError, ValidationError } from '@frontdesk/core'
import { cliFixture } from '../test/util/cli-fixture.ts'
import { errorLine } from './error-line.ts'

const lines = suite('errorLine')

lines('a UsageError prints its message as it is', () => {
  assert.is(errorLine(new UsageError('line 3: slug: must be …', { details: [{ field: 'slug', message: 'must be …' }] })), 'line 3: slug: must be …')
})

lines('a ValidationError prints every detail on the same line', () => {
  const error = new ValidationError([{ field: 'a', message: 'is bad' }, { field: 'b', message: 'is\nworse' }])
  assert.is(errorLine(error), 'Validation failed: a: is bad; b: is worse')
})

lines('other frontdesk errors print their message', () => {
  assert.is(errorLine(new ForbiddenError()), 'Insufficient permissions')
})

lines('storage failing names its driver\'s cause: a full disk, an I/O error, a database gone', () => {
  const cause = (code: string, message: string) => Object.assign(new Error(message), { code })
  assert.is(errorLine(new StorageUnavailableError(undefined, { cause: cause('SQLITE_FULL', 'database or disk is full') })), 'Storage is temporarily unavailable (SQLITE_FULL: database or disk is full)')
  assert.is(errorLine(new StorageUnavailableError(undefined, { cause: cause('57P01', 'terminating connection due to administrator command\nmore') })), 'Storage is temporarily unavailable (57P01: terminating connection due to administrator command)')
  assert.is(errorLine(new StorageUnavailableError(undefined, { cause: cause('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432') })), 'Storage is temporarily unavailable (ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:5432)')
  assert.is(errorLine(new StorageUnavailableError(undefined, { cause: new Error('no code') })), 'Storage is temporarily unavailable')
})

lines('commander errors lose their "error: " prefix', () => {
  assert.is(errorLine(new CommanderError(1, 'commander.missingMandatoryOptionValue', "error: required option '--tenant <code>' not specified")), "required option '--tenant <code>' not specified")
})

lines('file errors name the file and the reason; anything else is unexpected, without details', () => {
  const enoent = Object.assign(new Error('ENOENT: no such file or directory, open /x/y'), { code: 'ENOENT', path: 'in.ndjson' })
  assert.is(errorLine(enoent), 'in.ndjson: no such file or directory')
  assert.is(errorLine(Object.assign(new Error('x'), { code: 'EACCES', path: 'out.json' })), 'out.json: permission denied')
  assert.is(errorLine(Object.assign(new Error('x'), { code: 'EWEIRD' })), 'unexpected error EWEIRD (set FRONTDESK_DEBUG=1 for details)')
  assert.is(errorLine(new TypeError('secret SQL: SELECT * FROM api_keys')), 'unexpected error (set FRONTDESK_DEBUG=1 for details)')
  assert.is(errorLine('a string'), 'unexpected error (set FRONTDESK_DEBUG=1 for details)')
})

lines.run()

const run = suite('main')

run('--help prints usage on stdout and exits 0', async () => {
  const f = cliFixture()
  try {
    const result = await f.run(['--help'], { noDb: true })
    assert.is(result.code, 0)
    assert.match(result.stdout, /^Usage: frontdesk /)
    assert.is(result.stderr, '')
  } finally {
    f.cleanup()
  }
})

run('bare frontdesk prints the usage on stdout and exits 1, as git and npm do', async () => {
  const f = cliFixture()
  try {
    const result = await f.run([], { noDb: true })
    assert.is(result.code, 1)
    assert.match(result.stdout, /^Usage: frontdesk \[options\] \[command\]\n/)
    assert.match(result.stdout, /\n  tenant /)
    assert.is(result.stderr, '')
  } finally {
    f.cleanup()
  }
})

run('a command group without its subcommand is one line on stderr naming the subcommands, exit 1', async () => {
  const f = cliFixture()
  try {
    assert.equal(await f.run(['tenant'], { noDb: true }), { code: 1, stdout: '', stderr: 'frontdesk: tenant needs a subcommand: create, list (see frontdesk tenant --help)\n' })
    assert.equal(await f.run(['--db', f.db, 'preview'], { noDb: true }), { code: 1, stdout: '', stderr: 'frontdesk: preview needs a subcommand: create, revoke (see frontdesk preview --help)\n' })
    const help = await f.run(['tenant', '--help'], { noDb: true })
    assert.is(help.code, 0)
    assert.match(help.stdout, /^Usage: frontdesk tenant \[options\] \[command\]/)
  } finally {
    f.cleanup()
  }
})

run('--version prints the version of packages/cli/package.json and exits 0', async () => {
  const f = cliFixture()
  try {
    const result = await f.run(['--version'], { noDb: true })
    const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }
    assert.is(result.code, 0)
    assert.is(result.stdout, `${version}\n`)
    assert.is(result.stderr, '')
  } finally {
    f.cleanup()
  }
})

run('a database that cannot be opened is one line; FRONTDESK_DEBUG=1 adds the stacks of the error and its cause', async () => {
  const f = cliFixture()
  try {
    const path = join(f.dir, 'missing', 'x.db')
    const result = await f.run(['--db', path, 'tenant', 'list'], { noDb: true })
    assert.equal(result, { code: 1, stdout: '', stderr: `frontdesk: Cannot open the database ${path}: its directory ${join(f.dir, 'missing')} does not exist\n` })
    const debug = await f.run(['--db', path, 'tenant', 'list'], { noDb: true, vars: { FRONTDESK_DEBUG: '1' } })
    assert.match(debug.stderr, /^frontdesk: Cannot open the database [^\n]+\nUsageError: [^\n]+\n\s+at /)
    assert.match(debug.stderr, /\nCaused by: TypeError: Cannot open database/)
    const notDb = await f.run(['--db', f.dir, 'tenant', 'list'], { noDb: true })
    assert.is(notDb.stderr, `frontdesk: Cannot open the database ${f.dir}: it is a directory, not a file\n`)
  } finally {
    f.cleanup()
  }
})

run('a relative --db is resolved against the working directory', async () => {
  const f = cliFixture()
  try {
    assert.is((await f.run(['--db', 'rel.db', 'tenant', 'create', 'acme'], { noDb: true })).code, 0)
    assert.match((await f.run(['tenant', 'list'], { noDb: true, vars: { FRONTDESK_DB: join(f.dir, 'rel.db') } })).stdout, /\nacme /)
  } finally {
    f.cleanup()
  }
})

run.run()
