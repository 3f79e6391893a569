// The Prometheus metrics of a real HTTPS server over a real SQLite store: every request counted
// by route template and status, refusals by kind, searches, inquiries (not their idempotent
// replays), the response cache and the search index of each tenant, read as a scraper would.
import { newId, importRecords } from '@frontdesk/core'
import { Registry } from 'prom-client'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import type { FrontdeskMetrics } from '@frontdesk/http'
import { createMetrics } from '@frontdesk/http'
import type { TestServer } from './util/test-server.ts'
import { startTestServer } from './util/test-server.ts'

interface World {
  server: TestServer
  metrics: FrontdeskMetrics
  reader: string
}

const test = suite<World>('metrics')

test.before(async (world) => {
  world.metrics = createMetrics({ processMetrics: false })
  world.server = await startTestServer({ metrics: world.metrics, failedAuthRate: 1 })
  const tenant = await world.server.tenant('acme')
  world.reader = await world.server.key('acme', ['cms:read', 'cms:search', 'inquiry:create'], { rateLimit: 0 })
  const records = [
    { kind: 'category', code: 'news', name: 'News' },
    ...Array.from({ length: 5 }, (_, i) => ({ kind: 'content', slug: `item-${i}`, title: `Lantern ${i}`, category_code: 'news', status: 'published', published_at: '2025-01-01T00:00:00Z' })),
  ]
  await importRecords(world.server.frontdesk.context, { tenantCode: 'acme', records: records.map((record, i) => ({ record, location: String(i) })) })
  const at = new Date().toISOString()
  await world.server.store.transaction((tx) =>
    tx.putInquiryCategory({ tenant_id: tenant.id, id: newId('icat'), code: 'general', name: 'General', description: '', sort: 0, active: true, message: '', created_at: at, updated_at: at }),
  )
})

test.after(async (world) => {
  await world.server?.close()
})

/** The value of a sample of the registry now (0 when absent), as a scrape reads it. */
async function sample(metrics: FrontdeskMetrics, name: string, labels: Record<string, string> = {}): Promise<number> {
  const metric = (await metrics.registry.getMetricsAsJSON()).find((m) => m.name === name.replace(/_(count|sum|bucket)$/, '') || m.name === name)
  const values = (metric?.values ?? []) as { value: number; labels: Record<string, string | number>; metricName?: string }[]
  const found = values.find((v) => (v.metricName ?? metric?.name) === name && Object.entries(labels).every(([k, want]) => String(v.labels[k]) === want))
  return found?.value ?? 0
}

test('requests are counted by route template, method and status, with their latency; unmatched paths share one label', async ({ server, metrics, reader }) => {
  const headers = { 'x-api-key': reader }
  const id = (await server.request('GET', '/v1/cms/contents?limit=1', { headers })).body.items[0].id as string
  await server.request('GET', `/v1/cms/contents/${id}`, { headers })
  await server.request('GET', '/v1/cms/contents/no-such-id', { headers })
  await server.request('GET', '/healthz')
  await server.request('GET', '/v1/nowhere/at/all', { headers })
  await server.request('GET', '/v1/elsewhere', { headers })
  assert.is(await sample(metrics, 'frontdesk_http_requests_total', { route: '/v1/cms/contents/{id}', method: 'GET', status: '200' }), 1)
  assert.is(await sample(metrics, 'frontdesk_http_requests_total', { route: '/v1/cms/contents/{id}', method: 'GET', status: '404' }), 1)
  assert.is(await sample(metrics, 'frontdesk_http_requests_total', { route: '/healthz', method: 'GET', status: '200' }), 1)
  assert.is(await sample(metrics, 'frontdesk_http_requests_total', { route: 'unmatched', method: 'GET', status: '404' }), 2)
  assert.is(await sample(metrics, 'frontdesk_http_request_duration_seconds_count', { route: '/v1/cms/contents/{id}' }), 2)
  assert.ok((await sample(metrics, 'frontdesk_http_request_duration_seconds_sum', { route: '/v1/cms/contents/{id}' })) > 0)
  const text = await metrics.registry.metrics()
  assert.not.match(text, id, 'no id of a request in a label')
  assert.not.match(text, 'nowhere')
})

test('failed key checks and both rate limits are counted apart', async ({ server, metrics }) => {
  const limited = await server.key('acme', ['cms:read'], { rateLimit: 1 })
  const before = await sample(metrics, 'frontdesk_auth_failures_total', { code: 'UNAUTHORIZED' })
  const statuses: number[] = []
  // Hint: the limit of failed authentications is 1 a second (burst 2) for this server's address.
  for (let i = 0; i < 4; i++) statuses.push((await server.request('GET', '/v1/cms/categories', { headers: { 'x-api-key': 'fdk_wrong' } })).status)
  assert.equal(statuses, [401, 401, 429, 429])
  assert.is((await sample(metrics, 'frontdesk_auth_failures_total', { code: 'UNAUTHORIZED' })) - before, 2)
  assert.is(await sample(metrics, 'frontdesk_rate_limited_total', { limit: 'failed_auth' }), 2)
  const keyed: number[] = []
  for (let i = 0; i < 4; i++) keyed.push((await server.request('GET', '/v1/cms/categories', { headers: { 'x-api-key': limited } })).status)
  assert.is(keyed.filter((status) => status === 429).length, await sample(metrics, 'frontdesk_rate_limited_total', { limit: 'key' }))
  assert.ok(keyed.includes(429), keyed.join(' '))
})

