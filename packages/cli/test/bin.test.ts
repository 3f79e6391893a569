// The real binary, as an operator runs it: `node packages/cli/bin/frontdesk.js …` in a child
// process (the bundle `npm install` / `npm test` builds; rebuilt here first).
import { spawnSync } from 'node:child_process'
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { openSqliteStore } from '@frontdesk/adapter-sqlite'
import { skipCase } from '@frontdesk/core/testing'
import { readableInstall } from './util/readable-install.ts'

const root = fileURLToPath(new URL('../../..', import.meta.url))
const bin = join(root, 'packages/cli/bin/frontdesk.js')

interface Result {
  code: number | null
  stdout: string
  stderr: string
}

function frontdesk(args: string[], options: { input?: string; env?: Record<string, string>; cwd?: string; uid?: number; bin?: string } = {}): Result {
  const result = spawnSync(process.execPath, [options.bin ?? bin, ...args], {
    input: options.input ?? '',
    encoding: 'utf8',
    timeout: 20_000,
    cwd: options.cwd,
    env: { PATH: process.env['PATH'] ?? '', ...options.env },
    ...(options.uid === undefined ? {} : { uid: options.uid, gid: options.uid }),
  })
  return { code: result.status, stdout: result.stdout, stderr: result.stderr }
}

const test = suite<{ dir: string; db: string }>('frontdesk binary', { dir: '', db: '' })
test.before(() => {
  // Hint: always rebuilt, so that the binary matches the source this test opens the database with.
  const built = spawnSync(process.execPath, [join(root, 'scripts/build.mjs')], { encoding: 'utf8', timeout: 60_000 })
  assert.is(built.status, 0, built.stderr)
})
test.before.each((context) => {
  context.dir = mkdtempSync(join(tmpdir(), 'frontdesk-bin-'))
  context.db = join(context.dir, 'frontdesk.db')
})
test.after.each((context) => {
  rmSync(context.dir, { recursive: true, force: true })
})

/** stderr is exactly one line: `frontdesk: <message>`. */
function oneErrorLine(result: Result, message: RegExp): void {
  assert.is(result.code, 1, result.stderr)
  assert.is(result.stdout, '')
  assert.match(result.stderr, /^frontdesk: [^\n]+\n$/, result.stderr)
  assert.match(result.stderr, message, result.stderr)
}

test('--db is accepted before and after the subcommand; $FRONTDESK_DB is the default', ({ db, dir }) => {
  assert.is(frontdesk(['--db', db, 'tenant', 'create', 'acme']).code, 0)
  assert.match(frontdesk(['tenant', 'list', '--db', db]).stdout, /^CODE.*\nacme /)
  assert.match(frontdesk(['tenant', 'list'], { env: { FRONTDESK_DB: db } }).stdout, /\nacme /)
  const elsewhere = join(dir, 'elsewhere')
  mkdirSync(elsewhere)
  assert.is(frontdesk(['tenant', 'list'], { cwd: elsewhere }).stdout, '(no tenants)\n', 'else ./frontdesk.db, created on first use')
  assert.ok(existsSync(join(elsewhere, 'frontdesk.db')))
})

test('errors are one line on stderr with exit code 1: domain, usage, unknown command, bad database', ({ db, dir }) => {
  oneErrorLine(frontdesk(['--db', db, 'key', 'list', '--tenant', 'nope']), /Unknown tenant: nope/)
  oneErrorLine(frontdesk(['--db', db, 'key', 'create', '--tenant', 'acme']), /required option '--name <name>' not specified/)
  oneErrorLine(frontdesk(['--db', db, 'tenant', 'remove', 'acme']), /unknown command 'remove'/)
  oneErrorLine(frontdesk(['--db', db, 'tenant', 'create', 'Bad Code']), /Invalid tenant: code: must be/)
  oneErrorLine(frontdesk(['--db', db, 'tenant', 'list', 'extra']), /too many arguments/)
  const unopenable = frontdesk(['--db', join(dir, 'missing-dir', 'x.db'), 'tenant', 'list'])
  oneErrorLine(unopenable, /^frontdesk: /)
  assert.not.match(unopenable.stderr, /\n\s+at /, 'no stack')
})

// Hint: permission bits do not stop root, so as root the binary runs as `nobody` for these,
// from a copy it can read (see readableInstall), in a folder it can enter.
const NOBODY = 65534
const asRoot = process.getuid?.() === 0
/** Why `nobody` cannot run Node here (as root), or null. */
const nodeForNobody = asRoot ? unrunnable(spawnSync(process.execPath, ['-e', ''], { uid: NOBODY, gid: NOBODY, cwd: tmpdir(), timeout: 20_000 })) : null

