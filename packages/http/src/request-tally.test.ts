import { fuzzOptions } from '@frontdesk/core/testing'
import fc from 'fast-check'
import { AggregatorRegistry, Counter, Histogram, Registry } from 'prom-client'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { RequestTally } from './request-tally.ts'

const BOUNDS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5]
const NAMES = { requests: 'frontdesk_http_requests_total', duration: 'frontdesk_http_request_duration_seconds' }

/** The obviously right way: prom-client's own labelled counter and histogram. */
function reference(registry: Registry) {
  const counter = new Counter({ name: NAMES.requests, help: 'Requests answered, by route (template), method and status.', labelNames: ['route', 'method', 'status'], registers: [registry] })
  const histogram = new Histogram({ name: NAMES.duration, help: 'Time from the request to the end of its answer, by route.', labelNames: ['route'], buckets: BOUNDS, registers: [registry] })
  return (route: string, method: string, status: number, seconds: number) => {
    counter.inc({ route, method, status: String(status) })
    histogram.observe({ route }, seconds)
  }
}

const observation = fc.record({
  route: fc.constantFrom('/v1/cms/contents', '/v1/cms/contents/{id}', '/healthz', 'unmatched'),
  method: fc.constantFrom('GET', 'HEAD', 'POST'),
  status: fc.constantFrom(200, 201, 304, 401, 404, 429, 503),
  // Hint: the bounds themselves too, where "less than or equal" decides the bucket.
  seconds: fc.oneof(fc.constantFrom(0, ...BOUNDS, 10), fc.double({ min: 0, max: 10, noNaN: true })),
})

test('the tally exports, and aggregates across workers, exactly what prom-client\'s counter and histogram would', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(observation, { maxLength: 60 }), async (observations) => {
      const fast = new Registry()
      const slow = new Registry()
      const tally = new RequestTally(fast, NAMES, BOUNDS)
      const observe = reference(slow)
      for (const o of observations) {
        tally.observe(o.route, o.method, o.status, o.seconds)
        observe(o.route, o.method, o.status, o.seconds)
      }
      assert.is(sortLines(await fast.metrics()), sortLines(await slow.metrics()))
      const [fastJson, slowJson] = [await fast.getMetricsAsJSON(), await slow.getMetricsAsJSON()]
      assert.is(sortLines(await AggregatorRegistry.aggregate([fastJson, fastJson]).metrics()), sortLines(await AggregatorRegistry.aggregate([slowJson, slowJson]).metrics()))
    }),
    fuzzOptions(100),
  )
})

/** The exposition's lines in order: the two export samples in different orders, which Prometheus ignores. */
function sortLines(text: string): string {
  return text.split('\n').sort().join('\n')
}

test.run()
