import type { AddressInfo } from 'node:net'
import * as assert from 'uvu/assert'
import { openPostgresStore } from '@frontdesk/adapter-postgres'
import type { PostgresStore } from '@frontdesk/adapter-postgres'
import { admin, postgresSuite } from '@frontdesk/adapter-postgres/testing'
import { createApiKey, createFrontdesk, createTenant, importRecords, memoByDefault } from '@frontdesk/core'
import { createDevCert, createServer } from '@frontdesk/http'
import type { TestResponse } from './util/test-server.ts'
import { startPartitionProxy } from './util/partition-proxy.ts'
import { closeServer, testRequest } from './util/test-server.ts'

/*
 * A real HTTPS server on a PostgreSQL server of its own (started for this file), under load
 * while the database goes away: its connections terminated, then the whole server stopped and
 * started again. Every answer must be a success or a 503 with Retry-After, promptly; the
 * server must recover by itself; no acknowledged inquiry may be lost.
 */

interface Throwaway {
  url: string
  halt(): Promise<void>
  resume(): Promise<void>
  stop(): Promise<void>
}

interface World {
  pg: Throwaway
  store: PostgresStore
  server: ReturnType<typeof createServer>
  base: string
  ca: string
  /** The TLS key of the certificate `ca`, for more servers. */
  tlsCert: string
  tlsKey: string
  key: string
  /** Ids of the inquiries answered 201. */
  acknowledged: string[]
}

const BODY = { category_code: 'general', title: 'Hello', content: 'Please call me.', inquirer_name: 'Ina', inquirer_email: 'ina@example.com' }
const SLOW_MS = 8_000

const faults = await postgresSuite<World>('a server on PostgreSQL while the database goes away')

faults.before(async (world) => {
  // Hint: a path in a variable, so that the type checker does not follow it out of the package.
  const script = new URL('../../../scripts/test-postgres.mjs', import.meta.url).href
  const { startTestPostgres } = (await import(script)) as { startTestPostgres: () => Promise<Throwaway> }
  world.pg = await startTestPostgres()
  await admin(world.pg.url, 'CREATE DATABASE frontdesk')
  const url = new URL(world.pg.url)
  url.pathname = '/frontdesk'
  world.store = await openPostgresStore({ url: url.toString(), connectTimeoutMs: 1_000, statementTimeoutMs: 2_000 })
  // Hint: no response cache, so that every list request reaches the database; no rate limit,
  // since the quick 503s of an outage would otherwise use up the key's allowance.
  const frontdesk = createFrontdesk({ store: world.store, cache: { maxEntries: 0 }, defaultRateLimit: 0 })
  await createTenant(frontdesk.context, { code: 'acme' })
  await importRecords(frontdesk.context, {
    tenantCode: 'acme',
    records: [
      { kind: 'category', code: 'news', name: 'News' },
      { kind: 'content', slug: 'hello', title: 'Hello', category_code: 'news', status: 'published', published_at: '2025-01-01T00:00:00Z' },
      { kind: 'inquiry_category', code: 'general', name: 'General' },
    ].map((record, i) => ({ record, location: `records[${i}]` })),
  })
  world.key = (await createApiKey(frontdesk.context, { tenantCode: 'acme', name: 'site', permissions: ['cms:read', 'inquiry:create'] })).key
  const pems = await createDevCert()
  world.ca = pems.ca
  world.tlsCert = pems.cert
  world.tlsKey = pems.key
  world.server = createServer(frontdesk, { tls: pems }, { onError: () => {} })
  await new Promise<void>((resolve) => world.server.listen(0, '127.0.0.1', resolve))
  world.base = `https://127.0.0.1:${(world.server.address() as AddressInfo).port}`
  world.acknowledged = []
})

faults.after(async (world) => {
  // Hint: whatever `before` got to; a throw here would end the whole test run.
  if (world.server !== undefined) await closeServer(world.server)
  await world.store?.close()
  await world.pg?.stop()
})