function unrunnable(probe: ReturnType<typeof spawnSync>): string | null {
  return probe.status === 0 ? null : `as root the binary runs as nobody, who cannot run ${process.execPath} (${probe.error?.message ?? `exit code ${probe.status}`})`
}

const READ_ONLY = 'serve and every command on a read-only database or folder name the file and the cause, in one line'
if (nodeForNobody !== null) skipCase(test, 'frontdesk binary', READ_ONLY, nodeForNobody)
else test(READ_ONLY, ({ db, dir }) => {
  assert.is(frontdesk(['--db', db, 'tenant', 'create', 'acme']).code, 0)
  const copy = asRoot ? readableInstall(root) : null
  // Coverage (c8) is not collected from these runs: Node hands NODE_V8_COVERAGE to every child
  // unless it is set, and `nobody` cannot write to c8's folder.
  const asOther = copy === null ? {} : { uid: NOBODY, env: { NODE_V8_COVERAGE: '' }, bin: copy.bin, cwd: copy.dir }
  try {
    if (copy !== null) for (const file of [db, `${db}-wal`, `${db}-shm`]) if (existsSync(file)) chownSync(file, NOBODY, NOBODY)
    chmodSync(dir, 0o555)
    const served = frontdesk(['--db', join(dir, 'fresh.db'), 'serve', '--behind-proxy', '--port', '0'], asOther)
    oneErrorLine(served, new RegExp(`^frontdesk: Cannot open the database ${dir}/fresh\\.db: its directory ${dir} is not writable for this user \\(SQLite creates fresh\\.db-wal and fresh\\.db-shm beside the database\\)\\n$`))
    chmodSync(dir, 0o755)
    chmodSync(db, 0o444)
    for (const args of [['serve', '--behind-proxy', '--port', '0'], ['tenant', 'list']]) {
      const result = frontdesk(['--db', db, ...args], asOther)
      oneErrorLine(result, new RegExp(`^frontdesk: Cannot open the database ${db}: ${db} is read-only for this user \\(frontdesk writes to the database, its -wal and its -shm file, even to read\\)\\n$`))
      assert.not.match(result.stderr, /unexpected|SQLITE_/)
    }
    oneErrorLine(frontdesk(['--db', join(dir, 'missing', 'x.db'), 'serve', '--behind-proxy', '--port', '0']), /: its directory \S+\/missing does not exist\n$/)
  } finally {
    chmodSync(dir, 0o700)
    if (copy !== null) rmSync(copy.dir, { recursive: true, force: true })
  }
})

test('a new database file, its -wal and its -shm are readable by their owner only (0600)', ({ db }) => {
  assert.is(frontdesk(['--db', db, 'tenant', 'create', 'acme']).code, 0)
  assert.is(statSync(db).mode & 0o777, 0o600)
  const store = openSqliteStore({ path: db })
  try {
    for (const file of [`${db}-wal`, `${db}-shm`]) assert.is(statSync(file).mode & 0o777, 0o600, file)
  } finally {
    void store.close()
  }
})

test('key create --json prints exactly id, key, name, permissions, kind, created_at', ({ db }) => {
  frontdesk(['--db', db, 'tenant', 'create', 'acme'])
  const result = frontdesk(['--db', db, 'key', 'create', '--tenant', 'acme', '--name', 'web', '--permissions', 'cms:read,cms:search', '--json'])
  assert.is(result.code, 0, result.stderr)
  const body = JSON.parse(result.stdout) as Record<string, unknown>
  assert.equal(Object.keys(body), ['id', 'key', 'name', 'permissions', 'kind', 'created_at'])
  assert.match(String(body['key']), /^fdk_[0-9A-Za-z]{38}$/)
  assert.equal(body['permissions'], ['cms:read', 'cms:search'])
})

