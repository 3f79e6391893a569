import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import * as assert from 'uvu/assert'
import type { Context, Frontdesk, Principal, Store, WebhookAttemptRecord, WebhookStore } from '@frontdesk/core'
import {
  addWebhookEndpoint, createApiKey, createFrontdesk, createTenant, deleteContentItem, deleteWebhookEndpoint, DISABLE_AFTER_MS, importRecords,
  listWebhookEndpoints, newSealingKey, pruneWebhookHistory, replayWebhookEvent, RETRY_PAUSES_MS, rotateWebhookSecret, sealingKey, setContentStatus,
  setWebhookEndpointDisabled, WebhookDeliverer,
} from '@frontdesk/core'
import { openSqliteStore } from '@frontdesk/adapter-sqlite'
import { spin } from '../../test/util/busy-loop.ts'
import { behaviourSuite, storeOf } from '../../test/util/cli-fixture.ts'
import type { Receiver } from '../../test/util/webhook-receiver.ts'
import { startReceiver, verified } from '../../test/util/webhook-receiver.ts'
import { DeliveryPacer } from './delivery-pacer.ts'
import { sendWebhook } from './send-webhook.ts'

/*
 * Delivery over real HTTPS to receivers on 127.0.0.1 (their own certificate, trusted as the
 * sender's CA), every delivery verified with the `standardwebhooks` reference library, on a
 * SQLite file (and on PostgreSQL, see `on-postgres.test.ts`), with a clock the test moves for
 * the retry schedule.
 */

interface World {
  dir: string
  store: Store
  webhooks: WebhookStore
  /** Opens the database once more, as another process would. */
  reopen: () => Promise<Store>
  drop: () => Promise<void>
  frontdesk: Frontdesk
  ctx: Context
  clock: { ms: number }
  key: Buffer
  receiver: Receiver
  attempts: WebhookAttemptRecord[]
  deliverer: (options?: { timeoutMs?: number; allowPrivate?: boolean; owner?: string; pace?: () => Promise<void> | undefined }) => WebhookDeliverer
}

const test = await behaviourSuite<{ w: World }>('webhook delivery', import.meta.url, {} as { w: World })
test.before.each(async (context) => {
  const dir = mkdtempSync(join(tmpdir(), 'frontdesk-webhooks-'))
  let reopen: () => Promise<Store>
  let drop = async () => {}
  if (storeOf(import.meta.url) === 'postgres') {
    const [{ createTestDatabase }, { openPostgresStore }] = await Promise.all([import('@frontdesk/adapter-postgres/testing'), import('@frontdesk/adapter-postgres')])
    const database = await createTestDatabase()
    reopen = () => openPostgresStore({ url: database.url })
    drop = database.drop
  } else {
    reopen = async () => openSqliteStore({ path: join(dir, 'db') })
  }
  const store = await reopen()
  const webhooks = store.webhooks
  if (webhooks === undefined) throw new Error('the store keeps no webhooks')
  const clock = { ms: Date.now() }
  const frontdesk = createFrontdesk({ store, clock: { now: () => clock.ms } })
  const receiver = await startReceiver()
  const attempts: WebhookAttemptRecord[] = []
  const key = sealingKey(newSealingKey())
  const ctx = frontdesk.context
  context.w = {
    dir, store, webhooks, reopen, drop, frontdesk, ctx, clock, key, receiver, attempts,
    deliverer: (options = {}) =>
      new WebhookDeliverer(ctx, webhooks, {
        sealingKey: key,
        owner: options.owner ?? 'test',
        leaseMs: 30_000,
        send: (request) => sendWebhook(request, { allowPrivate: options.allowPrivate ?? true, ca: receiver.ca, ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }) }),
        onAttempt: (attempt) => attempts.push(attempt),
        random: () => 0.5,
        ...(options.pace === undefined ? {} : { pace: options.pace }),
      }),
  }
})
test.after.each(async ({ w }) => {
  await w.receiver.close()
  await w.store.close()
  await w.drop()
  rmSync(w.dir, { recursive: true, force: true })
})

