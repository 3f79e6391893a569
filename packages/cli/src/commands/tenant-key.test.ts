import * as assert from 'uvu/assert'
import { parseApiKey } from '@frontdesk/core'
import { behaviourSuite, cliFixture, cliFixtureFor } from '../../test/util/cli-fixture.ts'
import { bufferOutput } from '../env.ts'
import { keyCreate, keyList } from './key.ts'
import { tenantCreate, tenantList } from './tenant.ts'

type Fixture = ReturnType<typeof cliFixture>
const test = await behaviourSuite<{ f: Fixture }>('tenant and key commands', import.meta.url, {} as { f: Fixture })
test.before.each(async (context) => {
  context.f = await cliFixtureFor(import.meta.url)
})
// Hint: `f` is missing when the first `before.each` failed (no database could be made).
test.after.each((context) => context.f?.cleanup())

test('tenant create prints one line; tenant list an aligned table', async ({ f }) => {
  const created = await f.run(['tenant', 'create', 'acme', '--name', 'Acme Inc.'])
  assert.is(created.code, 0)
  assert.match(created.stdout, /^Created tenant acme \(Acme Inc\.\), id ten_[0-9a-z]{26}\n$/)
  assert.is(created.stderr, '')
  await f.run(['tenant', 'create', 'b2', '--name', '株式会社'])
  const listed = (await f.run(['tenant', 'list'])).stdout.split('\n')
  assert.match(listed[0] ?? '', /^CODE  NAME\s+ID\s+CREATED$/)
  assert.match(listed[1] ?? '', /^acme  Acme Inc\.  ten_/)
  // Hint: 株式会社 is 8 columns wide on a terminal, like "Acme Inc." plus one space is not.
  assert.match(listed[2] ?? '', /^b2    株式会社   ten_/)
})

test('tenant commands called directly return what they print, JSON included', async ({ f }) => {
  const s = await f.session()
  try {
    const out = bufferOutput()
    const tenant = await tenantCreate(s.ctx, { code: 'acme', json: true }, out)
    assert.equal(JSON.parse(out.text()), tenant)
    const listOut = bufferOutput()
    assert.equal(await tenantList(s.ctx, { json: true }, listOut), [tenant])
    assert.equal(JSON.parse(listOut.text()), [tenant])
  } finally {
    await s.close()
  }
})

test('an empty tenant list says so', async ({ f }) => {
  assert.equal(await f.run(['tenant', 'list']), { code: 0, stdout: '(no tenants)\n', stderr: '' })
  assert.equal(await f.run(['tenant', 'list', '--json']), { code: 0, stdout: '[]\n', stderr: '' })
})

test('key create shows the key once with a warning; key list never shows it', async ({ f }) => {
  await f.run(['tenant', 'create', 'acme'])
  const created = await f.run(['key', 'create', '--tenant', 'acme', '--name', 'web', '--permissions', 'cms:read,cms:search', '--rate-limit', '20'])
  assert.is(created.code, 0)
  const key = /\n {2}(fdk_\S+)\n/.exec(created.stdout)?.[1] ?? ''
  assert.ok(parseApiKey(key), 'a valid key is printed')
  assert.match(created.stdout, /Warning: this key is shown only once/)
  const listed = await f.run(['key', 'list', '--tenant', 'acme'])
  assert.not.ok(listed.stdout.includes(key))
  assert.match(listed.stdout, /cms:read,cms:search\s+fdk_\S{4}\s+20\/s\s+active/)
  const json = JSON.parse((await f.run(['key', 'list', '--tenant', 'acme', '--json'])).stdout) as Record<string, unknown>[]
  assert.equal(Object.keys(json[0] ?? {}), ['id', 'name', 'kind', 'permissions', 'prefix', 'rate_limit', 'created_at', 'last_used_at', 'disabled_at'])
  assert.is(json[0]?.['rate_limit'], 20)
})

test('key create --json prints exactly id, key, name, permissions, kind, created_at', async ({ f }) => {
  await f.run(['tenant', 'create', 'acme'])
  const { stdout, code } = await f.run(['key', 'create', '--tenant', 'acme', '--name', 'web', '--permissions', 'cms:*', '--json'])
  assert.is(code, 0)
  const body = JSON.parse(stdout) as Record<string, unknown>
  assert.equal(Object.keys(body), ['id', 'key', 'name', 'permissions', 'kind', 'created_at'])
  assert.equal([body['name'], body['permissions'], body['kind']], ['web', ['cms:*'], 'tenant'])
})

