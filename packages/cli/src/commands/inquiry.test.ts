import * as assert from 'uvu/assert'
import type { Principal } from '@frontdesk/core'
import { createApiKey, createFrontdesk, createTenant, newId } from '@frontdesk/core'
import type { cliFixture } from '../../test/util/cli-fixture.ts'
import { behaviourSuite, cliFixtureFor } from '../../test/util/cli-fixture.ts'

interface World {
  f: ReturnType<typeof cliFixture>
  ids: string[]
}

async function run(world: World, ...args: string[]) {
  return world.f.run(args)
}

const cli = await behaviourSuite<World>('frontdesk inquiry', import.meta.url)

cli.before.each(async (world) => {
  world.f = await cliFixtureFor(import.meta.url)
  const session = await world.f.session()
  const { store } = session
  let time = Date.parse('2026-04-01T00:00:00.000Z')
  const frontdesk = createFrontdesk({ store, clock: { now: () => time } })
  const ctx = frontdesk.context
  const tenant = await createTenant(ctx, { code: 'acme' })
  await createTenant(ctx, { code: 'globex' })
  const { record } = await createApiKey(ctx, { tenantCode: 'acme', name: 'form', permissions: ['inquiry:create'] })
  const at = new Date(time).toISOString()
  await store.transaction((tx) =>
    tx.putInquiryCategory({ tenant_id: tenant.id, id: newId('icat'), code: 'general', name: 'General', description: '', sort: 0, active: true, message: '', created_at: at, updated_at: at }),
  )
  const principal: Principal = { tenant, key: record }
  const bodies = [
    { title: '見積もりのお願い', content: '御社の製品について、\n見積もりをお願いします。', inquirer_name: '山田 太郎', inquirer_email: 'taro@example.co.jp', inquirer_phone: '+81 3-1234-5678' },
    { title: 'Say "hello", please', content: '=HYPERLINK("http://evil.example")', inquirer_name: 'Jane, Doe', inquirer_email: 'jane@example.com', inquirer_company: 'ACME' },
    { title: 'Third', content: 'Plain', inquirer_name: 'Bob', inquirer_email: 'bob@example.com', priority: 3 },
  ]
  world.ids = []
  for (const body of bodies) {
    time += 60_000
    world.ids.push((await frontdesk.createInquiry(principal, { category_code: 'general', ...body })).body.id)
  }
  await session.close()
})

// Hint: `f` is missing when the first `before.each` failed (no database could be made).
cli.after.each((world) => world.f?.cleanup())

cli('list prints a table, newest first, Japanese included', async (world) => {
  const { code, stdout, stderr } = await run(world, 'inquiry', 'list', '--tenant', 'acme')
  assert.is(code, 0, stderr)
  const lines = stdout.trimEnd().split('\n')
  assert.match(lines[0] ?? '', /^ID\s+CREATED\s+STATUS\s+PRIORITY\s+CATEGORY\s+FROM\s+TITLE$/)
  assert.equal(lines.slice(1).map((line) => line.split(/\s+/)[0]), world.ids.slice().reverse())
  assert.match(lines[3] ?? '', /medium\s+general\s+山田 太郎 <taro@example.co.jp>\s+見積もりのお願い$/)
  assert.match(lines[1] ?? '', /high/)
  assert.is(stderr, '')
})

cli('list --json prints every field of each inquiry, without the tenant id', async (world) => {
  const { code, stdout } = await run(world, 'inquiry', 'list', '--tenant', 'acme', '--json')
  assert.is(code, 0)
  const records = JSON.parse(stdout) as Record<string, unknown>[]
  assert.is(records.length, 3)
  assert.is(records[2]?.content, '御社の製品について、\n見積もりをお願いします。')
  assert.is(records[2]?.inquirer_phone, '+81 3-1234-5678')
  assert.is(records[0]?.priority, 3)
  assert.not.ok('tenant_id' in (records[0] ?? {}))
})

