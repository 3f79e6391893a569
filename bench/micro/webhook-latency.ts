/**
 * Webhook delivery figures on one machine: commit → receipt latency of `inquiry.created` events
 * (p50, p99) with one serving process's deliverer and a local HTTPS receiver, inquiries committed
 * one at a time (spaced), then the throughput of a backlog (deliveries/s, one endpoint, one
 * process). SQLite. `node --conditions=source --import tsx bench/micro/webhook-latency.ts [EVENTS]`
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { addWebhookEndpoint, createApiKey, createFrontdesk, createTenant, importRecords, newSealingKey, sealingKey, WebhookDeliverer } from '@frontdesk/core'
import { openSqliteStore } from '@frontdesk/adapter-sqlite'
import { sendWebhook } from '../../packages/cli/src/webhooks/send-webhook.ts'
import { startReceiver } from '../../packages/cli/test/util/webhook-receiver.ts'

const count = Number(process.argv[2] ?? '200')
const dir = mkdtempSync(join(tmpdir(), 'frontdesk-webhook-bench-'))
const store = openSqliteStore({ path: join(dir, 'db') })
const receiver = await startReceiver()
try {
  let poke = () => {}
  // Hint: as `serve` does, a commit in this process wakes the deliverer at once (others' commits are polled, every 200 ms).
  const frontdesk = createFrontdesk({ store, hooks: { onInquiryCreated: () => poke() } })
  const ctx = frontdesk.context
  const tenant = await createTenant(ctx, { code: 'bench', name: 'Bench' })
  const { record: key } = await createApiKey(ctx, { tenantCode: 'bench', name: 'form', permissions: ['inquiry:create'], personal: false, rateLimit: 0 })
  await importRecords(ctx, { tenantCode: 'bench', records: [{ record: { kind: 'inquiry_category', code: 'general', name: 'General' }, location: 'a' }] })
  const seal = sealingKey(newSealingKey())
  await addWebhookEndpoint(ctx, seal, { tenantCode: 'bench', url: receiver.url(), events: 'inquiry.created' })
  const committed = new Map<string, number>()
  const latencies: number[] = []
  const deliverer = new WebhookDeliverer(ctx, store.webhooks, { sealingKey: seal, owner: 'bench', send: (r) => sendWebhook(r, { allowPrivate: true, ca: receiver.ca }) })
  deliverer.start()
  poke = () => deliverer.poke()
  const body = { category_code: 'general', title: 'Hello', content: 'Call me', inquirer_name: 'Ina', inquirer_email: 'ina@example.com' }
  const principal = { tenant, key }
  for (let i = 0; i < count; i++) {
    const reply = await frontdesk.createInquiry(principal, body)
    committed.set(reply.body.id, performance.now())
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  const deadline = Date.now() + 30_000
  while (receiver.received.length < count && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10))
  for (const got of receiver.received) {
    const id = (JSON.parse(got.body) as { data: { id: string } }).data.id
    const at = committed.get(id)
    if (at !== undefined) latencies.push(got.at - at)
  }
  latencies.sort((a, b) => a - b)
  const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((latencies.length * p) / 100))] ?? Number.NaN
  console.log(`commit → receipt, ${latencies.length} of ${count} events one at a time: p50 ${pct(50).toFixed(1)} ms, p99 ${pct(99).toFixed(1)} ms`)
  // A backlog: events committed while delivery is stopped, then delivered as fast as one process and one endpoint go.
  await deliverer.stop()
  const before = receiver.received.length
  for (let i = 0; i < count; i++) await frontdesk.createInquiry(principal, body)
  const backlog = new WebhookDeliverer(ctx, store.webhooks, { sealingKey: seal, owner: 'bench-2', send: (r) => sendWebhook(r, { allowPrivate: true, ca: receiver.ca }) })
  const started = performance.now()
  backlog.start()
  while (receiver.received.length < before + count && Date.now() < deadline + 60_000) await new Promise((resolve) => setTimeout(resolve, 5))
  const seconds = (performance.now() - started) / 1000
  await backlog.stop()
  console.log(`backlog of ${count}: ${(count / seconds).toFixed(0)} deliveries/s (one endpoint, in order, one process)`)
} finally {
  await receiver.close()
  await store.close()
  rmSync(dir, { recursive: true, force: true })
}
