import { existsSync, readFileSync, statSync } from 'node:fs'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { openSqliteStore } from '@frontdesk/adapter-sqlite'
import { createFrontdesk, importRecords } from '@frontdesk/core'
import { cliFixture } from '../../test/util/cli-fixture.ts'

type Fixture = ReturnType<typeof cliFixture>
const test = suite<{ f: Fixture }>('webhook commands', {} as { f: Fixture })
test.before.each(async (context) => {
  context.f = cliFixture()
  await context.f.run(['tenant', 'create', 'acme'])
})
test.after.each((context) => context.f.cleanup())

const SECRET = /\n {2}(whsec_[A-Za-z0-9+/]{43}=)\n/

test('webhook add prints the secret once; the database keeps it sealed under a key file beside it', async ({ f }) => {
  const added = await f.run(['webhook', 'add', '--tenant', 'acme', '--url', 'https://127.0.0.1:9/hook', '--events', 'inquiry.created,content.*', '--allow-private-webhook-targets'])
  assert.is(added.code, 0, added.stderr)
  const secret = SECRET.exec(added.stdout)?.[1] ?? ''
  assert.ok(secret !== '', added.stdout)
  assert.match(added.stdout, /shown only once/)
  const keyFile = `${f.db}.webhook-key`
  assert.ok(existsSync(keyFile))
  assert.is(statSync(keyFile).mode & 0o777, 0o600)
  assert.not.ok(readFileSync(f.db).includes(Buffer.from(secret.slice(6))), 'the database file does not hold the secret')
  const listed = await f.run(['webhook', 'list', '--tenant', 'acme'])
  assert.match(listed.stdout, /^ID\s+URL\s+EVENTS\s+STATUS\s+PENDING\s+FAILED\s+NEXT ATTEMPT\s+FAILING SINCE\nwhe_\S+\s+https:\/\/127\.0\.0\.1:9\/hook\s+inquiry\.created,content\.\*\s+enabled\s+0\s+0\s+-\s+-\n$/)
  assert.not.ok(listed.stdout.includes(secret))
})

test('--json everywhere; disable, enable, rotate-secret, deliveries and delete', async ({ f }) => {
  const added = JSON.parse((await f.run(['webhook', 'add', '--tenant', 'acme', '--url', 'https://127.0.0.1:9/h', '--events', '*', '--allow-private-webhook-targets', '--json'])).stdout) as Record<string, unknown>
  assert.equal(Object.keys(added), ['id', 'url', 'events', 'status', 'created_at', 'disabled_at', 'disabled_reason', 'secret'])
  const id = String(added['id'])
  const disabled = JSON.parse((await f.run(['webhook', 'disable', id, '--json'])).stdout) as Record<string, unknown>
  assert.is(disabled['status'], 'disabled')
  assert.is(disabled['disabled_reason'], 'disabled by the operator')
  assert.is((JSON.parse((await f.run(['webhook', 'enable', id, '--json'])).stdout) as Record<string, unknown>)['status'], 'enabled')
  const rotated = JSON.parse((await f.run(['webhook', 'rotate-secret', id, '--json'])).stdout) as Record<string, unknown>
  assert.match(String(rotated['secret']), /^whsec_/)
  assert.is.not(rotated['secret'], added['secret'])
  assert.equal(JSON.parse((await f.run(['webhook', 'deliveries', '--tenant', 'acme', '--json'])).stdout), [])
  assert.is((await f.run(['webhook', 'deliveries', '--tenant', 'acme'])).stdout, '(no deliveries)\n')
  const listed = JSON.parse((await f.run(['webhook', 'list', '--tenant', 'acme', '--json'])).stdout) as Record<string, unknown>[]
  assert.is(listed.length, 1)
  assert.is((JSON.parse((await f.run(['webhook', 'delete', id, '--json'])).stdout) as Record<string, unknown>)['deleted'], true)
  assert.equal(JSON.parse((await f.run(['webhook', 'list', '--tenant', 'acme', '--json'])).stdout), [])
})