/** One request of the load: a list or an inquiry, alternately; checks what every answer must be. */
async function oneRequest(world: World, i: number): Promise<TestResponse> {
  const started = Date.now()
  const response = i % 2 === 0
    ? await testRequest(world.base, world.ca, 'GET', '/v1/cms/contents', { headers: { 'x-api-key': world.key } })
    : await testRequest(world.base, world.ca, 'POST', '/v1/inquiries', { headers: { 'x-api-key': world.key }, body: BODY })
  const took = Date.now() - started
  assert.ok(took < SLOW_MS, `an answer took ${took} ms`)
  assert.ok([200, 201, 503].includes(response.status), `status ${response.status}: ${response.text.slice(0, 200)}`)
  if (response.status === 503) {
    assert.is(response.body?.error?.code ?? response.body?.code, 'SERVICE_UNAVAILABLE', response.text)
    assert.ok(Number(response.headers['retry-after']) >= 1, 'a 503 says when to retry')
  }
  if (response.status === 201) world.acknowledged.push(response.body.id)
  return response
}

/** Runs `workers` loops of requests while `during` runs, then until `until` holds (bounded); counts statuses. */
async function load(world: World, during: () => Promise<void>, until: (counts: Map<number, number>) => boolean): Promise<Map<number, number>> {
  const counts = new Map<number, number>()
  const failures: unknown[] = []
  let done = false
  let i = 0
  const deadline = Date.now() + 30_000
  const worker = async () => {
    while (!done && failures.length === 0 && Date.now() < deadline) {
      try {
        const response = await oneRequest(world, i++)
        counts.set(response.status, (counts.get(response.status) ?? 0) + 1)
      } catch (error) {
        failures.push(error)
      }
    }
  }
  const workers = Array.from({ length: 6 }, () => worker())
  await during()
  while (!until(counts) && failures.length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50))
  done = true
  await Promise.all(workers)
  if (failures.length > 0) throw failures[0]
  return counts
}

