// `kill -9` in the middle of a large `frontdesk import`: the import is all-or-nothing, so the
// database is exactly as before (counts unchanged), passes `PRAGMA integrity_check`, and takes
// the next write at once.
import type { ChildProcess } from 'node:child_process'
import { spawn, spawnSync } from 'node:child_process'
import { closeSync, existsSync, mkdtempSync, openSync, rmSync, statSync, writeSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { openSqliteStore } from '@frontdesk/adapter-sqlite'

const ROOT = fileURLToPath(new URL('../../../', import.meta.url))
const BIN = join(ROOT, 'packages/cli/bin/frontdesk.js')
const RECORDS = 35_000

const test = suite<{ dir: string; db: string }>('kill -9 during an import')

function cli(db: string, args: string[]): { code: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [BIN, '--db', db, ...args], { encoding: 'utf8', timeout: 60_000, env: { PATH: process.env['PATH'] ?? '' } })
  return { code: result.status, stdout: result.stdout, stderr: result.stderr }
}

function counts(db: string): { rows: Record<string, number>; integrity: unknown } {
  const store = openSqliteStore({ path: db })
  try {
    const rows: Record<string, number> = {}
    for (const table of ['contents', 'categories', 'tags', 'change_log']) {
      rows[table] = Number(store.db.prepare(`SELECT count(*) FROM ${table}`).pluck().get())
    }
    return { rows, integrity: store.db.pragma('integrity_check', { simple: true }) }
  } finally {
    void store.close()
  }
}

test.before((context) => {
  if (!existsSync(join(ROOT, 'packages/cli/dist/bundle/cli.js'))) {
    const built = spawnSync(process.execPath, [join(ROOT, 'scripts/build.mjs')], { encoding: 'utf8', timeout: 120_000 })
    assert.is(built.status, 0, built.stderr)
  }
  context.dir = mkdtempSync(join(tmpdir(), 'frontdesk-import-kill-'))
  context.db = join(context.dir, 'frontdesk.db')
})

test.after((context) => {
  // Hint: whatever `before` got to; a throw here would end the whole test run.
  if (context.dir !== undefined) rmSync(context.dir, { recursive: true, force: true })
})

test('a killed import leaves the database exactly as before, consistent and writable', async ({ dir, db }) => {
  assert.is(cli(db, ['tenant', 'create', 'acme']).code, 0)
  const seed = join(dir, 'seed.ndjson')
  writeLines(seed, [{ kind: 'category', code: 'news', name: 'News' }, ...Array.from({ length: 5 }, (_, i) => ({ kind: 'content', slug: `seed-${i}`, title: `Seed ${i}`, category_code: 'news', tags: ['old'] }))])
  assert.is(cli(db, ['import', seed, '--tenant', 'acme']).code, 0)
  const before = counts(db)
  assert.is(before.rows.contents, 5)

  const big = join(dir, 'big.ndjson')
  writeLines(big, [
    { kind: 'category', code: 'bulk', name: 'Bulk' },
    ...Array.from({ length: RECORDS }, (_, i) => ({
      kind: 'content', slug: `bulk-${i}`, title: `Bulk item ${i}`, category_code: 'bulk', status: 'published',
      published_at: '2025-01-01T00:00:00Z', tags: [`t${i % 50}`], body: `<p>${'lorem ipsum '.repeat(20)}</p>`,
    })),
    // Also a change to an existing item, which must be undone with the rest.
    { kind: 'content', slug: 'seed-0', title: 'Changed', category_code: 'news' },
  ])
  const child = spawn(process.execPath, [BIN, '--db', db, 'import', big, '--tenant', 'acme'], { stdio: ['ignore', 'pipe', 'pipe'], env: { PATH: process.env['PATH'] ?? '' } })
  let stdout = ''
  child.stdout?.on('data', (chunk: Buffer) => void (stdout += chunk.toString('utf8')))
  const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })))
  const walAtKill = await killMidway(child, db)
  const { signal } = await exited
  assert.is(signal, 'SIGKILL', `the import ended by itself before the kill (${stdout.trim()}): make it larger`)
  assert.not.match(stdout, /Imported/)
  // Pages of the open transaction had reached the WAL: the kill hit a write under way.
  assert.ok(walAtKill > 1024 * 1024, `the WAL held only ${walAtKill} bytes when the import was killed`)

  const after = counts(db)
  assert.is(after.integrity, 'ok')
  assert.equal(after.rows, before.rows)
  // The lock died with the process: the next import runs at once.
  const small = join(dir, 'small.ndjson')
  writeLines(small, [{ kind: 'content', slug: 'after', title: 'After', category_code: 'news' }])
  const next = cli(db, ['import', small, '--tenant', 'acme'])
  assert.is(next.code, 0, next.stderr)
  assert.is(counts(db).rows.contents, 6)
})

/**
 * Waits until the import's transaction has spilled pages into the WAL (its page cache is full:
 * uncommitted data is on disk now), then kills it. Returns the WAL's size at that moment.
 */
async function killMidway(child: ChildProcess, db: string): Promise<number> {
  const started = Date.now()
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 20))
    if (child.exitCode !== null) return 0
    const wal = existsSync(`${db}-wal`) ? statSync(`${db}-wal`).size : 0
    if (wal > 1024 * 1024 || Date.now() - started > 30_000) break
  }
  const wal = existsSync(`${db}-wal`) ? statSync(`${db}-wal`).size : 0
  child.kill('SIGKILL')
  return wal
}

function writeLines(file: string, records: unknown[]): void {
  const fd = openSync(file, 'w')
  try {
    for (const record of records) writeSync(fd, `${JSON.stringify(record)}\n`)
  } finally {
    closeSync(fd)
  }
}

test.run()