cli('list --csv is RFC 4180: header, quoting, CRLF, UTF-8, formulas defused', async (world) => {
  const { code, stdout } = await run(world, 'inquiry', 'list', '--tenant', 'acme', '--csv')
  assert.is(code, 0)
  const rows = stdout.split('\r\n')
  assert.is(rows[0], 'id,created_at,status,priority,category_code,title,content,inquirer_name,inquirer_email,inquirer_phone,inquirer_company,inquirer_department,api_key_id')
  assert.is(rows[rows.length - 1], '', 'ends with CRLF')
  assert.ok(stdout.includes('"Say ""hello"", please","\'=HYPERLINK(""http://evil.example"")","Jane, Doe",jane@example.com,,ACME,,'))
  assert.ok(stdout.includes(`見積もりのお願い,"御社の製品について、\n見積もりをお願いします。",山田 太郎,taro@example.co.jp,'+81 3-1234-5678,,,`))
  assert.not.ok(stdout.startsWith('\ufeff'))
  const bom = await run(world, 'inquiry', 'list', '--tenant', 'acme', '--csv', '--bom')
  assert.ok(bom.stdout.startsWith('\ufeffid,'))
})

cli('list --limit and --before page through, and the table says when more are left', async (world) => {
  const first = await run(world, 'inquiry', 'list', '--tenant', 'acme', '--limit', '2', '--json')
  assert.equal((JSON.parse(first.stdout) as { id: string }[]).map((r) => r.id), [world.ids[2], world.ids[1]])
  const rest = await run(world, 'inquiry', 'list', '--tenant', 'acme', '--before', world.ids[1] ?? '', '--json')
  assert.equal((JSON.parse(rest.stdout) as { id: string }[]).map((r) => r.id), [world.ids[0]])
  const table = await run(world, 'inquiry', 'list', '--tenant', 'acme', '--limit', '2')
  assert.is(table.stderr, `(showing the newest 2; more with --limit or --before ${world.ids[1]})\n`)
  const all = await run(world, 'inquiry', 'list', '--tenant', 'acme', '--limit', '3')
  assert.is(all.stderr, '')
})

cli('list of a tenant without inquiries says so', async (world) => {
  const { code, stdout } = await run(world, 'inquiry', 'list', '--tenant', 'globex')
  assert.is(code, 0)
  assert.is(stdout, '(no inquiries)\n')
  assert.is((await run(world, 'inquiry', 'list', '--tenant', 'globex', '--json')).stdout, '[]\n')
})

cli('show prints every field and the text; --json the record', async (world) => {
  const id = world.ids[0] ?? ''
  const { code, stdout } = await run(world, 'inquiry', 'show', id, '--tenant', 'acme')
  assert.is(code, 0)
  assert.match(stdout, new RegExp(`^ID:\\s+${id}\n`))
  assert.match(stdout, /\nPriority:\s+2 \(medium\)\n/)
  assert.match(stdout, /\nPhone:\s+\+81 3-1234-5678\n/)
  assert.match(stdout, /\nCompany:\s+-\n/)
  assert.ok(stdout.endsWith('\n\n御社の製品について、\n見積もりをお願いします。\n'))
  const json = await run(world, 'inquiry', 'show', id, '--tenant', 'acme', '--json')
  assert.is((JSON.parse(json.stdout) as { id: string }).id, id)
})

cli('unknown tenants, ids, statuses and bad options are one line on stderr and exit 1', async (world) => {
  const cases: [string[], string][] = [
    [['inquiry', 'list', '--tenant', 'nope'], 'frontdesk: Unknown tenant: nope\n'],
    [['inquiry', 'show', 'inq_missing', '--tenant', 'acme'], 'frontdesk: Unknown inquiry: inq_missing\n'],
    [['inquiry', 'show', world.ids[0] ?? '', '--tenant', 'globex'], `frontdesk: Unknown inquiry: ${world.ids[0]}\n`],
    [['inquiry', 'list', '--tenant', 'acme', '--status', 'closed'], 'frontdesk: Unknown status: closed (expected: open)\n'],
    [['inquiry', 'list', '--tenant', 'acme', '--before', 'nope'], 'frontdesk: Invalid inquiry id: nope (expected an id such as inq_01k0…, as inquiry list prints)\n'],
  ]
  for (const [args, expected] of cases) {
    const result = await run(world, ...args)
    assert.is(result.code, 1, args.join(' '))
    assert.is(result.stderr, expected)
    assert.is(result.stdout, '')
  }
  for (const args of [['--limit', '0'], ['--limit', 'ten'], ['--json', '--csv']]) {
    const result = await run(world, 'inquiry', 'list', '--tenant', 'acme', ...args)
    assert.is(result.code, 1, args.join(' '))
    assert.is(result.stderr.split('\n').length, 2, result.stderr)
  }
})

cli.run()
