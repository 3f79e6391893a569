// What the README says about the CLI, checked against what the CLI does: each statement
// below was once found stale by a new user.
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { cliFixture } from './util/cli-fixture.ts'

const root = fileURLToPath(new URL('../../..', import.meta.url))
const readme = readFileSync(join(root, 'README.md'), 'utf8')
/** The README as one line of text, so that phrases wrapped across lines still match. */
const prose = readme.replace(/\s+/g, ' ')

type Fixture = ReturnType<typeof cliFixture>
const test = suite<{ f: Fixture }>('the README about the CLI', {} as { f: Fixture })
test.before.each((context) => {
  context.f = cliFixture()
})
test.after.each((context) => {
  context.f.cleanup()
})

/** The synopsis lines of the CLI reference (`frontdesk tenant create <code> [--name NAME]`…). */
function synopsis(): string[] {
  const section = readme.slice(readme.indexOf('## CLI reference'))
  const block = /```\n([\s\S]*?)```/.exec(section)?.[1] ?? ''
  return block.split('\n').filter((line) => line.startsWith('frontdesk '))
}

test('every option the CLI reference gives a command is in that command\'s --help', async ({ f }) => {
  const lines = synopsis()
  assert.ok(lines.length >= 15, `synopsis lines: ${lines.length}`)
  for (const line of lines) {
    const words = line.split(' ').slice(1)
    const command: string[] = []
    for (const word of words) {
      if (!/^[a-z|]+$/.test(word)) break
      command.push(word.split('|')[0] ?? word)
    }
    if (command.length === 0) continue
    const help = await f.run([...command, '--help'], { noDb: true })
    assert.is(help.code, 0, line)
    // Hint: listed as an option (a line of its own), not merely mentioned in a description.
    for (const flag of line.match(/--[a-z-]+/g) ?? []) assert.match(help.stdout, new RegExp(`^ +(-\\w, )?${flag}\\b`, 'm'), `${command.join(' ')} --help lists no ${flag}`)
  }
})

test('the dev certificate is kept where serve --help, demo --help and the README say: .frontdesk/ in the database\'s directory, for PostgreSQL of the working directory', async ({ f }) => {
  const place = ".frontdesk/ in the database's directory"
  const postgres = 'for PostgreSQL, in .frontdesk/ of the working directory'
  for (const command of ['serve', 'demo']) {
    const help = (await f.run([command, '--help'], { noDb: true })).stdout.replace(/\s+/g, ' ')
    assert.ok(help.includes(place), `${command} --help: ${help}`)
    assert.ok(help.includes(postgres), `${command} --help: ${help}`)
  }
  assert.ok(prose.includes("`.frontdesk/` in the database's directory"), 'README')
  assert.ok(prose.includes('for a PostgreSQL database, in `.frontdesk/` of the working directory'), 'README (CLI reference)')
  assert.not.ok(prose.includes('beside the database'), 'no other wording left')
})

test('the import errors the README quotes are the ones an import prints', async ({ f }) => {
  await f.run(['tenant', 'create', 'acme'])
  const ndjson = `${JSON.stringify({ kind: 'category', code: 'news', name: 'News' })}\n${JSON.stringify({ kind: 'content', slug: 'a', title: '', category_code: 'news' })}\n`
  const line = (await f.run(['import', '-', '--tenant', 'acme'], { stdin: ndjson })).stderr.replace(/^frontdesk: |\n$/g, '')
  const contents = [{ slug: 'a', title: 'A' }, { slug: 'b', title: 'B' }, { slug: 'c', title: 'C' }, { slug: 'd', title: '' }].map((c) => ({ ...c, category_code: 'news' }))
  writeFileSync(join(f.dir, 'doc.json'), JSON.stringify({ categories: [{ code: 'news', name: 'News' }], contents }))
  const indexed = (await f.run(['import', 'doc.json', '--tenant', 'acme'])).stderr.replace(/^frontdesk: |\n$/g, '')
  assert.is(line, 'line 2: title: must not be empty')
  assert.is(indexed, 'contents[3]: title: must not be empty')
  assert.ok(prose.includes(`\`${line}\``), `README quotes ${line}`)
  assert.ok(prose.includes(`\`${indexed}\``), `README quotes ${indexed}`)
})

