import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import * as assert from 'uvu/assert'
import { behaviourSuite, cliFixture, cliFixtureFor } from '../../test/util/cli-fixture.ts'
import { importFormat } from './import.ts'

type Fixture = ReturnType<typeof cliFixture>
const test = await behaviourSuite<{ f: Fixture }>('import, export and content commands', import.meta.url, {} as { f: Fixture })
test.before.each(async (context) => {
  context.f = await cliFixtureFor(import.meta.url)
  await context.f.run(['tenant', 'create', 'acme'])
})
// Hint: `f` is missing when the first `before.each` failed (no database could be made).
test.after.each((context) => context.f?.cleanup())

const records = [
  { kind: 'category', code: 'news', name: 'ニュース', fields: [{ name: 'area', type: 'select', options: ['東京', '大阪'] }] },
  { kind: 'content', slug: 'office-move', title: 'オフィス移転のお知らせ', category_code: 'news', status: 'published', published_at: '2025-06-01T09:00:00+09:00', tags: ['お知らせ'], body: '<p>本社を移転します。</p>', content: { area: '東京' } },
  { kind: 'content', slug: 'hello', title: 'Hello', category_code: 'news' },
]
const ndjson = records.map((r) => JSON.stringify(r)).join('\n') + '\n'

test('import prints a summary table; --json prints the summary object', async ({ f }) => {
  writeFileSync(join(f.dir, 'in.ndjson'), ndjson)
  const result = await f.run(['import', 'in.ndjson', '--tenant', 'acme'])
  assert.is(result.code, 0)
  assert.is(result.stderr, '', 'no progress line when stderr is not a terminal')
  assert.is(result.stdout, [
    'Imported 3 records into tenant acme:',
    'KIND                CREATED  UPDATED  UNCHANGED',
    'categories          1        0        0',
    'tags                1        0        0',
    'contents            2        0        0',
    'inquiry_categories  0        0        0',
    '',
  ].join('\n'))
  const again = JSON.parse((await f.run(['import', 'in.ndjson', '--tenant', 'acme', '--json'])).stdout) as { contents: unknown }
  assert.equal(again.contents, { created: 0, updated: 0, unchanged: 2 })
})

test('import reads NDJSON from stdin with -', async ({ f }) => {
  const result = await f.run(['import', '-', '--tenant', 'acme', '--json'], { stdin: ndjson })
  assert.is(result.code, 0, result.stderr)
  assert.is((JSON.parse(result.stdout) as { records: number }).records, 3)
})

test('a JSON document imports the same as NDJSON', async ({ f }) => {
  const doc = { categories: [records[0]], contents: records.slice(1) }
  writeFileSync(join(f.dir, 'in.json'), JSON.stringify(doc).replaceAll('"kind":"category",', '').replaceAll('"kind":"content",', ''))
  const result = await f.run(['import', 'in.json', '--tenant', 'acme', '--json'])
  assert.is(result.code, 0, result.stderr)
  assert.equal((JSON.parse(result.stdout) as { contents: unknown }).contents, { created: 2, updated: 0, unchanged: 0 })
})

test('a JSON document is read from stdin with - --format json', async ({ f }) => {
  const doc = JSON.stringify({ tags: [{ name: 'a' }, { name: 'b' }] })
  const result = await f.run(['import', '-', '--tenant', 'acme', '--format', 'json', '--json'], { stdin: doc })
  assert.is(result.code, 0, result.stderr)
  assert.equal((JSON.parse(result.stdout) as { tags: unknown }).tags, { created: 2, updated: 0, unchanged: 0 })
})

test('a failing import names the location and writes nothing; --dry-run writes nothing either', async ({ f }) => {
  writeFileSync(join(f.dir, 'bad.ndjson'), ndjson + JSON.stringify({ kind: 'content', slug: 'x', title: 'X', category_code: 'news', content: { area: '京都' } }) + '\n')
  const result = await f.run(['import', 'bad.ndjson', '--tenant', 'acme'])
  assert.equal(result, { code: 1, stdout: '', stderr: 'frontdesk: line 4: content.area: must be one of: 東京, 大阪\n' })
  const dry = await f.run(['import', '-', '--tenant', 'acme', '--dry-run'], { stdin: ndjson })
  assert.match(dry.stdout, /^Dry run: 3 records checked, nothing written\./)
  const out = await f.run(['export', '--tenant', 'acme'])
  assert.equal(out, { code: 0, stdout: '', stderr: '' })
})

