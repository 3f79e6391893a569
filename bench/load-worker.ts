import autocannon from 'autocannon'
import { Dataset } from './dataset.ts'
import type { LoadJob, LoadResult, RequestPlan } from './load-job.ts'
import type { CpuReading } from './process-cpu.ts'
import { cpuBetween, readCpu } from './process-cpu.ts'
import type { SearchClass } from './search-classes.ts'
import { mixSlots, SearchStreams } from './search-classes.ts'
import { percentile } from './stats.ts'

/*
 * A load generator in its own process (forked by the benchmark with an IPC channel), so that
 * it never shares an event loop with the server it measures. Receives one `LoadJob`, runs
 * autocannon (keep-alive; autocannon never checks certificates) through the warm-up and the
 * measured seconds without reconnecting, reads the server's CPU time from `/proc` when the
 * measured seconds begin and end, sends back a `LoadResult` and exits. Exits at once if the
 * parent goes away.
 */

let sent = 0
const consumed: Partial<Record<SearchClass, number>> = {}

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
    case 'search': {
      // The vocabulary does not depend on the number of items: an empty data set has it.
      const streams = new SearchStreams(new Dataset(0).facts.vocabulary, plan.start)
      const slots = mixSlots(plan.shares)
      return [{
        method: 'POST',
        setupRequest: (request) => {
          const cls = slots[sent++ % slots.length] ?? 'en1'
          consumed[cls] = (consumed[cls] ?? 0) + 1
          return { ...request, path: '/v1/cms/search', body: JSON.stringify(streams.stream(cls).next()) }
        },
      }]
    }
  }
}

async function measure(job: LoadJob): Promise<LoadResult> {
  const latencies: number[] = []
  const otherStatuses: Record<string, number> = {}
  let errors = 0
  let timeouts = 0
  let measuring = false
  let cpuStart: CpuReading | null = null
  let cpuEnd: CpuReading | null = null
  let clientStart = process.cpuUsage()
  let clientUsed = { user: 0, system: 0 }
  let startedAt = 0
  let endedAt = 0
  const requests = requestsOf(job.plan)
  await new Promise<void>((resolve, reject) => {
    const instance = autocannon(
      {
        url: job.origin,
        connections: job.connections,
        ...(job.rate === undefined ? {} : { overallRate: job.rate }),
        // Hint: stopped by the timer below; the extra second keeps the load up until then.
        duration: job.warmupSeconds + job.durationSeconds + 1,
        headers: job.headers,
        requests,
        timeout: 10,
      },
      (error) => (error ? reject(error) : resolve()),
    )
    instance.on('response', (_client: unknown, status: number, _bytes: number, ms: number) => {
      if (!measuring) return
      if (status >= 200 && status < 300) latencies.push(ms)
      else otherStatuses[status] = (otherStatuses[status] ?? 0) + 1
    })
    instance.on('reqError', (error: Error) => {
      if (!measuring) return
      if (error.message === 'request timed out') timeouts++
      else errors++
    })
    setTimeout(() => {
      cpuStart = readCpu(job.serverPids)
      clientStart = process.cpuUsage()
      startedAt = performance.now()
      measuring = true
    }, job.warmupSeconds * 1000)
    setTimeout(() => {
      measuring = false
      endedAt = performance.now()
      cpuEnd = readCpu(job.serverPids)
      clientUsed = process.cpuUsage(clientStart)
      instance.stop()
    }, (job.warmupSeconds + job.durationSeconds) * 1000)
  })
  const seconds = (endedAt - startedAt) / 1000
  latencies.sort((a, b) => a - b)
  const sum = latencies.reduce((a, b) => a + b, 0)
  const ok = latencies.length
  const start = cpuStart as CpuReading | null
  const end = cpuEnd as CpuReading | null
  const serverUs = start === null || end === null || end.micros.size === 0 ? null : cpuBetween(start, end)
  return {
    rps: ok / seconds,
    ok,
    otherStatuses,
    errors,
    timeouts,
    p50: percentile(latencies, 0.5),
    p90: percentile(latencies, 0.9),
    p99: percentile(latencies, 0.99),
    max: latencies[latencies.length - 1] ?? 0,
    mean: ok === 0 ? 0 : sum / ok,
    planned: sent,
    seconds,
    cpuUs: serverUs === null || ok === 0 ? null : serverUs / ok,
    serverCores: serverUs === null ? null : serverUs / 1e6 / seconds,
    clientCpuUs: ok === 0 ? 0 : (clientUsed.user + clientUsed.system) / ok,
    serverProcesses: end?.micros.size ?? 0,
    ...(job.plan.kind === 'search' ? { consumed } : {}),
  }
}

process.on('disconnect', () => process.exit(1))
process.once('message', (job: LoadJob) => {
  measure(job).then(
    (result) => process.send?.({ ok: true, result }, () => process.exit(0)),
    (error: unknown) => process.send?.({ ok: false, error: String(error) }, () => process.exit(1)),
  )
})