async function tenantWithContent(w: World, code: string): Promise<Principal> {
  const tenant = await createTenant(w.ctx, { code, name: code })
  const { record } = await createApiKey(w.ctx, { tenantCode: code, name: 'forms', permissions: ['inquiry:create'], personal: false, rateLimit: 0 })
  await importRecords(w.ctx, {
    tenantCode: code,
    records: [
      { record: { kind: 'category', code: 'news', name: 'News' }, location: 'a' },
      { record: { kind: 'inquiry_category', code: 'general', name: 'General' }, location: 'b' },
    ],
  })
  return { tenant, key: record }
}

/** Runs the deliverer until nothing is due (at the test's clock). */
async function drain(deliverer: WebhookDeliverer): Promise<void> {
  for (let i = 0; i < 100 && (await deliverer.deliverOnce()); i++);
}

test('every event type reaches a subscribed endpoint, signed (verified by standardwebhooks), in commit order, with the body { type, timestamp, data }', async ({ w }) => {
  const principal = await tenantWithContent(w, 'acme')
  const { secret } = await addWebhookEndpoint(w.ctx, w.key, { tenantCode: 'acme', url: w.receiver.url(), events: '*' })
  const inquiry = await w.frontdesk.createInquiry(principal, { category_code: 'general', title: 'Hello', content: 'Call me', inquirer_name: 'Ina', inquirer_email: 'ina@example.com' })
  await importRecords(w.ctx, { tenantCode: 'acme', records: [{ record: { kind: 'content', slug: 'a', title: 'A', category_code: 'news', status: 'published' }, location: 'x' }] })
  await importRecords(w.ctx, { tenantCode: 'acme', records: [{ record: { kind: 'content', slug: 'a', title: 'A2', category_code: 'news', status: 'published' }, location: 'x' }] })
  await setContentStatus(w.ctx, 'acme', 'a', 'draft')
  await setContentStatus(w.ctx, 'acme', 'a', 'published')
  await deleteContentItem(w.ctx, 'acme', 'a')
  await drain(w.deliverer())
  const payloads = w.receiver.received.map((got) => verified(secret, got))
  assert.equal(payloads.map((p) => p.type), ['inquiry.created', 'content.published', 'content.updated', 'content.unpublished', 'content.published', 'content.deleted'])
  const created = payloads[0]?.data ?? {}
  assert.equal(
    { ...created, created_at: undefined },
    { ...inquiry.body, created_at: undefined, content: 'Call me', priority: 2, inquirer_name: 'Ina', inquirer_email: 'ina@example.com', inquirer_phone: null, inquirer_company: null, inquirer_department: null },
  )
  assert.is(payloads[2]?.data['title'], 'A2')
  for (const got of w.receiver.received) {
    assert.match(String(got.headers['webhook-id']), /^evt_/)
    assert.match(String(got.headers['webhook-signature']), /^v1,[A-Za-z0-9+/]+=*$/)
    assert.is(got.headers['content-type'], 'application/json')
  }
  assert.ok(w.attempts.every((a) => a.ok && a.attempt === 1))
})

test("tenants are sealed: an endpoint of one tenant never receives another's events; an endpoint gets only the types it subscribed to", async ({ w }) => {
  const a = await tenantWithContent(w, 'a')
  const b = await tenantWithContent(w, 'b')
  const { secret } = await addWebhookEndpoint(w.ctx, w.key, { tenantCode: 'a', url: w.receiver.url('/a'), events: 'inquiry.created' })
  await addWebhookEndpoint(w.ctx, w.key, { tenantCode: 'b', url: w.receiver.url('/b'), events: 'content.*' })
  const body = { category_code: 'general', title: 'Hi', content: 'x', inquirer_name: 'I', inquirer_email: 'i@example.com' }
  await w.frontdesk.createInquiry(a, body)
  await w.frontdesk.createInquiry(b, body)
  await importRecords(w.ctx, { tenantCode: 'a', records: [{ record: { kind: 'content', slug: 'x', title: 'X', category_code: 'news', status: 'published' }, location: 'x' }] })
  await importRecords(w.ctx, { tenantCode: 'b', records: [{ record: { kind: 'content', slug: 'y', title: 'Y', category_code: 'news', status: 'published' }, location: 'x' }] })
  await drain(w.deliverer())
  const toA = w.receiver.received.filter((got) => got.path === '/a')
  const toB = w.receiver.received.filter((got) => got.path === '/b')
  assert.equal(toA.map((got) => verified(secret, got).type), ['inquiry.created'])
  assert.equal(toB.map((got) => JSON.parse(got.body) as { type: string; data: { slug: string } }).map((p) => `${p.type}:${p.data.slug}`), ['content.published:y'])
})