test('an import failing on its last record leaves the database logically unchanged', async ({ db, dir }) => {
  frontdesk(['--db', db, 'tenant', 'create', 'acme'])
  const good = [
    { kind: 'category', code: 'news', name: 'News' },
    { kind: 'content', slug: 'kept', title: 'Kept', category_code: 'news', status: 'published' },
  ]
  assert.is(frontdesk(['--db', db, 'import', '-', '--tenant', 'acme'], { input: good.map((r) => JSON.stringify(r)).join('\n') }).code, 0)
  const before = await snapshot(db)
  const file = join(dir, 'bad.ndjson')
  const lines = [
    { kind: 'category', code: 'blog', name: 'Blog' },
    { kind: 'tag', name: 'new-tag' },
    { kind: 'content', slug: 'kept', title: 'Changed', category_code: 'blog', tags: ['other'] },
    ...Array.from({ length: 50 }, (_, i) => ({ kind: 'content', slug: `n-${i}`, title: `N ${i}`, category_code: 'blog' })),
    { kind: 'content', slug: 'last', title: 'Last', category_code: 'blog', status: 'gone' },
  ]
  writeFileSync(file, lines.map((r) => JSON.stringify(r)).join('\n') + '\n')
  const result = frontdesk(['--db', db, 'import', file, '--tenant', 'acme'])
  oneErrorLine(result, /^frontdesk: line 54: status: must be draft or published\n$/)
  assert.equal(await snapshot(db), before)
})

test('Japanese content round-trips through import and export unchanged', ({ db }) => {
  frontdesk(['--db', db, 'tenant', 'create', 'jp'])
  const records = [
    { kind: 'category', id: 'cat-news', code: 'news', name: 'お知らせ', description: '会社からのお知らせ', sort: 0, active: true, fields: [] },
    { kind: 'tag', id: 'tag-1', name: '移転' },
    { kind: 'content', id: 'c-1', slug: 'office-move', title: 'オフィス移転のお知らせ', category_id: 'cat-news', status: 'published', published_at: '2025-06-01T00:00:00.000Z', author_name: '山田 太郎', tags: ['移転'], summary: '本社を移転します。', body: '<p>新しい住所：東京都千代田区🏢</p>', content: {}, meta: { og_title: 'オフィス移転', og_description: '' } },
  ]
  const input = records.map((r) => JSON.stringify(r)).join('\n') + '\n'
  assert.is(frontdesk(['--db', db, 'import', '-', '--tenant', 'jp', '--format', 'ndjson'], { input }).code, 0)
  const exported = frontdesk(['--db', db, 'export', '--tenant', 'jp'])
  assert.is(exported.stdout, input)
})

test('NDJSON from stdin is imported with -', ({ db }) => {
  frontdesk(['--db', db, 'tenant', 'create', 'acme'])
  const input = '{"kind":"tag","name":"a"}\n{"kind":"tag","name":"b"}\n'
  const result = frontdesk(['--db', db, 'import', '-', '--tenant', 'acme', '--json'], { input })
  assert.is(result.code, 0, result.stderr)
  assert.equal((JSON.parse(result.stdout) as { tags: unknown }).tags, { created: 2, updated: 0, unchanged: 0 })
  assert.is(result.stderr, '', 'no progress line on a pipe')
})

test('a reader closing the pipe early stops the export quietly', ({ db }) => {
  frontdesk(['--db', db, 'tenant', 'create', 'acme'])
  const tags = Array.from({ length: 5_000 }, (_, i) => JSON.stringify({ kind: 'tag', name: `a-rather-long-tag-name-to-fill-the-pipe-${i}` })).join('\n')
  assert.is(frontdesk(['--db', db, 'import', '-', '--tenant', 'acme'], { input: tags }).code, 0)
  const result = spawnSync('bash', ['-c', `"${process.execPath}" "${bin}" --db "${db}" export --tenant acme | head -c 10 >/dev/null; echo "\${PIPESTATUS[0]}"`], {
    encoding: 'utf8',
    timeout: 20_000,
  })
  assert.is(result.stdout, '0\n')
  assert.is(result.stderr, '')
})

test('--help prints usage and exits 0', () => {
  const result = frontdesk(['--help'])
  assert.is(result.code, 0)
  assert.match(result.stdout, /Usage: frontdesk \[options\] \[command\]/)
  for (const command of ['tenant', 'key', 'import', 'export', 'content']) assert.match(result.stdout, new RegExp(`\\n  ${command}\\b`))
})

/** Every record of every tenant, as the store reads them (versions and timestamps included). */
async function snapshot(path: string): Promise<unknown> {
  const store = openSqliteStore({ path })
  try {
    const out: unknown[] = []
    for (const tenant of await store.listTenants()) {
      out.push(tenant, await store.listCategories(tenant.id), await store.listTags(tenant.id), await store.listInquiryCategories(tenant.id))
      out.push(await store.listContents(tenant.id, { visibility: { kind: 'all' }, sort: { key: 'id', direction: 'asc' }, limit: 10_000 }))
    }
    return out
  } finally {
    await store.close()
  }
}

test.run()