test('key list prints the columns the README names', async ({ f }) => {
  await f.run(['tenant', 'create', 'acme'])
  await f.run(['key', 'create', '--tenant', 'acme', '--name', 'web', '--permissions', 'cms:read'])
  const header = (await f.run(['key', 'list', '--tenant', 'acme'])).stdout.split('\n')[0]?.trim().split(/\s{2,}/) ?? []
  const named = /`key list` prints ([A-Z ,]+) and ([A-Z ]+) \(/.exec(prose)
  assert.ok(named, 'README names the columns of key list')
  assert.equal([...(named[1] ?? '').split(', '), named[2]], header)
})

test('errors are one line on stderr with exit code 1, as the README says', async ({ f }) => {
  assert.ok(prose.includes('An error is one line on stderr (`frontdesk: …`) with exit code 1'))
  const failing = [
    ['tenant'],
    ['tenant', 'remove'],
    ['tenant', 'create', 'Bad Code'],
    ['key', 'create', '--tenant', 'acme', '--name', 'w', '--permissions', 'cms:read,,'],
    ['import', 'missing.json', '--tenant', 'acme'],
    ['inquiry', 'list', '--tenant', 'acme', '--before', 'nope'],
    ['preview', 'create', '--tenant', 'acme', '--content', 'x', '--ttl', '0s'],
    ['--nope'],
  ]
  for (const args of failing) {
    const result = await f.run(args)
    assert.is(result.code, 1, args.join(' '))
    assert.is(result.stdout, '', args.join(' '))
    assert.match(result.stderr, /^frontdesk: [^\n]+\n$/, args.join(' '))
  }
  const bare = await f.run([], { noDb: true })
  assert.is(bare.code, 1)
  assert.match(bare.stdout, /^Usage: frontdesk /)
  assert.ok(prose.includes('`frontdesk` alone prints the usage on stdout and exits 1'))
})

test('the install lines name packages that exist, the way that works from a checkout comes first, and the README no longer promises "published packages"', () => {
  const names = new Set(['core', 'search', 'adapter-sqlite', 'adapter-postgres', 'http', 'cli', 'client'].map((name) => (JSON.parse(readFileSync(join(root, 'packages', name, 'package.json'), 'utf8')) as { name: string }).name))
  const installs = readme.match(/npm install( --global)? @frontdesk\/[^\n#`]+/g) ?? []
  assert.ok(installs.length >= 3, installs.join('\n'))
  for (const install of installs) {
    for (const name of install.match(/@frontdesk\/[a-z-]+/g) ?? []) assert.ok(names.has(name), `${name} in ${install}`)
  }
  // The embedding section names every package its snippet and `npx frontdesk` need.
  const embedding = readme.slice(readme.indexOf('## Embedding frontdesk in a Node service'), readme.indexOf('## Using the client'))
  assert.ok(embedding.includes('npm install @frontdesk/core @frontdesk/adapter-sqlite @frontdesk/search @frontdesk/http @frontdesk/cli tsx\n'))
  // Until the packages are published, the way that works: `npm run pack`, then every tarball.
  const scripts = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts
  assert.is(scripts['pack'], 'node scripts/pack.mjs')
  const running = readme.slice(readme.indexOf('## Running it for real'))
  assert.ok(running.includes('`npm run pack` writes every package\'s tarball into `./dist-packages/`'))
  assert.match(running, /```sh\nnpm install \/path\/to\/frontdesk\/dist-packages\/\*\.tgz /)
  assert.match(embedding, /```sh\nnpm install \/path\/to\/frontdesk\/dist-packages\/\*\.tgz tsx /)
  for (const file of ['README.md', 'examples/embed-node-http.ts', 'examples/README.md']) {
    assert.not.ok(readFileSync(join(root, file), 'utf8').includes('published packages'), file)
  }
})

test.run()