test('a failing endpoint is retried on the schedule with the same webhook-id, and later events wait for the one before them', async ({ w }) => {
  await tenantWithContent(w, 'acme')
  const { secret } = await addWebhookEndpoint(w.ctx, w.key, { tenantCode: 'acme', url: w.receiver.url(), events: 'content.*' })
  for (const slug of ['one', 'two']) {
    await importRecords(w.ctx, { tenantCode: 'acme', records: [{ record: { kind: 'content', slug, title: slug, category_code: 'news', status: 'published' }, location: 'x' }] })
  }
  w.receiver.behave('fail')
  const deliverer = w.deliverer()
  await drain(deliverer)
  assert.is(w.receiver.received.length, 1)
  // Not due yet: nothing is sent before the pause (5 s, jitter 0 at random 0.5) has passed.
  w.clock.ms += RETRY_PAUSES_MS[0]! - 100
  await drain(deliverer)
  assert.is(w.receiver.received.length, 1)
  w.clock.ms += 200
  await drain(deliverer)
  assert.is(w.receiver.received.length, 2)
  w.receiver.behave('ok')
  w.clock.ms += RETRY_PAUSES_MS[1]! + 100
  await drain(deliverer)
  const ids = w.receiver.received.map((got) => String(got.headers['webhook-id']))
  assert.is(ids.length, 4)
  assert.is(ids[0], ids[1])
  assert.is(ids[1], ids[2])
  assert.equal(w.receiver.received.map((got) => verified(secret, got).data['slug']), ['one', 'one', 'one', 'two'])
  assert.equal(w.attempts.map((a) => `${a.attempt}:${a.ok ? 'ok' : a.status}`), ['1:500', '2:500', '3:ok', '1:ok'])
  assert.ok(w.attempts[0]?.next_attempt_at !== null)
  const [listed] = await listWebhookEndpoints(w.ctx, 'acme')
  assert.is(listed?.pending, 0)
})

test('a receiver that hangs, redirects or answers 10 MB: a timeout and a redirect fail, a large 2xx succeeds having read at most 64 KiB', async ({ w }) => {
  await tenantWithContent(w, 'acme')
  await addWebhookEndpoint(w.ctx, w.key, { tenantCode: 'acme', url: w.receiver.url(), events: 'content.*' })
  await importRecords(w.ctx, { tenantCode: 'acme', records: [{ record: { kind: 'content', slug: 'one', title: 'One', category_code: 'news', status: 'published' }, location: 'x' }] })
  const deliverer = w.deliverer({ timeoutMs: 500 })
  w.receiver.behave('hang')
  const started = Date.now()
  await deliverer.deliverOnce()
  assert.ok(Date.now() - started < 3000, 'the hanging receiver is given up after the timeout')
  w.receiver.behave('redirect')
  w.clock.ms += 60_000
  await deliverer.deliverOnce()
  w.receiver.behave('huge')
  w.clock.ms += 600_000
  await deliverer.deliverOnce()
  assert.equal(w.attempts.map((a) => [a.ok, a.status, a.error?.replace(/ .*/, '') ?? null]), [[false, null, 'timed'], [false, 302, 'HTTP'], [true, 200, null]])
})

test('private targets are refused at connect time unless allowed', async ({ w }) => {
  await tenantWithContent(w, 'acme')
  await addWebhookEndpoint(w.ctx, w.key, { tenantCode: 'acme', url: w.receiver.url().replace('127.0.0.1', 'localhost'), events: '*' })
  await importRecords(w.ctx, { tenantCode: 'acme', records: [{ record: { kind: 'content', slug: 'one', title: 'One', category_code: 'news', status: 'published' }, location: 'x' }] })
  await w.deliverer({ allowPrivate: false }).deliverOnce()
  assert.is(w.receiver.received.length, 0)
  assert.match(w.attempts[0]?.error ?? '', /refused target: localhost resolves to .* private, loopback/)
  const direct = await sendWebhook({ url: 'https://169.254.169.254/latest', headers: {}, body: '{}' }, { allowPrivate: false })
  assert.match(direct.error ?? '', /refused target: 169\.254\.169\.254/)
})

