import { execFileSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { createServer } from 'node:https'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { HttpsClient } from './https-client.ts'
import { cpuBetween, readCpu } from './process-cpu.ts'
import type { LoadResult, RequestPlan } from './load-job.ts'
import { TENANT } from './seed.ts'
import type { ServeProcess } from './server-process.ts'
import { INQUIRY_CATEGORY } from './dataset.ts'

const ROOT = fileURLToPath(new URL('..', import.meta.url))

/** Endpoints the API CPU measure delivers to at once (each takes every event: a flow of ~1,000/s needs several, see below). */
const API_CPU_ENDPOINTS = 4
/**
 * The detail hit's pace in the API CPU measure, requests/s: a load that leaves the process room
 * (a saturating one makes deliveries give way to it, see serve's `DeliveryPacer`), so that
 * ~1,000 deliveries/s flow beside it.
 */
const API_CPU_RATE = 1_500
/** Inquiry loads without and with an endpoint receiving, alternated this many times. */
const INQUIRY_PAIRS = 3

/** The ids of the webhook measures (`--only` takes them, or `webhooks` for all). */
export const WEBHOOK_MEASURES = ['webhook_latency', 'webhook_throughput', 'webhook_api_cpu', 'webhook_inquiries'] as const

/** What `measureWebhooks` found. */
export interface WebhookFigures {
  /** POST of an inquiry sent → its `inquiry.created` received, one at a time (an upper bound of commit → delivery), in ms. */
  latency?: { events: number; received: number; p50: number; p99: number; max: number }
  /** A backlog delivered to one endpoint by one serving process, nothing else running. */
  throughput?: { events: number; seconds: number; perSecond: number; cpuUs: number }
  /**
   * The detail hit's server CPU per request without deliveries, then while a backlog is
   * delivered to `API_CPU_ENDPOINTS` endpoints; `deliveriesUs`: the deliveries' share of
   * `during`'s CPU per request, from their CPU each when delivered alone (`throughput`).
   */
  apiCpu?: { without: LoadResult; during: LoadResult; deliveriesPerSecond: number; deliveriesUs: number }
  /**
   * Inquiry loads with no endpoint receiving (a disabled one) and with one subscribed and
   * receiving, alternated: the pair of the median ratio, and every pair's ratio.
   */
  inquiries?: { without: LoadResult; with: LoadResult; ratio: number; ratios: number[]; delivered: number }
  error?: string
}

/** What the run hands over: a started serve, loads, and how to run the CLI on the run's database. */
export interface WebhookBenchContext {
  db: string
  searchDir: string
  cert: { certPath: string; keyPath: string; caPath: string }
  apiKey: string
  /** Environment of serve and of the CLI (the dev CA trusted; on PostgreSQL, the webhook key). */
  env: NodeJS.ProcessEnv
  /** Starts `frontdesk serve` with these extra flags and environment. */
  startServe: (flags: string[], env: NodeJS.ProcessEnv) => Promise<ServeProcess>
  stopServe: (serve: ServeProcess) => Promise<void>
  /** Runs a load plan against `origin`, counting the CPU of `pid`; at `rate` requests/s if given, else as fast as answered. */
  load: (origin: string, plan: RequestPlan, pid: number, rate?: number) => Promise<LoadResult>
  detailPlan: RequestPlan
  /** Seconds a load measures (the run's `--duration`) and warms up. */
  duration: number
  warmup: number
  only: (id: string) => boolean
  log: (line: string) => void
}

/** The environment every webhook measure's processes share: serve trusts the receiver's (dev) certificate. */
export function webhookEnv(caPath: string, postgres: boolean): NodeJS.ProcessEnv {
  return {
    ...process.env,
    NODE_EXTRA_CA_CERTS: caPath,
    ...(postgres ? { FRONTDESK_WEBHOOK_KEY: randomBytes(32).toString('base64url') } : {}),
  }
}

/**
 * The webhook measures of issue 28, against a fresh `frontdesk serve` (one process,
 * `--allow-private-webhook-targets`) on the run's database, delivering to an HTTPS receiver in
 * this process on 127.0.0.1 (the run's dev certificate, trusted by serve through
 * `NODE_EXTRA_CA_CERTS`). Each measure is bounded: the loads by `duration`, the waits for
 * deliveries by a deadline. In order: the inquiry load with the endpoints disabled (their
 * events pile up: the backlog) and the detail hit without deliveries; one endpoint enabled,
 * half the backlog timed as deliveries/s alone (and serve's CPU for them), the detail hit while
 * the backlog is delivered to every endpoint; then inquiry loads with the endpoint disabled
 * and enabled in turns, and inquiries one at a time for the latency.
 */
export async function measureWebhooks(c: WebhookBenchContext): Promise<WebhookFigures> {
  const figures: WebhookFigures = {}
  const receiver = await startBenchReceiver(c.cert)
  const serve = await c.startServe(['--allow-private-webhook-targets'], c.env)
  const pid = serve.child.pid ?? 0
  const client = new HttpsClient(serve.origin, readFileSync(c.cert.caPath, 'utf8'), { 'x-api-key': c.apiKey })
  const cli = (args: string[]) =>
    execFileSync(process.execPath, [join(ROOT, 'packages/cli/bin/frontdesk.js'), '--db', c.db, '--search-dir', c.searchDir, ...args], { env: c.env, encoding: 'utf8', cwd: ROOT, timeout: 60_000 })
  const inquiryPlan: RequestPlan = { kind: 'inquiry', path: '/v1/inquiries', categoryCode: INQUIRY_CATEGORY }
  const waitFor = async (count: number, deadlineMs: number) => {
    while (receiver.count() < count && performance.now() < deadlineMs) await new Promise((resolve) => setTimeout(resolve, 5))
    return receiver.count() >= count
  }
  /** Waits until nothing more arrives for a second (the deliveries of a load ended), at most `deadlineMs`. */
  const settle = async (deadlineMs: number) => {
    let last = -1
    while (receiver.count() !== last && performance.now() < deadlineMs) {
      last = receiver.count()
      await new Promise((resolve) => setTimeout(resolve, 1_000))
    }
  }
  try {
    const addEndpoint = () => {
      const { id } = JSON.parse(cli(['webhook', 'add', '--tenant', TENANT, '--url', receiver.url, '--events', 'inquiry.created', '--allow-private-webhook-targets', '--json'])) as { id: string }
      cli(['webhook', 'disable', id])
      return id
    }
    const added = { id: addEndpoint() }
    // Hint: events are delivered in order per endpoint, one at a time, so while the API is busy one endpoint alone cannot take
    // ~1,000 deliveries/s; the others, each taking the same events, make the flow the API CPU is measured beside.
    const others = c.only('webhook_api_cpu') ? Array.from({ length: API_CPU_ENDPOINTS - 1 }, addEndpoint) : []
    const rate = (load: LoadResult) => `${Math.round(load.rps)} req/s, server CPU ${load.cpuUs === null ? 'n/a' : `${load.cpuUs.toFixed(0)} µs`} per request`

    // Hint: a backlog long enough to keep deliveries flowing through a whole detail-hit load (~1,000/s), within five loads.
    c.log('the backlog: inquiries, no endpoint receiving (a disabled one: its events wait)…')
    let backlog = 0
    const wanted = 2 * 1_000 * (c.duration + c.warmup + 1)
    for (let load = 0; backlog < wanted && load < 5; load++) {
      if (load > 0) c.log(`  more inquiries for the backlog (${backlog} of ${wanted})…`)
      backlog += (await c.load(serve.origin, inquiryPlan, pid)).planned
    }
    let apiWithout: LoadResult | null = null
    if (c.only('webhook_api_cpu')) {
      c.log('webhook_api_cpu: detail hit, no deliveries…')
      apiWithout = await c.load(serve.origin, c.detailPlan, pid, API_CPU_RATE)
      c.log(`  ${rate(apiWithout)}`)
    }

    c.log(`webhook_throughput: the endpoint enabled, the first half of a backlog of ~${backlog} events delivered by one process…`)
    const half = Math.floor(backlog / 2)
    const started = performance.now()
    receiver.reset()
    cli(['webhook', 'enable', added.id])
    // Hint: timed from the enable command's end: its process start is not delivery time.
    const enabledAt = performance.now()
    const cpuAtEnable = readCpu([pid])
    const reached = await waitFor(half, started + 120_000)
    const seconds = (performance.now() - enabledAt) / 1000
    const cpuPerDelivery = cpuBetween(cpuAtEnable, readCpu([pid])) / Math.max(1, receiver.count())
    figures.throughput = { events: receiver.count(), seconds, perSecond: receiver.count() / seconds, cpuUs: cpuPerDelivery }
    c.log(`  ${receiver.count()} delivered in ${seconds.toFixed(2)} s: ${figures.throughput.perSecond.toFixed(0)} deliveries/s, ${cpuPerDelivery.toFixed(0)} µs of serve's CPU each${reached ? '' : ' (deadline reached)'}`)

    if (apiWithout !== null) {
      c.log(`webhook_api_cpu: detail hit while the backlog is delivered to ${API_CPU_ENDPOINTS} endpoints…`)
      for (const id of others) cli(['webhook', 'enable', id])
      const before = receiver.count()
      const loadStarted = performance.now()
      const during = await c.load(serve.origin, c.detailPlan, pid, API_CPU_RATE)
      const delivered = receiver.count() - before
      const deliveriesPerSecond = delivered / ((performance.now() - loadStarted) / 1000)
      for (const id of others) cli(['webhook', 'disable', id])
      // Hint: what the deliveries would cost per request apart: their CPU each (measured alone) times deliveries per answered request.
      const deliveriesUs = during.rps > 0 ? (cpuPerDelivery * deliveriesPerSecond) / during.rps : 0
      figures.apiCpu = { without: apiWithout, during, deliveriesPerSecond, deliveriesUs }
      const ranOut = receiver.count() >= backlog * API_CPU_ENDPOINTS
      c.log(`  ${rate(during)}, ${deliveriesPerSecond.toFixed(0)} deliveries/s meanwhile (~${deliveriesUs.toFixed(0)} µs per request at their CPU each alone)${ranOut ? ' (the backlog ran out during the load)' : ''}`)
    }
    await settle(performance.now() + 120_000)

    if (c.only('webhook_inquiries')) {
      // Hint: the machine's own rate drifts between loads (by a third on a shared machine), so the two modes alternate and
      // each pair is a ratio; disabled, the endpoint's events wait (written all the same: every inquiry writes its event).
      c.log(`webhook_inquiries: inquiries without an endpoint receiving (disabled) and with one subscribed and receiving, alternated ${INQUIRY_PAIRS} times…`)
      const pairs: { without: LoadResult; with: LoadResult; delivered: number }[] = []
      for (let pair = 0; pair < INQUIRY_PAIRS; pair++) {
        cli(['webhook', 'disable', added.id])
        const alone = await c.load(serve.origin, inquiryPlan, pid)
        cli(['webhook', 'enable', added.id])
        const before = receiver.count()
        const withEndpoint = await c.load(serve.origin, inquiryPlan, pid)
        pairs.push({ without: alone, with: withEndpoint, delivered: receiver.count() - before })
        c.log(`  without ${rate(alone)}; with ${rate(withEndpoint)} (${((withEndpoint.rps / alone.rps) * 100).toFixed(0)} %), ${receiver.count() - before} delivered during it`)
      }
      const ratios = pairs.map((p) => p.with.rps / p.without.rps)
      const middle = pairs[ratios.indexOf([...ratios].sort((a, b) => a - b)[Math.floor(ratios.length / 2)] as number)] as (typeof pairs)[number]
      figures.inquiries = { without: middle.without, with: middle.with, ratio: middle.with.rps / middle.without.rps, ratios, delivered: middle.delivered }
      await settle(performance.now() + 120_000)
    }

    if (c.only('webhook_latency')) {
      const count = 200
      c.log(`webhook_latency: ${count} inquiries one at a time, POST sent → event received…`)
      const sent = new Map<string, number>()
      const body = (i: number) => JSON.stringify({ category_code: INQUIRY_CATEGORY, title: `Latency ${i}`, content: 'How soon is it delivered?', inquirer_name: 'Bench', inquirer_email: 'bench@example.com' })
      receiver.reset()
      for (let i = 0; i < count; i++) {
        const at = performance.now()
        const answer = await client.request('POST', '/v1/inquiries', body(i))
        const id = (answer.json as { id?: string } | null)?.id
        if (id !== undefined) sent.set(id, at)
        // Hint: spaced, so that each is a commit on its own rather than a queue.
        await new Promise((resolve) => setTimeout(resolve, 20))
      }
      await waitFor(count, performance.now() + 30_000)
      const latencies = receiver.arrivals().flatMap(({ id, at }) => {
        const from = sent.get(id)
        return from === undefined ? [] : [at - from]
      }).sort((a, b) => a - b)
      const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((latencies.length * p) / 100))] ?? Number.NaN
      figures.latency = { events: count, received: latencies.length, p50: pct(50), p99: pct(99), max: latencies.at(-1) ?? Number.NaN }
      c.log(`  ${latencies.length} of ${count} received: p50 ${pct(50).toFixed(1)} ms, p99 ${pct(99).toFixed(1)} ms, max ${figures.latency.max.toFixed(1)} ms`)
    }
  } catch (error) {
    figures.error = error instanceof Error ? error.message : String(error)
    c.log(`webhooks: ${figures.error}`)
  } finally {
    client.close()
    await c.stopServe(serve)
    await receiver.close()
  }
  return figures
}