test('bad input: one clear line, exit 1, nothing added', async ({ f }) => {
  const cases: [string[], RegExp][] = [
    [['--url', 'http://example.com/h', '--events', '*'], /only https:\/\/ URLs are allowed/],
    [['--url', 'not a url', '--events', '*'], /Invalid webhook URL: not a url/],
    [['--url', 'https://user:pw@example.com/h', '--events', '*'], /no user name or password/],
    [['--url', 'https://example.com/h', '--events', 'content.created'], /Unknown event type: content\.created \(known: inquiry\.created, content\.published/],
    [['--url', 'https://example.com/h', '--events', 'inquiry.created,'], /Unknown event type: \(none\)|Unknown event type/],
    [['--url', 'https://127.0.0.1/h', '--events', '*'], /Refused webhook URL https:\/\/127\.0\.0\.1\/h: 127\.0\.0\.1 is a private.*--allow-private-webhook-targets/],
    [['--url', 'https://[::1]/h', '--events', '*'], /Refused webhook URL/],
    [['--url', 'https://169.254.169.254/latest', '--events', '*'], /Refused webhook URL/],
    [['--url', 'https://localhost/h', '--events', '*'], /localhost resolves to/],
  ]
  for (const [args, message] of cases) {
    const result = await f.run(['webhook', 'add', '--tenant', 'acme', ...args])
    assert.is(result.code, 1, args.join(' '))
    assert.match(result.stderr, message)
    assert.is(result.stderr.split('\n').length, 2, 'one line')
  }
  const unknown = await f.run(['webhook', 'add', '--tenant', 'nope', '--url', 'https://example.com/h', '--events', '*'])
  assert.equal([unknown.code, unknown.stderr], [1, 'frontdesk: Unknown tenant: nope\n'])
  assert.equal(JSON.parse((await f.run(['webhook', 'list', '--tenant', 'acme', '--json'])).stdout), [])
  assert.equal((await f.run(['webhook', 'disable', 'whe_nope'])).stderr, 'frontdesk: Unknown webhook endpoint: whe_nope\n')
  await f.run(['webhook', 'add', '--tenant', 'acme', '--url', 'https://127.0.0.1:9/h', '--events', '*', '--allow-private-webhook-targets'])
  assert.equal(await f.run(['webhook', 'replay', 'evt_nope', '--tenant', 'acme']), { code: 1, stdout: '', stderr: 'frontdesk: Unknown event: evt_nope\n' })
})

test('webhook replay queues the event for serve to send, one line per endpoint (--json: the replays queued)', async ({ f }) => {
  const added = JSON.parse((await f.run(['webhook', 'add', '--tenant', 'acme', '--url', 'https://127.0.0.1:9/h', '--events', 'content.*', '--allow-private-webhook-targets', '--json'])).stdout) as { id: string }
  const store = openSqliteStore({ path: f.db })
  let eventId: string
  try {
    const ctx = createFrontdesk({ store }).context
    await importRecords(ctx, {
      tenantCode: 'acme',
      records: [
        { record: { kind: 'category', code: 'news', name: 'News' }, location: 'a' },
        { record: { kind: 'content', slug: 'one', title: 'One', category_code: 'news', status: 'published' }, location: 'b' },
      ],
    })
    eventId = (await store.readEvents(0, 10))[0]?.id ?? ''
  } finally {
    await store.close()
  }
  assert.equal(await f.run(['webhook', 'replay', eventId, '--tenant', 'acme']), { code: 0, stdout: `Queued ${eventId} (content.published) for ${added.id}: https://127.0.0.1:9/h\n`, stderr: '' })
  const queued = JSON.parse((await f.run(['webhook', 'replay', eventId, '--tenant', 'acme', '--endpoint', added.id, '--json'])).stdout) as { endpoint_id: string; event_id: string }[]
  assert.equal(queued.map((q) => [q.endpoint_id, q.event_id]), [[added.id, eventId]])
})

test('FRONTDESK_WEBHOOK_KEY replaces the key file; a malformed one is refused', async ({ f }) => {
  const key = Buffer.alloc(32, 7).toString('base64url')
  const added = await f.run(['webhook', 'add', '--tenant', 'acme', '--url', 'https://127.0.0.1:9/h', '--events', '*', '--allow-private-webhook-targets'], { vars: { FRONTDESK_WEBHOOK_KEY: key } })
  assert.is(added.code, 0)
  assert.not.ok(existsSync(`${f.db}.webhook-key`))
  const bad = await f.run(['webhook', 'add', '--tenant', 'acme', '--url', 'https://127.0.0.1:9/h', '--events', '*', '--allow-private-webhook-targets'], { vars: { FRONTDESK_WEBHOOK_KEY: 'short' } })
  assert.equal([bad.code, bad.stderr], [1, 'frontdesk: FRONTDESK_WEBHOOK_KEY: A webhook sealing key must be 32 bytes in base64url (43 characters)\n'])
})

test.run()