test('an endpoint failing for 5 days is disabled, and the log says why', async ({ w }) => {
  await tenantWithContent(w, 'acme')
  await addWebhookEndpoint(w.ctx, w.key, { tenantCode: 'acme', url: w.receiver.url(), events: '*' })
  for (const slug of ['one', 'two', 'three']) {
    await importRecords(w.ctx, { tenantCode: 'acme', records: [{ record: { kind: 'content', slug, title: slug, category_code: 'news', status: 'published' }, location: 'x' }] })
  }
  w.receiver.behave('fail')
  const deliverer = w.deliverer()
  const start = w.clock.ms
  while (w.clock.ms - start < DISABLE_AFTER_MS + 86_400_000) {
    await drain(deliverer)
    w.clock.ms += 3_600_000
  }
  const [listed] = await listWebhookEndpoints(w.ctx, 'acme')
  assert.is(listed?.status, 'disabled')
  assert.match(listed?.disabled_reason ?? '', /every attempt failed since .* \(5 days\); last: HTTP 500/)
  assert.is(listed?.failed, 1, 'the first event was given up after its last retry (~3 days)')
  assert.is(w.attempts.filter((a) => a.event_id === w.attempts[0]?.event_id).length, RETRY_PAUSES_MS.length + 1)
})

test('after a rotation both secrets sign for 24 hours, then only the new one', async ({ w }) => {
  await tenantWithContent(w, 'acme')
  const { record, secret: old } = await addWebhookEndpoint(w.ctx, w.key, { tenantCode: 'acme', url: w.receiver.url(), events: '*' })
  const { secret: fresh } = await rotateWebhookSecret(w.ctx, w.key, record.id)
  const publish = (slug: string) => importRecords(w.ctx, { tenantCode: 'acme', records: [{ record: { kind: 'content', slug, title: slug, category_code: 'news', status: 'published' }, location: 'x' }] })
  await publish('one')
  await drain(w.deliverer())
  const first = w.receiver.received[0]
  assert.ok(first)
  verified(old, first)
  verified(fresh, first)
  w.clock.ms += 86_400_000 + 1000
  await publish('two')
  await drain(w.deliverer())
  const second = w.receiver.received[1]
  assert.ok(second)
  verified(fresh, second)
  assert.throws(() => verified(old, second))
})

test('two deliverers on one database never attempt one endpoint at once, and deliver each event once', async ({ w }) => {
  await tenantWithContent(w, 'acme')
  await addWebhookEndpoint(w.ctx, w.key, { tenantCode: 'acme', url: w.receiver.url(), events: '*' })
  for (let i = 0; i < 20; i++) {
    await importRecords(w.ctx, { tenantCode: 'acme', records: [{ record: { kind: 'content', slug: `s${i}`, title: `${i}`, category_code: 'news', status: 'published' }, location: 'x' }] })
  }
  const other = await w.reopen()
  try {
    const otherCtx = createFrontdesk({ store: other, clock: { now: () => w.clock.ms } }).context
    const second = new WebhookDeliverer(otherCtx, other.webhooks!, {
      sealingKey: w.key, owner: 'other', send: (request) => sendWebhook(request, { allowPrivate: true, ca: w.receiver.ca }),
    })
    await Promise.all([drain(w.deliverer()), drain(second), drain(w.deliverer({ owner: 'third' }))])
  } finally {
    await other.close()
  }
  assert.equal(w.receiver.received.map((got) => (JSON.parse(got.body) as { data: { slug: string } }).data.slug), Array.from({ length: 20 }, (_, i) => `s${i}`))
})