faults('connections terminated under load: 503 with Retry-After or success, never a 500 or a hang; then all is well', async (world) => {
  let after = 0
  const counts = await load(world, async () => {
    await new Promise((resolve) => setTimeout(resolve, 300))
    for (let n = 0; n < 3; n++) {
      await admin(world.pg.url, "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = 'frontdesk'")
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    after = world.acknowledged.length
  }, () => world.acknowledged.length >= after + 10)
  assert.ok((counts.get(200) ?? 0) + (counts.get(201) ?? 0) > 0, [...counts].join(' '))
  assert.ok(world.acknowledged.length >= after + 10, 'inquiries are accepted again after the connections were cut')
})

faults('PostgreSQL stopped under load: 503s with Retry-After; started again: the server recovers by itself', async (world) => {
  let stoppedAt = 0
  const outage = await load(world, async () => {
    await new Promise((resolve) => setTimeout(resolve, 300))
    await world.pg.halt()
    stoppedAt = Date.now()
  }, (counts) => (counts.get(503) ?? 0) >= 20)
  assert.ok((outage.get(503) ?? 0) >= 20, `503s while stopped: ${[...outage].join(' ')}`)
  assert.ok(Date.now() - stoppedAt < 20_000)
  await world.pg.resume()
  const before = world.acknowledged.length
  const recovered = await load(world, async () => {}, () => world.acknowledged.length >= before + 10)
  assert.ok(world.acknowledged.length >= before + 10, `after the restart: ${[...recovered].join(' ')}`)
  assert.is((await oneRequest(world, 0)).status, 200)
})

faults('a partition: a cached answer while the view is fresh, then once the database is known unreachable 503 with Retry-After at once, /healthz too; healed: the first 2xx within a second', async (world) => {
  const proxy = await startPartitionProxy(Number(new URL(world.pg.url).port))
  const url = new URL(world.pg.url)
  url.port = String(proxy.port)
  url.pathname = '/frontdesk'
  const CONNECT_MS = 2_000
  const store = await openPostgresStore({ url: url.toString(), connectTimeoutMs: CONNECT_MS, statementTimeoutMs: 2_000 })
  // Hint: the response cache is on, as in production: cached answers are served only while the
  // server's view of the database is fresh (1 s), so they end soon after the cut.
  const server = createServer(createFrontdesk({ store, defaultRateLimit: 0 }), { tls: { cert: world.tlsCert, key: world.tlsKey } }, { onError: () => {} })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const base = `https://127.0.0.1:${(server.address() as AddressInfo).port}`
  const get = () => testRequest(base, world.ca, 'GET', '/v1/cms/contents', { headers: { 'x-api-key': world.key } })
  try {
    assert.is((await get()).status, 200)
    proxy.cut()
    const cutAt = Date.now()
    if (memoByDefault()) {
      // The rule for cached answers: served while this process's view of the database is at
      // most 1 s old (FRESH_MS), so the list cached just before the cut is still a 200.
      const cached = await get()
      assert.is(cached.status, 200, `the cached list ${Date.now() - cutAt} ms into the partition`)
    }
    const answers: Array<{ started: number; took: number; status: number }> = []
    let firstRefusal = Number.POSITIVE_INFINITY
    const fastRefusals = () => answers.filter((a) => a.started > firstRefusal && a.status === 503).length
    const deadline = cutAt + 4 * CONNECT_MS + 4_000
    await Promise.all(Array.from({ length: 4 }, async () => {
      while (fastRefusals() < 40 && Date.now() < deadline) {
        const started = Date.now()
        const response = await get()
        const took = Date.now() - started
        answers.push({ started, took, status: response.status })
        assert.ok([200, 503].includes(response.status), `status ${response.status}`)
        if (response.status === 503) {
          assert.ok(Number(response.headers['retry-after']) >= 1, 'a 503 says when to retry')
          firstRefusal = Math.min(firstRefusal, Date.now())
        } else {
          assert.ok(started - cutAt < 1_500, `a 200 ${started - cutAt} ms into the partition`)
        }
      }
    }))
    const after = answers.filter((a) => a.started > firstRefusal)
    assert.ok(after.length >= 40, `requests after the first 503: ${after.length}`)
    const slowest = Math.max(...after.map((a) => a.took))
    assert.ok(after.every((a) => a.status === 503), 'still partitioned')
    assert.ok(slowest < CONNECT_MS / 4, `once known unreachable, a 503 took ${slowest} ms (connect timeout ${CONNECT_MS} ms)`)
    // A load balancer's health check says so as quickly.
    const asked = Date.now()
    const health = await testRequest(base, world.ca, 'GET', '/healthz')
    assert.is(health.status, 503, health.text)
    assert.ok(Date.now() - asked < CONNECT_MS / 4, `/healthz took ${Date.now() - asked} ms`)

    proxy.heal()
    const healedAt = Date.now()
    let status = 0
    while (status !== 200 && Date.now() - healedAt < 5_000) {
      status = (await get()).status
      if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 20))
    }
    const recovery = Date.now() - healedAt
    assert.is(status, 200)
    assert.ok(recovery < 1_000, `first 2xx ${recovery} ms after healing`)
  } finally {
    proxy.heal()
    await closeServer(server)
    await store.close()
    await proxy.close()
  }
})

faults('every inquiry answered 201 is stored', async (world) => {
  const tenant = await world.store.getTenantByCode('acme')
  assert.ok(tenant)
  const stored = new Set((await world.store.listInquiries(tenant.id, { limit: 100_000 })).map((inquiry) => inquiry.id))
  const lost = world.acknowledged.filter((id) => !stored.has(id))
  assert.equal(lost, [], `${lost.length} of ${world.acknowledged.length} acknowledged inquiries are missing`)
})

faults.run()