/** An HTTPS receiver answering 204 to everything, noting when each inquiry's event arrived. */
async function startBenchReceiver(cert: { certPath: string; keyPath: string }) {
  let arrivals: { id: string; at: number }[] = []
  const server = createServer({ cert: readFileSync(cert.certPath), key: readFileSync(cert.keyPath), keepAliveTimeout: 60_000 }, (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const at = performance.now()
      let id = ''
      try {
        id = String((JSON.parse(Buffer.concat(chunks).toString('utf8')) as { data?: { id?: unknown } }).data?.id ?? '')
      } catch {
        // Hint: counted all the same; a bad body has no id to time.
      }
      arrivals.push({ id, at })
      res.writeHead(204).end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `https://127.0.0.1:${port}/frontdesk`,
    count: () => arrivals.length,
    arrivals: () => arrivals,
    reset: () => {
      arrivals = []
    },
    close: () => {
      server.closeAllConnections()
      return new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

/** The report's lines for the webhook measures. */
export function formatWebhooks(w: WebhookFigures): string[] {
  const out: string[] = ['webhooks (one serve process, a receiver on 127.0.0.1):']
  if (w.latency !== undefined) out.push(`  POST sent → event received, ${w.latency.received} of ${w.latency.events} one at a time: p50 ${w.latency.p50.toFixed(1)} ms, p99 ${w.latency.p99.toFixed(1)} ms (goal p50 ≤ 50 ms, p99 ≤ 1 s)`)
  if (w.throughput !== undefined) out.push(`  a backlog delivered by one process to one endpoint: ${w.throughput.perSecond.toFixed(0)} deliveries/s (${w.throughput.events} in ${w.throughput.seconds.toFixed(2)} s), ${w.throughput.cpuUs.toFixed(0)} µs of CPU each`)
  if (w.apiCpu !== undefined) {
    const cpu = (r: LoadResult) => (r.cpuUs === null ? 'n/a' : `${r.cpuUs.toFixed(0)} µs`)
    const apart = w.apiCpu.without.cpuUs === null ? 'n/a' : `${(w.apiCpu.without.cpuUs + w.apiCpu.deliveriesUs).toFixed(0)} µs`
    out.push(
      `  detail hit at ${API_CPU_RATE} req/s, server CPU per request: ${cpu(w.apiCpu.without)} without deliveries, ${cpu(w.apiCpu.during)} while ${w.apiCpu.deliveriesPerSecond.toFixed(0)} deliveries/s flow to ${API_CPU_ENDPOINTS} endpoints,` +
        ` against ${apart} for the two apart (the requests without deliveries, and ~${w.apiCpu.deliveriesUs.toFixed(0)} µs of deliveries per request at their CPU each alone): more than apart would be the deliveries' cost to requests`,
    )
  }
  if (w.inquiries !== undefined) out.push(`  inquiries/s: ${w.inquiries.without.rps.toFixed(0)} without an endpoint receiving, ${w.inquiries.with.rps.toFixed(0)} with one subscribed (${(w.inquiries.ratio * 100).toFixed(0)} %, the median of ${w.inquiries.ratios.map((r) => (r * 100).toFixed(0)).join(', ')} % in alternated pairs; goal ≥ 90 %)`)
  if (w.error !== undefined) out.push(`  error: ${w.error}`)
  return out
}