test("a lease's attempts are written together: a holder that dies after sending, before writing, has those events sent again by the next holder with the same webhook-ids", async ({ w }) => {
  const { tenant } = await tenantWithContent(w, 'acme')
  const { secret } = await addWebhookEndpoint(w.ctx, w.key, { tenantCode: 'acme', url: w.receiver.url(), events: 'content.*' })
  for (let i = 0; i < 5; i++) {
    await importRecords(w.ctx, { tenantCode: 'acme', records: [{ record: { kind: 'content', slug: `s${i}`, title: `${i}`, category_code: 'news', status: 'published' }, location: 'x' }] })
  }
  // Hint: the holder "dies" at its fourth send: that send never ends, so it never writes again (its lease runs out).
  let sent = 0
  const dying = new WebhookDeliverer(w.ctx, w.webhooks, {
    sealingKey: w.key, owner: 'dies', leaseMs: 30_000, onAttempt: (attempt) => w.attempts.push(attempt),
    send: (request) => (++sent <= 3 ? sendWebhook(request, { allowPrivate: true, ca: w.receiver.ca }) : new Promise(() => {})),
  })
  void dying.deliverOnce()
  const started = performance.now()
  while (sent < 4 && performance.now() - started < 5000) await new Promise((resolve) => setTimeout(resolve, 5))
  assert.is(w.receiver.received.length, 3)
  assert.equal(await w.webhooks.listWebhookAttempts(tenant.id, { limit: 10 }), [], 'nothing written yet')
  w.clock.ms += 30_001
  await drain(w.deliverer())
  const slugs = w.receiver.received.map((got) => `${String(verified(secret, got).data['slug'])}:${String(got.headers['webhook-id'])}`)
  const events = await w.store.readEvents(0, 10)
  const expected = events.map((e) => `${String(e.data['slug'])}:${e.id}`)
  assert.equal(slugs, [...expected.slice(0, 3), ...expected])
  assert.equal(w.attempts.map((a) => `${a.event_id}:${a.attempt}`), events.map((e) => `${e.id}:1`), "only the second holder's attempts are logged")
  const [listed] = await listWebhookEndpoints(w.ctx, 'acme')
  assert.is(listed?.pending, 0)
})

test('a holder writes its batch every second and then reads the endpoint again: a disable during a lease stops delivery at the next batch, and enabling resumes after it', async ({ w }) => {
  await tenantWithContent(w, 'acme')
  const { record } = await addWebhookEndpoint(w.ctx, w.key, { tenantCode: 'acme', url: w.receiver.url(), events: 'content.*' })
  for (let i = 0; i < 6; i++) {
    await importRecords(w.ctx, { tenantCode: 'acme', records: [{ record: { kind: 'content', slug: `s${i}`, title: `${i}`, category_code: 'news', status: 'published' }, location: 'x' }] })
  }
  // Hint: each send takes 600 ms of the test's clock, so a batch is written after every second send; the third disables the endpoint.
  let sent = 0
  const holder = new WebhookDeliverer(w.ctx, w.webhooks, {
    sealingKey: w.key, owner: 'holder', leaseMs: 30_000, onAttempt: (attempt) => w.attempts.push(attempt),
    send: async (request) => {
      w.clock.ms += 600
      if (++sent === 3) await setWebhookEndpointDisabled(w.ctx, record.id, true)
      return sendWebhook(request, { allowPrivate: true, ca: w.receiver.ca })
    },
  })
  assert.ok(await holder.deliverOnce())
  const slugs = () => w.receiver.received.map((got) => (JSON.parse(got.body) as { data: { slug: string } }).data.slug)
  assert.equal(slugs(), ['s0', 's1', 's2', 's3'])
  assert.is(w.attempts.length, 4, 'both batches written')
  assert.not.ok(await holder.deliverOnce(), 'disabled: not due')
  await setWebhookEndpointDisabled(w.ctx, record.id, false)
  await drain(holder)
  assert.equal(slugs(), ['s0', 's1', 's2', 's3', 's4', 's5'])
})

