import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import * as assert from 'uvu/assert'
import { behaviourSuite, cliFixtureFor, storeOf } from './util/cli-fixture.ts'
import type { ServeProcess } from './util/serve-process.ts'
import { buildCli, devCertFiles, send, sleep, startServe } from './util/serve-process.ts'
import type { Receiver } from './util/webhook-receiver.ts'
import { startReceiver, verified } from './util/webhook-receiver.ts'

/*
 * Webhooks end to end: three `frontdesk serve` processes on one database (a SQLite file, or
 * PostgreSQL through `on-postgres.test.ts`) deliver to a real
 * HTTPS receiver on 127.0.0.1 (trusted through NODE_EXTRA_CA_CERTS); events from HTTP
 * (inquiries), the CLI (import, content commands) and time passing (a scheduled item); the
 * process holding the endpoint's lease is killed with SIGKILL while its delivery hangs. Every event
 * must arrive (verified by `standardwebhooks`), each first receipt in commit order;
 * duplicates (a delivery cut by the kill, retried after its lease) are counted and reported.
 * Then a replay queued by `webhook replay` fails once and is retried by the process left after
 * another is killed.
 */

const test = await behaviourSuite('webhooks delivered by several serve processes', import.meta.url)

test('three processes, one killed with SIGKILL mid-delivery: every event arrives, in commit order, signed; a replay is retried across another kill', async () => {
  buildCli()
  const f = await cliFixtureFor(import.meta.url)
  // Hint: PostgreSQL has no file to keep the sealing key beside; every process gets the same one.
  const vars: Record<string, string> = storeOf(import.meta.url) === 'postgres' ? { FRONTDESK_WEBHOOK_KEY: Buffer.alloc(32, 3).toString('base64url') } : {}
  const run = (args: string[]) => f.run(args, { vars })
  const dir = mkdtempSync(join(tmpdir(), 'frontdesk-wh-'))
  const receiver: Receiver = await startReceiver()
  const servers: ServeProcess[] = []
  try {
    const { ca, files } = await devCertFiles(dir, f.dir)
    writeFileSync(join(dir, 'receiver-ca.pem'), receiver.ca)
    assert.is((await run(['tenant', 'create', 'acme'])).code, 0)
    const key = /\n {2}(fdk_\S+)\n/.exec((await run(['key', 'create', '--tenant', 'acme', '--name', 'form', '--permissions', 'inquiry:create', '--rate-limit', '0'])).stdout)?.[1] ?? ''
    writeFileSync(join(dir, 'setup.jsonl'), [
      { kind: 'category', code: 'news', name: 'News' },
      { kind: 'inquiry_category', code: 'general', name: 'General' },
    ].map((r) => JSON.stringify(r)).join('\n'))
    assert.is((await run(['import', '--tenant', 'acme', join(dir, 'setup.jsonl')])).code, 0)
    const added = JSON.parse((await run(['webhook', 'add', '--tenant', 'acme', '--url', receiver.url(), '--events', '*', '--allow-private-webhook-targets', '--json'])).stdout) as { secret: string }
    // The first delivery hangs: the process holding the endpoint's lease is then the one killed.
    receiver.behave('hang')
    const env = { ...vars, NODE_EXTRA_CA_CERTS: join(dir, 'receiver-ca.pem'), FRONTDESK_WEBHOOK_LEASE_MS: '2000' }
    for (let i = 0; i < 3; i++) servers.push(await startServe(f.db, ['--allow-private-webhook-targets', '--no-access-log'], { ...files, env }))

    const scheduledAt = Date.now() + 3000
    writeFileSync(join(dir, 'items.jsonl'), [
      ...Array.from({ length: 10 }, (_, i) => ({ kind: 'content', slug: `item-${i}`, title: `Item ${i}`, category_code: 'news', status: 'published' })),
      { kind: 'content', slug: 'later', title: 'Later', category_code: 'news', status: 'published', published_at: new Date(scheduledAt).toISOString() },
    ].map((r) => JSON.stringify(r)).join('\n'))
    assert.is((await run(['import', '--tenant', 'acme', join(dir, 'items.jsonl')])).code, 0)
    const hung = Date.now() + 10_000
    while (receiver.received.length === 0 && Date.now() < hung) await sleep(20)
    const holder = await leaseHolderPid(f.db)
    const killed = servers.find((server) => server.pid === holder)
    assert.ok(killed, `the lease holder (pid ${holder}) is one of the servers`)
    killed.child.kill('SIGKILL')
    receiver.behave('slow')
    const survivors = servers.filter((server) => server !== killed)
    for (let i = 0; i < 30; i++) {
      const answer = await send(survivors[i % 2]!.url, ca, 'POST', '/v1/inquiries', {
        headers: { 'x-api-key': key },
        body: { category_code: 'general', title: `Inquiry ${i}`, content: 'Hello', inquirer_name: 'Ina', inquirer_email: 'ina@example.com' },
      })
      assert.is(answer.status, 201)
    }
    assert.is((await run(['content', 'unpublish', 'item-3', '--tenant', 'acme'])).code, 0)
    assert.is((await run(['content', 'delete', 'item-4', '--tenant', 'acme'])).code, 0)

    const expected = 10 + 1 + 30 + 2
    const deadline = Date.now() + 60_000
    const firstIds = () => [...new Set(receiver.received.map((got) => String(got.headers['webhook-id'])))]
    while (firstIds().length < expected && Date.now() < deadline) await sleep(100)
    const payloads = receiver.received.map((got) => ({ id: String(got.headers['webhook-id']), at: Date.now(), ...verified(added.secret, got) }))
    const ids = firstIds()
    assert.is(ids.length, expected, `every event arrives (got ${ids.length})`)
    const duplicates = receiver.received.length - ids.length
    console.log(`  webhooks: ${expected} events, ${receiver.received.length} deliveries, ${duplicates} duplicate(s) after the kill`)
    assert.ok(duplicates >= 1, 'the delivery cut by the kill was made again, with the same webhook-id')
    const later = payloads.find((p) => p.type === 'content.published' && p.data['slug'] === 'later')
    assert.ok(later, 'the scheduled item is announced')
    assert.is(payloads.filter((p) => p.type === 'content.published' && p.data['slug'] === 'later').length - (duplicates > 0 ? 0 : 0) >= 1, true)
    // Commit order: the store's seqs of the events, in the order of their first receipt, grow.
    const s = await f.session()
    try {
      const stored = new Map((await s.store.readEvents(0, 1000)).map((e) => [e.id, e.seq]))
      const seqs = ids.map((id) => stored.get(id) ?? -1)
      assert.equal(seqs, seqs.slice().sort((a, b) => a - b), 'first receipts come in commit order')
      assert.is(stored.size, expected)
    } finally {
      await s.close()
    }
    const types = new Set(payloads.map((p) => p.type))
    assert.equal([...types].sort(), ['content.deleted', 'content.published', 'content.unpublished', 'inquiry.created'])
    const logged = survivors.flatMap((server) => server.lines()).filter((line) => line['log'] === 'webhook')
    assert.ok(logged.length > 0, 'the surviving processes log their attempts as JSON lines')

    // A replay asked from the CLI is sent by a serve process and retried after its first attempt
    // fails, though the process that may have made it is killed with SIGKILL in between.
    // Hint: a holder records what it sent once a batch (100 events or a second), and a holder
    // killed before recording has its batch sent again: the replay below must not meet that.
    const recorded = Date.now() + 15_000
    let pending: number | undefined
    while (pending !== 0 && Date.now() < recorded) {
      await sleep(200)
      pending = (JSON.parse((await run(['webhook', 'list', '--tenant', 'acme', '--json'])).stdout) as { pending: number }[])[0]?.pending
    }
    assert.is(pending, 0, 'every event is recorded as delivered')
    const replayed = ids[0] ?? ''
    const before = receiver.received.length
    receiver.behave(() => (receiver.received.length === before + 1 ? 'fail' : 'ok'))
    const queued = await run(['webhook', 'replay', replayed, '--tenant', 'acme'])
    assert.is(queued.code, 0, queued.stderr)
    const firstTry = Date.now() + 10_000
    while (receiver.received.length === before && Date.now() < firstTry) await sleep(20)
    assert.is(receiver.received.length, before + 1, 'the first attempt is made by serve')
    survivors[0]?.child.kill('SIGKILL')
    const retried = Date.now() + 15_000
    while (receiver.received.length < before + 2 && Date.now() < retried) await sleep(50)
    assert.equal(receiver.received.slice(before).map((got) => String(got.headers['webhook-id'])), [replayed, replayed], 'retried by the process left, with the same webhook-id')
  } finally {
    const stopping = Date.now()
    await Promise.all(servers.map((server) => server.stop('SIGTERM').catch(() => null)))
    if (Date.now() - stopping > 5000) console.log(`  stopping took ${Date.now() - stopping} ms`)
    await receiver.close()
    await f.cleanup()
    rmSync(dir, { recursive: true, force: true })
  }
})

/** The pid of the process holding the (one) endpoint's lease: its owner name is `<host>:<pid>:<random>`. */
async function leaseHolderPid(db: string): Promise<number> {
  let owner: string | null
  if (storeOf(import.meta.url) === 'postgres') {
    const { default: pg } = await import('pg')
    const client = new pg.Client({ connectionString: db })
    // Hint: a connection the server ends fails the query; an 'error' without a listener would end the test process.
    client.on('error', () => {})
    await client.connect()
    try {
      owner = (await client.query<{ lease_owner: string | null }>('SELECT lease_owner FROM webhook_endpoints')).rows[0]?.lease_owner ?? null
    } finally {
      await client.end()
    }
  } else {
    const { default: Database } = await import('better-sqlite3')
    const sqlite = new Database(db, { readonly: true })
    try {
      owner = (sqlite.prepare('SELECT lease_owner FROM webhook_endpoints').get() as { lease_owner: string | null } | undefined)?.lease_owner ?? null
    } finally {
      sqlite.close()
    }
  }
  return Number(owner?.split(':')[1] ?? Number.NaN)
}

test.run()
