import autocannon from 'autocannon'
import type { LoadJob, LoadResult, RequestPlan } from './load-job.ts'
import { percentile } from './stats.ts'

/*
 * A load generator in its own process (forked by the benchmark with an IPC channel), so that
 * it never shares an event loop with the server it measures. Receives one `LoadJob`, runs
 * autocannon (keep-alive; autocannon never checks certificates) for the warm-up and then the
 * measured time, sends back a `LoadResult` and exits. Exits at once if the parent goes away.
 */

let sent = 0

function requestsOf(plan: RequestPlan): autocannon.Request[] {
  switch (plan.kind) {
    case 'fixed':
      return [{ method: plan.method, path: plan.path, ...(plan.body === undefined ? {} : { body: plan.body }) }]
    case 'rotate': {
      const list = plan.requests
      return [{
        method: plan.method,
        // Hint: one counter for all connections, so that each listed request is sent once per round.
        setupRequest: (request) => {
          const next = list[sent++ % list.length]
          return next === undefined ? request : { ...request, path: next.path, ...(next.body === undefined ? {} : { body: next.body }) }
        },
      }]
    }
    case 'inquiry':
      return [{
        method: 'POST',
        setupRequest: (request) => {
          const n = sent++
          const body = {
            category_code: plan.categoryCode,
            title: `Question ${n} from the benchmark`,
            content: `Hello, this is inquiry number ${n}. Could you tell us more about your service plans and prices? Thank you.`,
            inquirer_name: `Bench User ${n % 1000}`,
            inquirer_email: `user${n}@example.com`,
            inquirer_company: 'Example Corp',
            priority: (n % 3) + 1,
          }
          return { ...request, path: plan.path, body: JSON.stringify(body) }
        },
      }]
  }
}

function run(job: LoadJob, seconds: number, latencies: number[] | null): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: job.origin,
        connections: job.connections,
        duration: seconds,
        headers: job.headers,
        requests: requestsOf(job.plan),
        timeout: 10,
      },
      (error, result) => (error ? reject(error) : resolve(result)),
    )
    if (latencies !== null) {
      instance.on('response', (_client: unknown, status: number, _bytes: number, ms: number) => {
        if (status >= 200 && status < 300) latencies.push(ms)
      })
    }
  })
}

async function measure(job: LoadJob): Promise<LoadResult> {
  if (job.warmupSeconds > 0) await run(job, job.warmupSeconds, null)
  const latencies: number[] = []
  const started = performance.now()
  const result = await run(job, job.durationSeconds, latencies)
  const seconds = (performance.now() - started) / 1000
  const otherStatuses: Record<string, number> = {}
  for (const [status, { count }] of Object.entries(result.statusCodeStats ?? {})) {
    if (!status.startsWith('2')) otherStatuses[status] = count ?? 0
  }
  latencies.sort((a, b) => a - b)
  const sum = latencies.reduce((a, b) => a + b, 0)
  return {
    rps: latencies.length / seconds,
    ok: latencies.length,
    otherStatuses,
    errors: result.errors,
    timeouts: result.timeouts ?? 0,
    p50: percentile(latencies, 0.5),
    p90: percentile(latencies, 0.9),
    p99: percentile(latencies, 0.99),
    max: latencies[latencies.length - 1] ?? 0,
    mean: latencies.length === 0 ? 0 : sum / latencies.length,
    planned: sent,
    seconds,
  }
}

process.on('disconnect', () => process.exit(1))
process.once('message', (job: LoadJob) => {
  measure(job).then(
    (result) => process.send?.({ ok: true, result }, () => process.exit(0)),
    (error: unknown) => process.send?.({ ok: false, error: String(error) }, () => process.exit(1)),
  )
})