test('a hanging endpoint delays neither another endpoint nor the API: the other gets its events within a second', async ({ w }) => {
  const principal = await tenantWithContent(w, 'acme')
  await addWebhookEndpoint(w.ctx, w.key, { tenantCode: 'acme', url: w.receiver.url('/slow'), events: '*' })
  await addWebhookEndpoint(w.ctx, w.key, { tenantCode: 'acme', url: w.receiver.url('/fast'), events: '*' })
  w.receiver.behave((got) => (got.path === '/slow' ? 'hang' : 'ok'))
  const deliverer = w.deliverer({ timeoutMs: 5000 })
  deliverer.start()
  try {
    const body = { category_code: 'general', title: 'Hi', content: 'x', inquirer_name: 'I', inquirer_email: 'i@example.com' }
    const started = performance.now()
    for (let i = 0; i < 5; i++) {
      const asked = performance.now()
      await w.frontdesk.createInquiry(principal, body)
      assert.ok(performance.now() - asked < 1000, 'an inquiry is answered while the slow endpoint hangs')
      deliverer.poke()
    }
    while (w.receiver.received.filter((got) => got.path === '/fast').length < 5 && performance.now() - started < 3000) await new Promise((resolve) => setTimeout(resolve, 10))
    assert.is(w.receiver.received.filter((got) => got.path === '/fast').length, 5)
    assert.ok(performance.now() - started < 1500, `delivered in ${Math.round(performance.now() - started)} ms`)
    assert.is(w.receiver.received.filter((got) => got.path === '/slow').length, 1, 'the slow endpoint holds its first event, in order')
  } finally {
    await w.receiver.close()
    await deliverer.stop()
  }
})

test('deliveries give way to a busy API: while requests keep the loop busy, attempts start one per gap of the pacer; then at once again', async ({ w }) => {
  const principal = await tenantWithContent(w, 'acme')
  await addWebhookEndpoint(w.ctx, w.key, { tenantCode: 'acme', url: w.receiver.url(), events: 'inquiry.created' })
  const body = { category_code: 'general', title: 'Hi', content: 'x', inquirer_name: 'I', inquirer_email: 'i@example.com' }
  for (let i = 0; i < 5; i++) await w.frontdesk.createInquiry(principal, body)
  const pacer = new DeliveryPacer({ windowMs: 40, gapMs: 150 })
  const deliverer = w.deliverer({ pace: () => pacer.pace() })
  try {
    const started = performance.now()
    // Hint: the loop is kept busy (with requests) until the five have arrived, or 3 s.
    const spinning = (async () => {
      while (w.receiver.received.length < 5 && performance.now() - started < 3000) await spin(20, pacer, true)
    })()
    await new Promise((resolve) => setTimeout(resolve, 100))
    assert.ok(pacer.busy)
    deliverer.start()
    await spinning
    assert.is(w.receiver.received.length, 5)
    assert.ok(performance.now() - started >= 100 + 4 * 140, `five attempts one per 150 ms took ${Math.round(performance.now() - started)} ms`)
    while (pacer.busy) await new Promise((resolve) => setTimeout(resolve, 20))
    const quiet = performance.now()
    for (let i = 0; i < 5; i++) await w.frontdesk.createInquiry(principal, body)
    deliverer.poke()
    while (w.receiver.received.length < 10 && performance.now() - quiet < 3000) await new Promise((resolve) => setTimeout(resolve, 5))
    assert.is(w.receiver.received.length, 10)
    // Hint: paced, the five would take four gaps (600 ms) at least.
    assert.ok(performance.now() - quiet < 500, `five more, the API idle, took ${Math.round(performance.now() - quiet)} ms`)
  } finally {
    await deliverer.stop()
    pacer.close()
  }
})

