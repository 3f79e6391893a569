import { spawn, spawnSync } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import { X509Certificate } from 'node:crypto'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import * as net from 'node:net'
import * as https from 'node:https'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import * as assert from 'uvu/assert'
import { behaviourSuite, storeOf } from '../../test/util/cli-fixture.ts'
import { shellQuote } from '../demo/demo-examples.ts'

const BIN = fileURLToPath(new URL('../../bin/frontdesk.js', import.meta.url))
const BUNDLE = fileURLToPath(new URL('../../dist/bundle/cli.js', import.meta.url))
const kind = storeOf(import.meta.url)
const test = await behaviourSuite('frontdesk demo', import.meta.url)

/** Splits a POSIX shell line into words: bare, in single quotes, or backslash-escaped characters. */
function shellWords(line: string): string[] {
  const words: string[] = []
  let word: string | null = null
  let quoted = false
  for (let i = 0; i < line.length; i++) {
    const ch = line[i] ?? ''
    if (quoted) {
      if (ch === "'") quoted = false
      else word += ch
    } else if (ch === "'") {
      quoted = true
      word ??= ''
    } else if (ch === '\\') {
      word = (word ?? '') + (line[++i] ?? '')
    } else if (ch === ' ') {
      if (word !== null) words.push(word)
      word = null
    } else {
      word = (word ?? '') + ch
    }
  }
  if (word !== null) words.push(word)
  return words
}

interface Curl {
  url: string
  headers: Record<string, string>
  data: string | null
  cacert: string
}

function parseCurl(line: string): Curl {
  const words = shellWords(line)
  assert.is(words.shift(), 'curl')
  const curl: Curl = { url: '', headers: {}, data: null, cacert: '' }
  while (words.length > 0) {
    const word = words.shift() ?? ''
    if (word === '-H') {
      const header = words.shift() ?? ''
      const at = header.indexOf(':')
      curl.headers[header.slice(0, at).trim().toLowerCase()] = header.slice(at + 1).trim()
    } else if (word === '-d') curl.data = words.shift() ?? ''
    else if (word === '--cacert') curl.cacert = words.shift() ?? ''
    else if (word.startsWith('https://')) curl.url = word
    else assert.unreachable(`unexpected curl word: ${word}`)
  }
  return curl
}

/** Does what the curl line does, with Node's https client trusting only the printed certificate. */
function runCurl(curl: Curl): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = https.request(curl.url, {
      method: curl.data === null ? 'GET' : 'POST',
      headers: curl.headers,
      ca: readFileSync(curl.cacert),
      agent: false,
      timeout: 10_000,
    }, (response) => {
      let body = ''
      response.setEncoding('utf8')
      response.on('data', (chunk: string) => (body += chunk))
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }))
      response.on('error', reject)
    })
    request.on('timeout', () => request.destroy(new Error('timed out')))
    request.on('error', reject)
    request.end(curl.data ?? undefined)
  })
}

/** Starts `frontdesk demo` and resolves with its banner once it is serving. */
function startDemo(cwd: string, dbPath: string, port = 0): Promise<{ child: ChildProcess; banner: string }> {
  const child = spawn(process.execPath, [BIN, 'demo', '--db', dbPath, '--port', String(port)], { cwd, stdio: ['ignore', 'pipe', 'pipe'] })
  return new Promise((resolve, reject) => {
    let out = ''
    let err = ''
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error(`demo did not start in time:\n${out}\n${err}`))
    }, 60_000)
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk
      if (out.includes('Press Ctrl+C to stop.')) {
        clearTimeout(timer)
        resolve({ child, banner: out })
      }
    })
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (err += chunk))
    child.on('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`demo exited with ${code}:\n${out}\n${err}`))
    })
  })
}

/** Asserts that every file under `dir`, taken as a path of a checkout, is ignored by the repository's .gitignore. */
function assertIgnoredByGit(dir: string): void {
  const left = readdirSync(dir, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile()).map((entry) => relative(dir, join(entry.parentPath, entry.name)))
  assert.ok(left.length > 0)
  const root = fileURLToPath(new URL('../../../..', import.meta.url))
  const ignored = spawnSync('git', ['check-ignore', '--no-index', '--stdin'], { cwd: root, input: left.join('\n'), encoding: 'utf8' })
  assert.equal(left.filter((file) => !ignored.stdout.split('\n').includes(file)), [], 'files a demo run leaves that .gitignore does not cover')
}

function stop(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    // Hint: a child ended by a signal has a signalCode and no exitCode; its 'exit' has been emitted already.
    if (child.exitCode !== null || child.signalCode !== null) return resolve(child.exitCode)
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000)
    child.removeAllListeners('exit')
    child.once('exit', (code) => {
      clearTimeout(timer)
      resolve(code)
    })
    child.kill('SIGTERM')
  })
}

test('shellQuote leaves plain words alone and quotes the rest safely', () => {
  assert.is(shellQuote('/tmp/a.pem'), '/tmp/a.pem')
  assert.is(shellQuote('X-API-Key: k'), "'X-API-Key: k'")
  assert.is(shellQuote("it's"), `'it'\\''s'`)
  assert.equal(shellWords(`curl ${shellQuote("it's here")} -d ${shellQuote('{"a":"b c"}')}`), ['curl', "it's here", '-d', '{"a":"b c"}'])
})

