import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openSqliteStore } from '@frontdesk/adapter-sqlite'
import { createApiKey, createFrontdesk, createTenant, importRecords } from '@frontdesk/core'
import { handle } from '@frontdesk/http'

/*
 * `node --conditions=source --import tsx bench/micro/hit.ts [N]`: the CPU of
 * one cached detail request through `handle()` (no sockets, no TLS): µs of CPU time (user +
 * system) per call, median of five rounds. Isolates frontdesk's own work on the hottest path
 * from node:http and the network; CPU time, not wall time, so that other work on a shared
 * machine moves it less.
 */

const rounds = 5
const calls = Number(process.argv[2] ?? 50_000)
const dir = mkdtempSync(join(tmpdir(), 'frontdesk-hit-'))
const store = openSqliteStore({ path: join(dir, 'hit.db') })
try {
  const frontdesk = createFrontdesk({ store, defaultRateLimit: 0 })
  const ctx = frontdesk.context
  await createTenant(ctx, { code: 'acme' })
  const { key } = await createApiKey(ctx, { tenantCode: 'acme', name: 'bench', permissions: ['cms:read'] })
  async function* records() {
    yield { location: 'line 1', record: { kind: 'category', code: 'news', name: 'News' } }
    yield {
      location: 'line 2',
      record: { kind: 'content', category_code: 'news', slug: 'hello', title: 'Hello', status: 'published', published_at: '2026-01-01T00:00:00Z', body: '<p>' + 'lorem ipsum '.repeat(120) + '</p>' },
    }
  }
  await importRecords(ctx, { tenantCode: 'acme', records: records() })
  const listed = await handle(frontdesk, { method: 'GET', url: '/v1/cms/contents', headers: { 'x-api-key': key }, secure: true, body: Buffer.alloc(0) })
  const id = (JSON.parse(listed.body.toString()) as { items: { id: string }[] }).items[0]?.id
  if (id === undefined) throw new Error(`no item listed: ${listed.body.toString()}`)
  const request = { method: 'GET', url: `/v1/cms/contents/${id}`, headers: { 'x-api-key': key, host: 'x' }, secure: true, remoteAddress: '127.0.0.1', body: Buffer.alloc(0) }
  const first = await handle(frontdesk, request)
  if (first.status !== 200) throw new Error(`status ${first.status}: ${first.body.toString()}`)
  const results: number[] = []
  for (let round = 0; round < rounds; round++) {
    const started = process.cpuUsage()
    for (let i = 0; i < calls; i++) await handle(frontdesk, request)
    const used = process.cpuUsage(started)
    results.push((used.user + used.system) / calls)
  }
  results.sort((a, b) => a - b)
  console.log(`detail hit through handle(): ${results[2]!.toFixed(2)} µs CPU per call (rounds: ${results.map((r) => r.toFixed(2)).join(', ')})`)
} finally {
  await store.close()
  rmSync(dir, { recursive: true, force: true })
}