test('searches are timed with their matching items; inquiries count once, replays not', async ({ server, metrics, reader }) => {
  const headers = { 'x-api-key': reader }
  assert.is((await server.request('POST', '/v1/cms/search', { headers, body: { query: 'lantern' } })).status, 200)
  assert.is((await server.request('POST', '/v1/cms/search', { headers, body: { query: 'nothing-like-it' } })).status, 200)
  assert.is(await sample(metrics, 'frontdesk_search_duration_seconds_count'), 2)
  assert.is(await sample(metrics, 'frontdesk_search_candidates_sum'), 5)
  assert.is(await sample(metrics, 'frontdesk_search_candidates_bucket', { le: '0' }), 1)
  const body = { category_code: 'general', title: 'Hello', content: 'Hello', inquirer_name: 'Ann', inquirer_email: 'ann@example.com' }
  const once = { ...headers, 'idempotency-key': 'metrics-once' }
  const created = await server.request('POST', '/v1/inquiries', { headers: once, body })
  assert.is(created.status, 201, created.text)
  assert.is((await server.request('POST', '/v1/inquiries', { headers: once, body })).status, 201)
  assert.is(await sample(metrics, 'frontdesk_inquiries_created_total'), 1)
})

test('the response cache reports hits and misses; the index its items and feed lag per tenant code', async ({ server, metrics, reader }) => {
  const headers = { 'x-api-key': reader }
  const hits = await sample(metrics, 'frontdesk_response_cache_lookups_total', { result: 'hit' })
  const misses = await sample(metrics, 'frontdesk_response_cache_lookups_total', { result: 'miss' })
  await server.request('GET', '/v1/cms/contents?limit=2', { headers })
  await server.request('GET', '/v1/cms/contents?limit=2', { headers })
  const memo = process.env['FRONTDESK_NO_MEMO'] !== '1'
  // Hint: with every memo off the cache is never asked; both counts then stay where they were.
  assert.is((await sample(metrics, 'frontdesk_response_cache_lookups_total', { result: 'miss' })) - misses, memo ? 1 : 0)
  assert.is((await sample(metrics, 'frontdesk_response_cache_lookups_total', { result: 'hit' })) - hits, memo ? 1 : 0)

  assert.is(await sample(metrics, 'frontdesk_search_index_items', { tenant: 'acme' }), 5)
  assert.is(await sample(metrics, 'frontdesk_search_feed_lag_seconds', { tenant: 'acme' }), 0)
  // A commit no search has applied yet: the index is behind from the first scrape that sees it, and more so at the next.
  const imported = await importRecords(server.frontdesk.context, { tenantCode: 'acme', records: [{ record: { kind: 'content', slug: 'late', title: 'Late lantern', category_code: 'news', status: 'published', published_at: '2025-01-01T00:00:00Z' }, location: '0' }] })
  assert.is(imported.contents.created, 1)
  const first = await sample(metrics, 'frontdesk_search_feed_lag_seconds', { tenant: 'acme' })
  await new Promise((resolve) => setTimeout(resolve, 60))
  const lag = await sample(metrics, 'frontdesk_search_feed_lag_seconds', { tenant: 'acme' })
  assert.ok(lag - first >= 0.05, `lag ${first} then ${lag}`)
  await server.request('POST', '/v1/cms/search', { headers, body: { query: 'lantern' } })
  assert.is(await sample(metrics, 'frontdesk_search_feed_lag_seconds', { tenant: 'acme' }), 0, 'caught up by the search')
  assert.is(await sample(metrics, 'frontdesk_search_index_items', { tenant: 'acme' }), 6)
})

test('an embedding service registers them in its own registry, beside its own metrics; the refusal counters start at 0', async () => {
  const registry = new Registry()
  const metrics = createMetrics({ registry, processMetrics: false })
  assert.is(metrics.registry, registry)
  assert.ok(registry.getSingleMetric('frontdesk_http_requests_total') !== undefined)
  const text = await registry.metrics()
  assert.match(text, '# TYPE frontdesk_http_request_duration_seconds histogram')
  // Hint: a refusal counter that first appears at 1 is one that rate() and increase() never see rise.
  for (const series of ['rate_limited_total{limit="key"}', 'rate_limited_total{limit="failed_auth"}', 'auth_failures_total{code="UNAUTHORIZED"}', 'auth_failures_total{code="API_KEY_DISABLED"}', 'auth_failures_total{code="PREVIEW_TOKEN_EXPIRED"}']) {
    assert.ok(text.includes(`\nfrontdesk_${series} 0\n`), `frontdesk_${series} starts at 0`)
  }
})

test.run()