test('frontdesk demo seeds, serves HTTPS and every printed curl line works and leaves only files git ignores; a re-run reseeds and adds a key, the earlier one still working', async () => {
  assert.ok(existsSync(BUNDLE), 'the CLI bundle is missing: run `npm run build` (npm test does)')
  const dir = mkdtempSync(join(tmpdir(), 'frontdesk-demo-'))
  const postgres = kind === 'postgres' ? await (await import('@frontdesk/adapter-postgres/testing')).createTestDatabase() : null
  const dbPath = postgres?.url ?? join(dir, 'demo.db')
  let child: ChildProcess | null = null
  try {
    const first = await startDemo(dir, dbPath)
    child = first.child
    const lines = first.banner.split('\n').filter((line) => line.startsWith('curl '))
    assert.ok(lines.length >= 8, `curl lines: ${lines.length}`)
    const key = /API key\s+(fdk_\S+)/.exec(first.banner)?.[1]
    assert.ok(key)
    // The certificate curl is told to trust is the local CA, not the server's: the one any client (rustls too) accepts.
    const trusted = /trust\s+(\S+dev-ca\.pem) \(the local CA/.exec(first.banner)?.[1] ?? ''
    assert.ok(new X509Certificate(readFileSync(trusted)).ca, first.banner)
    const paths: string[] = []
    for (const line of lines) {
      const curl = parseCurl(line)
      assert.ok(existsSync(curl.cacert), curl.cacert)
      const res = await runCurl(curl)
      assert.ok(res.status === 200 || res.status === 201, `${res.status} for ${line}\n${res.body}`)
      const body = JSON.parse(res.body)
      paths.push(new URL(curl.url).pathname)
      if (curl.data?.includes('移転')) assert.ok(body.items.some((item: { title: string }) => item.title === 'オフィス移転のお知らせ'), res.body)
      if (new URL(curl.url).pathname === '/v1/cms/categories') assert.is(body.items.length, 3, 'the inactive archive stays hidden')
    }
    for (const path of ['/v1/cms/contents', '/v1/cms/contents/cnt_demo_ja_office_move', '/v1/cms/contents/slug/aurora-launch', '/v1/cms/categories', '/v1/cms/categories/cat_demo_news', '/v1/cms/search', '/v1/inquiries']) {
      assert.ok(paths.includes(path), `no example for ${path}`)
    }
    // A user runs the demo in a checkout: nothing it writes shows in `git status`, while it
    // runs (journals and WAL files included) or after.
    assertIgnoredByGit(dir)
    assert.is(await stop(child), 0)
    child = null
    assertIgnoredByGit(dir)

    const second = await startDemo(dir, dbPath)
    child = second.child
    const secondKey = /API key\s+(fdk_\S+)/.exec(second.banner)?.[1]
    assert.ok(secondKey)
    assert.is.not(secondKey, key)
    const list = parseCurl(second.banner.split('\n').find((line) => line.startsWith('curl ')) ?? '')
    const again = await runCurl(list)
    assert.is(again.status, 200)
    assert.is((await runCurl({ ...list, headers: { 'x-api-key': key } })).status, 200, 'the curl lines of the first run still work')
    assert.match(second.banner, /\(the key of an earlier run still works: frontdesk --db \S+ key list --tenant demo\)/)
    if (postgres !== null) {
      // The database is named without its password, wherever it is printed.
      const password = decodeURIComponent(new URL(postgres.url).password)
      assert.not.ok(first.banner.includes(password) || second.banner.includes(password), 'no password in the banner')
      assert.match(second.banner, /database\s+postgres:\/\/postgres:\*\*\*@127\.0\.0\.1:\d+\/fd_test_\w+ \(tenant "demo"\)/)
    }
    assert.not.match(first.banner, /earlier run/)
    assert.is(await stop(child), 0)
    child = null
  } finally {
    if (child !== null) await stop(child)
    rmSync(dir, { recursive: true, force: true })
    await postgres?.drop()
  }
})

test('frontdesk demo says when its port is taken and which one it chose', async () => {
  assert.ok(existsSync(BUNDLE), 'the CLI bundle is missing: run `npm run build` (npm test does)')
  const dir = mkdtempSync(join(tmpdir(), 'frontdesk-demo-'))
  const postgres = kind === 'postgres' ? await (await import('@frontdesk/adapter-postgres/testing')).createTestDatabase() : null
  const blocker = net.createServer()
  await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve))
  const taken = (blocker.address() as net.AddressInfo).port
  let child: ChildProcess | null = null
  try {
    const demo = await startDemo(dir, postgres?.url ?? 'frontdesk-demo.db', taken)
    child = demo.child
    const chosen = Number(/serving https:\/\/127\.0\.0\.1:(\d+)\/v1\//.exec(demo.banner)?.[1])
    assert.ok(chosen > taken && chosen <= taken + 20, demo.banner)
    assert.ok(demo.banner.includes(`port ${taken} is in use, so the demo serves on port ${chosen}`), demo.banner)
    assert.is(await stop(child), 0)
    child = null
  } finally {
    if (child !== null) await stop(child)
    blocker.close()
    rmSync(dir, { recursive: true, force: true })
    await postgres?.drop()
  }
})

test.run()