test('the format comes from --format, else the file name; an unknown name must say', () => {
  assert.is(importFormat('a.JSON', undefined), 'json')
  assert.is(importFormat('a.ndjson', undefined), 'ndjson')
  assert.is(importFormat('a.jsonl', undefined), 'ndjson')
  assert.is(importFormat('-', undefined), 'ndjson')
  assert.is(importFormat('a.txt', 'json'), 'json')
  assert.throws(() => importFormat('a.txt', undefined), /Cannot tell the format of a\.txt/)
})

test('import of a missing file or with a bad --format fails with one line', async ({ f }) => {
  assert.equal(await f.run(['import', 'missing.ndjson', '--tenant', 'acme']), {
    code: 1, stdout: '', stderr: `frontdesk: Cannot read ${join(f.dir, 'missing.ndjson')}: no such file\n`,
  })
  const bad = await f.run(['import', '-', '--tenant', 'acme', '--format', 'xml'])
  assert.is(bad.code, 1)
  assert.match(bad.stderr, /^frontdesk: option '--format <format>' argument 'xml' is invalid\. Allowed choices are json, ndjson\.\n$/)
})

test('a missing .json file or a directory is named by its path and its problem, before any database is made', async ({ f }) => {
  const elsewhere = join(f.dir, 'no.db')
  assert.equal(await f.run(['--db', elsewhere, 'import', 'missing.json', '--tenant', 'acme'], { noDb: true }), {
    code: 1, stdout: '', stderr: `frontdesk: Cannot read ${join(f.dir, 'missing.json')}: no such file\n`,
  })
  assert.not.ok(existsSync(elsewhere), 'no database created for a mistyped file name')
  mkdirSync(join(f.dir, 'content.json'))
  assert.equal(await f.run(['import', 'content.json', '--tenant', 'acme']), {
    code: 1, stdout: '', stderr: `frontdesk: Cannot read ${join(f.dir, 'content.json')}: it is a directory, not a file\n`,
  })
})

test('broken JSON is reported by line and column; NDJSON in a .json file gets a hint', async ({ f }) => {
  writeFileSync(join(f.dir, 'broken.json'), '{\n  "tags": [\n    {"name": "a"}\n    {"name": "b"}\n  ]\n}\n')
  assert.equal(await f.run(['import', 'broken.json', '--tenant', 'acme']), { code: 1, stdout: '', stderr: 'frontdesk: line 4, column 5: not valid JSON: unexpected "{"\n' })
  writeFileSync(join(f.dir, 'records.json'), ndjson)
  const hint = await f.run(['import', 'records.json', '--tenant', 'acme'])
  assert.match(hint.stderr, /^frontdesk: line 1, column 2: kind: not a known section .*Name it \.ndjson or pass --format ndjson\n$/)
  assert.is((await f.run(['import', 'records.json', '--tenant', 'acme', '--format', 'ndjson'])).code, 0)
})

test('the summary says 1 record, separates thousands, and says when nothing changed', async ({ f }) => {
  const one = await f.run(['import', '-', '--tenant', 'acme'], { stdin: '{"kind":"tag","name":"solo"}\n' })
  assert.match(one.stdout, /^Imported 1 record into tenant acme:\n/)
  const many = Array.from({ length: 1200 }, (_, i) => JSON.stringify({ kind: 'tag', name: `t${i}` })).join('\n')
  const first = await f.run(['import', '-', '--tenant', 'acme'], { stdin: many })
  assert.match(first.stdout, /^Imported 1,200 records into tenant acme:\n/)
  assert.match(first.stdout, /\ntags  +1,200  +0  +0\n/)
  const again = await f.run(['import', '-', '--tenant', 'acme'], { stdin: many })
  assert.match(again.stdout, /^Nothing changed in tenant acme: all 1,200 records are already as in the file:\n/)
  assert.match(again.stdout, /\ntags  +0  +0  +1,200\n/)
  const dry = await f.run(['import', '-', '--tenant', 'acme', '--dry-run'], { stdin: many })
  assert.match(dry.stdout, /^Dry run: 1,200 records checked, nothing written\. Nothing would change in tenant acme:\n/)
  assert.is((await f.run(['import', '-', '--tenant', 'acme'], { stdin: '\n' })).stdout, 'Nothing imported into tenant acme: the file holds no records.\n')
})

