import { createMetrics } from '@frontdesk/http'

/*
 * `node --conditions=source --import tsx bench/micro/metrics.ts`: what `serve --metrics-port`
 * adds to each request, which is `FrontdeskMetrics.observeRequest` (a counter and a histogram
 * of the route, their labelled children found in one Map) once the response ended; the access
 * log's 'close' listener already exists, the metrics share it. Printed beside the CPU of a
 * cached request (~45 µs, README "Performance") and the time of one scrape.
 */

const metrics = createMetrics()
const answers = [
  { status: 200, route: '/v1/cms/contents/{id}' },
  { status: 200, route: '/v1/cms/contents' },
  { status: 304, route: '/v1/cms/contents' },
  { status: 200, route: '/v1/cms/search' },
  { status: 404, route: '/v1/cms/contents/{id}', code: 'NOT_FOUND' },
  { status: 401, route: '/v1/cms/contents', code: 'UNAUTHORIZED' },
  { status: 429, route: '/v1/cms/search', code: 'RATE_LIMITED', caller: { tenant: 'acme', keyId: 'key_1' } },
  { status: 201, route: '/v1/inquiries' },
]
const N = 2_000_000
for (let round = 0; round < 3; round++) {
  const started = process.cpuUsage()
  for (let i = 0; i < N; i++) metrics.observeRequest('GET', answers[i & 7] as (typeof answers)[number], 0.0004 + (i & 15) * 0.0003)
  const used = process.cpuUsage(started)
  console.log(`observeRequest: ${(((used.user + used.system) / N) * 1000).toFixed(0)} ns of CPU per request (round ${round + 1})`)
}
const scrapeStarted = performance.now()
const text = await metrics.registry.metrics()
console.log(`one scrape: ${(performance.now() - scrapeStarted).toFixed(2)} ms, ${text.length} bytes`)