test('a replay is queued and sent by the delivery loop with the same webhook-id, retried on the schedule: a receiver failing twice gets it at the third attempt, though its holder died between attempts', async ({ w }) => {
  await tenantWithContent(w, 'acme')
  await tenantWithContent(w, 'other')
  const { record, secret } = await addWebhookEndpoint(w.ctx, w.key, { tenantCode: 'acme', url: w.receiver.url(), events: 'content.*' })
  await importRecords(w.ctx, { tenantCode: 'acme', records: [{ record: { kind: 'content', slug: 'one', title: 'One', category_code: 'news', status: 'published' }, location: 'x' }] })
  await drain(w.deliverer())
  const [event] = await w.store.readEvents(0, 10)
  assert.ok(event)
  // Hint: the first two requests after the original delivery fail.
  w.receiver.behave(() => (w.receiver.received.length === 2 || w.receiver.received.length === 3 ? 'fail' : 'ok'))
  const queued = await replayWebhookEvent(w.ctx, { tenantCode: 'acme', eventId: event.id })
  assert.equal(queued.map((q) => [q.endpoint_id, q.event_id]), [[record.id, event.id]])
  assert.is(w.receiver.received.length, 1, 'queued, not sent by the caller')
  // Hint: the first holder makes attempt 1, then "dies" in attempt 2 (a send that never ends: it never writes again).
  let sent = 0
  const first = new WebhookDeliverer(w.ctx, w.webhooks, {
    sealingKey: w.key, owner: 'dies', leaseMs: 30_000, random: () => 0.5, onAttempt: (attempt) => w.attempts.push(attempt),
    send: (request) => (++sent === 1 ? sendWebhook(request, { allowPrivate: true, ca: w.receiver.ca }) : new Promise(() => {})),
  })
  assert.ok(await first.deliverOnce())
  assert.is(w.receiver.received.length, 2)
  w.clock.ms += RETRY_PAUSES_MS[0]! + 100
  void first.deliverOnce()
  const started = performance.now()
  while (sent < 2 && performance.now() - started < 5000) await new Promise((resolve) => setTimeout(resolve, 5))
  assert.is(sent, 2)
  // Another process on the database takes the replay once the dead holder's lease ran out.
  const other = await w.reopen()
  try {
    const otherCtx = createFrontdesk({ store: other, clock: { now: () => w.clock.ms } }).context
    const second = new WebhookDeliverer(otherCtx, other.webhooks!, {
      sealingKey: w.key, owner: 'second', leaseMs: 30_000, random: () => 0.5, onAttempt: (attempt) => w.attempts.push(attempt),
      send: (request) => sendWebhook(request, { allowPrivate: true, ca: w.receiver.ca }),
    })
    assert.not.ok(await second.deliverOnce(), 'leased by the dead holder')
    w.clock.ms += 30_001
    await drain(second)
    assert.is(w.receiver.received.length, 3)
    w.clock.ms += RETRY_PAUSES_MS[1]! - 1000
    await drain(second)
    assert.is(w.receiver.received.length, 3, 'not before the pause')
    w.clock.ms += 2000
    await drain(second)
    assert.is(w.receiver.received.length, 4)
    w.clock.ms += 86_400_000
    assert.not.ok(await second.deliverOnce(), 'delivered: nothing is left to do')
  } finally {
    await other.close()
  }
  assert.equal(w.receiver.received.map((got) => String(got.headers['webhook-id'])), [event.id, event.id, event.id, event.id])
  for (const got of w.receiver.received) verified(secret, got)
  const logged = await w.webhooks.listWebhookAttempts(event.tenant_id, { limit: 10 })
  assert.equal(logged.reverse().map((a) => `${a.attempt}:${a.ok ? 'ok' : a.status}:${a.next_attempt_at === null ? '-' : 'next'}`), ['1:ok:-', '1:500:next', '2:500:next', '3:ok:-'])
  await replayWebhookEvent(w.ctx, { tenantCode: 'other', eventId: event.id }).then(() => assert.unreachable(), (error: Error) => assert.match(error.message, /Unknown event/))
  await replayWebhookEvent(w.ctx, { tenantCode: 'acme', eventId: 'evt_nope' }).then(() => assert.unreachable(), (error: Error) => assert.match(error.message, /Unknown event: evt_nope/))
  await setWebhookEndpointDisabled(w.ctx, record.id, true)
  await replayWebhookEvent(w.ctx, { tenantCode: 'acme', eventId: event.id, endpointId: record.id }).then(() => assert.unreachable(), (error: Error) => assert.match(error.message, /is disabled: enable it/))
})