test('a progress line is drawn on a terminal only', async ({ f }) => {
  const many = Array.from({ length: 3000 }, (_, i) => JSON.stringify({ kind: 'tag', name: `t${i}` })).join('\n')
  const tty = await f.run(['import', '-', '--tenant', 'acme'], { stdin: many, tty: true })
  assert.is(tty.code, 0)
  // Hint: the line appears only after 250 ms; when the import is faster, nothing is drawn at all. Then the search index is saved.
  const progress = tty.stderr.replace('indexing for search…\r\u001b[K', '')
  assert.ok(progress === '' || /records \([\d,]+\/s\)/.test(progress), tty.stderr)
  const piped = await f.run(['import', '-', '--tenant', 'acme'], { stdin: many })
  assert.is(piped.stderr, '')
})

test('export writes NDJSON to stdout, and --out FILE.json one JSON document; both re-import to the same state', async ({ f }) => {
  await f.run(['import', '-', '--tenant', 'acme'], { stdin: ndjson })
  const lines = (await f.run(['export', '--tenant', 'acme'])).stdout.trimEnd().split('\n')
  assert.equal(lines.map((l) => (JSON.parse(l) as { kind: string }).kind), ['category', 'tag', 'content', 'content'])
  assert.ok(lines.some((l) => l.includes('オフィス移転のお知らせ')))
  const written = await f.run(['export', '--tenant', 'acme', '--out', 'copy.json'])
  assert.equal(written, { code: 0, stdout: 'Exported 4 records of tenant acme to copy.json\n', stderr: '' })
  const doc = JSON.parse(readFileSync(join(f.dir, 'copy.json'), 'utf8')) as Record<string, unknown[]>
  assert.equal(Object.keys(doc), ['categories', 'tags', 'contents', 'inquiry_categories', 'synonyms'])
  assert.is(doc['contents']?.length, 2)
  assert.equal(readdirSync(f.dir).filter((n) => n.includes('partial')), [], 'no partial file is left')
  await f.run(['tenant', 'create', 'copy'])
  assert.is((await f.run(['import', 'copy.json', '--tenant', 'copy'])).code, 0)
  await f.run(['export', '--tenant', 'copy', '--out', 'copy.ndjson'])
  assert.equal(readFileSync(join(f.dir, 'copy.ndjson'), 'utf8').trimEnd().split('\n'), lines)
})

test('an empty tenant exports as an empty JSON document', async ({ f }) => {
  await f.run(['export', '--tenant', 'acme', '--out', 'empty.json'])
  assert.equal(JSON.parse(readFileSync(join(f.dir, 'empty.json'), 'utf8')), { categories: [], tags: [], contents: [], inquiry_categories: [], synonyms: [] })
})

test('a failed export leaves no file behind', async ({ f }) => {
  const result = await f.run(['export', '--tenant', 'nope', '--out', 'x.ndjson'])
  assert.equal(result, { code: 1, stdout: '', stderr: 'frontdesk: Unknown tenant: nope\n' })
  assert.not.ok(existsSync(join(f.dir, 'x.ndjson')))
})

test('content publish, unpublish and delete find items by id or slug', async ({ f }) => {
  await f.run(['import', '-', '--tenant', 'acme'], { stdin: ndjson })
  const published = await f.run(['content', 'publish', 'hello', '--tenant', 'acme', '--json'])
  const item = JSON.parse(published.stdout) as { id: string; status: string; version: number; published_at: string }
  assert.equal([item.status, item.version], ['published', 2])
  const unpublished = await f.run(['content', 'unpublish', item.id, '--tenant', 'acme'])
  assert.is(unpublished.stdout, `${item.id} (hello) is draft, version 3\n`)
  assert.is((await f.run(['content', 'delete', 'hello', '--tenant', 'acme'])).stdout, `Deleted ${item.id} (hello)\n`)
  assert.equal(await f.run(['content', 'delete', 'hello', '--tenant', 'acme']), { code: 1, stdout: '', stderr: 'frontdesk: Unknown content: hello\n' })
})

test.run()
