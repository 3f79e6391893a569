import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import * as assert from 'uvu/assert'
import { behaviourSuite, cliFixtureFor } from '../../test/util/cli-fixture.ts'

type Fixture = Awaited<ReturnType<typeof cliFixtureFor>>
const test = await behaviourSuite<{ f: Fixture }>('synonyms commands', import.meta.url, {} as { f: Fixture })
test.before.each(async (context) => {
  context.f = await cliFixtureFor(import.meta.url)
  await context.f.run(['tenant', 'create', 'acme'])
  await context.f.run(['tenant', 'create', 'other'])
})
// Hint: `f` is missing when the first `before.each` failed (no database could be made).
test.after.each((context) => context.f?.cleanup())

const FILE = ['# cars', 'Car,automobile', '', 'nyc => new  york', 'コンピューター、パソコン', ''].join('\n')

test('set replaces the set from a file or stdin; list prints it back in the file format, or as JSON', async ({ f }) => {
  writeFileSync(join(f.dir, 'synonyms.txt'), FILE)
  assert.equal(await f.run(['synonyms', 'list', '--tenant', 'acme']), { code: 0, stdout: '# no synonyms for tenant acme\n', stderr: '' })
  const set = await f.run(['synonyms', 'set', '--tenant', 'acme', 'synonyms.txt'])
  assert.equal(set, { code: 0, stdout: 'Set 3 synonym groups for tenant acme: searches use them within a second\n', stderr: '' })
  const listed = await f.run(['synonyms', 'list', '--tenant', 'acme'])
  assert.is(listed.stdout, 'Car, automobile\nnyc => new york\nコンピューター, パソコン\n')
  const json = JSON.parse((await f.run(['synonyms', 'list', '--tenant', 'acme', '--json'])).stdout) as unknown
  assert.equal(json, [
    { kind: 'two-way', entries: ['Car', 'automobile'], line: 'Car, automobile' },
    { kind: 'one-way', from: ['nyc'], to: ['new york'], line: 'nyc => new york' },
    { kind: 'two-way', entries: ['コンピューター', 'パソコン'], line: 'コンピューター, パソコン' },
  ])
  // What list prints, set takes back; stdin works too; the other tenant has none.
  assert.equal(JSON.parse((await f.run(['synonyms', 'set', '--tenant', 'acme', '-', '--json'], { stdin: listed.stdout })).stdout), { tenant: 'acme', groups: 3 })
  assert.is((await f.run(['synonyms', 'list', '--tenant', 'acme'])).stdout, listed.stdout)
  assert.is((await f.run(['synonyms', 'list', '--tenant', 'other'])).stdout, '# no synonyms for tenant other\n')
  // An empty file removes them all.
  writeFileSync(join(f.dir, 'empty.txt'), '# nothing\n')
  assert.is((await f.run(['synonyms', 'set', '--tenant', 'acme', 'empty.txt'])).code, 0)
  assert.is((await f.run(['synonyms', 'list', '--tenant', 'acme'])).stdout, '# no synonyms for tenant acme\n')
})

test('a bad file is one clear error line, exit 1, and nothing changes', async ({ f }) => {
  writeFileSync(join(f.dir, 'good.txt'), 'car, automobile\n')
  await f.run(['synonyms', 'set', '--tenant', 'acme', 'good.txt'])
  const refused = async (name: string, text: string | Buffer, pattern: RegExp) => {
    writeFileSync(join(f.dir, name), text)
    const result = await f.run(['synonyms', 'set', '--tenant', 'acme', name])
    assert.is(result.code, 1, name)
    assert.is(result.stdout, '', name)
    assert.match(result.stderr, pattern, name)
    assert.is(result.stderr.split('\n').length, 2, `${name}: one line`)
  }
  await refused('empty-entry.txt', 'a, b\ncar,,bus\n', /^frontdesk: synonyms: line 2: has an empty entry/)
  await refused('symbols.txt', 'car, !!!\n', /"!!!" has no word/)
  await refused('one-word.txt', 'car => Car\n', /adds nothing/)
  await refused('multi-word-key.txt', 'new york, nyc\n', /"new york" is several words/)
  await refused('huge.txt', 'a, b\n'.repeat(100_000), /the file has 100000 lines, more than the 10000 allowed/)
  await refused('latin1.txt', Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x2c, 0x20, 0x61, 0x0a]), /is not UTF-8 text/)
  const missing = await f.run(['synonyms', 'set', '--tenant', 'acme', 'nope.txt'])
  assert.is(missing.code, 1)
  assert.match(missing.stderr, /Cannot read .*nope\.txt: no such file/)
  const unknown = await f.run(['synonyms', 'set', '--tenant', 'nope', 'good.txt'])
  assert.match(unknown.stderr, /Unknown tenant: nope/)
  assert.is((await f.run(['synonyms', 'list', '--tenant', 'acme'])).stdout, 'car, automobile\n')
})

test('export writes the synonyms and import brings them back; files without them leave them as they are', async ({ f }) => {
  writeFileSync(join(f.dir, 'synonyms.txt'), FILE)
  await f.run(['synonyms', 'set', '--tenant', 'acme', 'synonyms.txt'])
  const exported = (await f.run(['export', '--tenant', 'acme'])).stdout
  assert.is(exported, '{"kind":"synonyms","groups":["Car, automobile","nyc => new york","コンピューター, パソコン"]}\n')
  assert.is((await f.run(['export', '--tenant', 'acme', '--out', 'acme.json'])).code, 0)
  const imported = await f.run(['import', 'acme.json', '--tenant', 'other'])
  assert.is(imported.code, 0, imported.stderr)
  assert.match(imported.stdout, /\nsynonyms  +1 +0 +0\n/)
  assert.is((await f.run(['synonyms', 'list', '--tenant', 'other'])).stdout, (await f.run(['synonyms', 'list', '--tenant', 'acme'])).stdout)
  // Again: unchanged. A file of an older frontdesk (no synonyms record) leaves them as they are.
  assert.match((await f.run(['import', 'acme.json', '--tenant', 'other'])).stdout, /\nsynonyms  +0 +0 +1\n/)
  writeFileSync(join(f.dir, 'old.ndjson'), '{"kind":"tag","name":"news"}\n')
  const old = await f.run(['import', 'old.ndjson', '--tenant', 'other'])
  assert.is(old.code, 0)
  assert.not.match(old.stdout, /synonyms/)
  assert.match((await f.run(['synonyms', 'list', '--tenant', 'other'])).stdout, /^Car, automobile\n/)
  // A bad synonyms record is refused like any record, naming where.
  writeFileSync(join(f.dir, 'bad.ndjson'), '{"kind":"synonyms","groups":["car, automobile","car,,bus"]}\n')
  const bad = await f.run(['import', 'bad.ndjson', '--tenant', 'other'])
  assert.is(bad.code, 1)
  assert.match(bad.stderr, /line 1: groups\[1\]: has an empty entry/)
  writeFileSync(join(f.dir, 'twice.ndjson'), '{"kind":"synonyms","groups":["a, b"]}\n{"kind":"synonyms","groups":[]}\n')
  assert.match((await f.run(['import', 'twice.ndjson', '--tenant', 'other'])).stderr, /line 2: kind: a file holds at most one synonyms record/)
  assert.match((await f.run(['synonyms', 'list', '--tenant', 'other'])).stdout, /^Car, automobile\n/)
})

test.run()