test('a replay is given up after the last retry, and its event is kept from pruning while it waits', async ({ w }) => {
  const DAY = 86_400_000
  await tenantWithContent(w, 'acme')
  await addWebhookEndpoint(w.ctx, w.key, { tenantCode: 'acme', url: w.receiver.url(), events: 'content.*' })
  await importRecords(w.ctx, { tenantCode: 'acme', records: [{ record: { kind: 'content', slug: 'one', title: 'One', category_code: 'news', status: 'published' }, location: 'x' }] })
  const deliverer = w.deliverer()
  await drain(deliverer)
  const [event] = await w.store.readEvents(0, 10)
  assert.ok(event)
  w.receiver.behave('fail')
  await replayWebhookEvent(w.ctx, { tenantCode: 'acme', eventId: event.id })
  w.clock.ms += 31 * DAY
  assert.is(await pruneWebhookHistory(w.ctx, w.webhooks, new Date(w.clock.ms - 30 * DAY).toISOString()), 1, 'the first attempt goes, the event waited for stays')
  assert.equal((await w.store.readEvents(0, 10)).map((e) => e.id), [event.id])
  for (let i = 0; i < 2 * RETRY_PAUSES_MS.length; i++) {
    await drain(deliverer)
    w.clock.ms += DAY
  }
  const attempts = w.attempts.filter((a) => a.event_id === event.id).slice(1)
  assert.equal(attempts.map((a) => a.attempt), Array.from({ length: RETRY_PAUSES_MS.length + 1 }, (_, i) => i + 1))
  assert.is(attempts.at(-1)?.next_attempt_at, null, 'given up')
  const [listed] = await listWebhookEndpoints(w.ctx, 'acme')
  assert.is(listed?.status, 'enabled', 'a replay failing does not disable its endpoint')
  w.clock.ms += 31 * DAY
  await pruneWebhookHistory(w.ctx, w.webhooks, new Date(w.clock.ms - 30 * DAY).toISOString())
  assert.equal(await w.store.readEvents(0, 10), [], 'once the replay is given up, its event is pruned')
})

test('history older than the retention is pruned a few rows per write: events every endpoint handled and old attempts go; what an endpoint, even disabled, has not handled stays', async ({ w }) => {
  const DAY = 86_400_000
  const acme = await tenantWithContent(w, 'acme')
  const other = await tenantWithContent(w, 'other')
  await addWebhookEndpoint(w.ctx, w.key, { tenantCode: 'acme', url: w.receiver.url('/a'), events: '*' })
  const stuck = await addWebhookEndpoint(w.ctx, w.key, { tenantCode: 'other', url: w.receiver.url('/o'), events: '*' })
  await setWebhookEndpointDisabled(w.ctx, stuck.record.id, true)
  const body = { category_code: 'general', title: 'Hi', content: 'x', inquirer_name: 'I', inquirer_email: 'i@example.com' }
  for (let i = 0; i < 5; i++) {
    await w.frontdesk.createInquiry(acme, body)
    await w.frontdesk.createInquiry(other, body)
  }
  const deliverer = w.deliverer()
  await drain(deliverer)
  assert.is(w.receiver.received.length, 5)
  assert.is(await deliverer.pruneOnce(), 0, 'nothing is older than 30 days yet')
  w.clock.ms += 31 * DAY
  await w.frontdesk.createInquiry(acme, body)
  const counts = async () => {
    const events = await w.store.readEvents(0, 100)
    const attempts = await w.webhooks.listWebhookAttempts(acme.tenant.id, { limit: 100 })
    return { acme: events.filter((e) => e.tenant_id === acme.tenant.id).length, other: events.filter((e) => e.tenant_id === other.tenant.id).length, attempts: attempts.length }
  }
  assert.equal(await counts(), { acme: 6, other: 5, attempts: 5 })
  assert.is(await pruneWebhookHistory(w.ctx, w.webhooks, new Date(w.clock.ms - 30 * DAY).toISOString(), { batch: 2 }), 10)
  assert.equal(await counts(), { acme: 1, other: 5, attempts: 0 }, "the new event stays, and so do the events the disabled endpoint has not handled")
  await drain(deliverer)
  assert.is(w.receiver.received.length, 6, 'delivery goes on after the pruned events')
  await deleteWebhookEndpoint(w.ctx, stuck.record.id)
  assert.is(await deliverer.pruneOnce(), 5)
  assert.equal(await counts(), { acme: 1, other: 0, attempts: 1 })
  assert.is(await w.store.lastEventSeq() > 0, true)
})

test.run()