test('key disable, enable and delete report the key; unknown ids fail with one line', async ({ f }) => {
  await f.run(['tenant', 'create', 'acme'])
  const id = (JSON.parse((await f.run(['key', 'create', '--tenant', 'acme', '--name', 'web', '--permissions', 'cms:read', '--json'])).stdout) as { id: string }).id
  assert.equal(await f.run(['key', 'disable', id]), { code: 0, stdout: `Disabled key ${id} "web"\n`, stderr: '' })
  assert.match((await f.run(['key', 'list', '--tenant', 'acme'])).stdout, /disabled/)
  const enabled = JSON.parse((await f.run(['key', 'enable', id, '--json'])).stdout) as { disabled_at: unknown }
  assert.is(enabled.disabled_at, null)
  assert.equal(await f.run(['key', 'delete', id]), { code: 0, stdout: `Deleted key ${id} "web"\n`, stderr: '' })
  assert.equal(await f.run(['key', 'delete', id]), { code: 1, stdout: '', stderr: `frontdesk: Unknown API key: ${id}\n` })
})

test('refused keys: unknown permission, personal with permissions, bad rate limit, missing flag', async ({ f }) => {
  await f.run(['tenant', 'create', 'acme'])
  const base = ['key', 'create', '--tenant', 'acme', '--name', 'web']
  const cases: [string[], RegExp][] = [
    [[...base, '--permissions', 'cms:read,cms:write'], /^frontdesk: Unknown permission: cms:write \(known: /],
    [[...base, '--permissions', 'cms:read', '--personal'], /^frontdesk: A personal key holds no permission of this API/],
    [[...base, '--permissions', 'cms:read,,'], /^frontdesk: option '--permissions <list>' argument 'cms:read,,' is invalid\. has an empty entry: separate permission names with single commas/],
    [[...base, '--permissions', ',cms:read'], /has an empty entry/],
    [[...base, '--permissions', ''], /has an empty entry/],
    [[...base, '--permissions', 'cms:read cms:search'], /argument 'cms:read cms:search' is invalid\. has "cms:read cms:search": separate permission names with commas \(spaces after a comma are fine\), e\.g\. "cms:read, cms:search"$/],
    [[...base, '--permissions', 'cms:read;cms:search'], /has "cms:read;cms:search": separate permission names with commas/],
    [[...base, '--permissions', 'cms:read', '--rate-limit', '-1'], /^frontdesk: option '--rate-limit <n>' argument '-1' is invalid\. must be an integer/],
    [[...base, '--permissions', 'cms:read', '--rate-limit', '2.5'], /^frontdesk: option '--rate-limit <n>' argument '2\.5' is invalid/],
    [['key', 'create', '--tenant', 'acme', '--permissions', 'cms:read'], /^frontdesk: required option '--name <name>' not specified$/],
    [['key', 'list'], /^frontdesk: required option '--tenant <code>' not specified$/],
    [['key', 'list', '--tenant', 'nope'], /^frontdesk: Unknown tenant: nope$/],
  ]
  for (const [args, message] of cases) {
    const result = await f.run(args)
    assert.is(result.code, 1, args.join(' '))
    assert.is(result.stdout, '')
    assert.is(result.stderr.split('\n').length, 2, `one line: ${result.stderr}`)
    assert.match(result.stderr.trimEnd(), message)
  }
  assert.equal(JSON.parse((await f.run(['key', 'list', '--tenant', 'acme', '--json'])).stdout), [], 'nothing was created')
})

test('--permissions takes names separated by commas, with or without spaces after them', async ({ f }) => {
  await f.run(['tenant', 'create', 'acme'])
  for (const list of ['cms:read, cms:search', ' cms:read ,cms:search ', 'cms:read,cms:search']) {
    const created = await f.run(['key', 'create', '--tenant', 'acme', '--name', 'web', '--permissions', list, '--json'])
    assert.is(created.code, 0, created.stderr)
    assert.equal((JSON.parse(created.stdout) as { permissions: string[] }).permissions, ['cms:read', 'cms:search'], list)
  }
})

test('a personal key is created without permissions', async ({ f }) => {
  await f.run(['tenant', 'create', 'acme'])
  const s = await f.session()
  try {
    const { record, key } = await keyCreate(s.ctx, { tenant: 'acme', name: 'me', personal: true }, bufferOutput())
    assert.match(key, /^fdp_/)
    assert.equal(record.permissions, [])
    const out = bufferOutput()
    await keyList(s.ctx, { tenant: 'acme' }, out)
    assert.match(out.text(), /personal\s+-\s+fdp_/)
  } finally {
    await s.close()
  }
})

test.run()
