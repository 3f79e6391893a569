// `frontdesk serve --workers 2 --metrics-port 0` (the bundled binary): one /metrics for both
// workers on a listener of its own; the API's port does not show it. Bounded in time.
import { mkdtempSync, rmSync } from 'node:fs'
import * as http from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import type { ServeProcess } from './util/serve-process.ts'
import { buildCli, devCertFiles, send, sleep, startServe } from './util/serve-process.ts'

interface World {
  dir: string
  server: ServeProcess | null
}

const test = suite<World>('metrics of serve --workers')

test.before((world) => {
  buildCli()
  world.dir = mkdtempSync(join(tmpdir(), 'frontdesk-metrics-'))
  world.server = null
})

test.after(async (world) => {
  // Hint: whatever `before` got to; a throw here would end the whole test run.
  await world.server?.stop('SIGKILL')
  if (world.dir !== undefined) rmSync(world.dir, { recursive: true, force: true })
})

function scrape(url: string): Promise<{ status: number; text: string; type: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, (response) => {
        let text = ''
        response.on('data', (chunk: Buffer) => (text += chunk.toString()))
        response.on('end', () => resolve({ status: response.statusCode ?? 0, text, type: String(response.headers['content-type']) }))
      })
      .on('error', reject)
  })
}

test('the supervisor serves one view of both workers on loopback, and the API port has no /metrics', async (world) => {
  const { ca, files } = await devCertFiles(world.dir)
  const server = await startServe(join(world.dir, 'frontdesk.db'), ['--workers', '2', '--metrics-port', '0'], files)
  world.server = server
  const url = (await server.waitFor(/metrics at (http:\/\/127\.0\.0\.1:\d+\/metrics) \(all workers together\)/, 10_000))[1] ?? ''
  const answers = await Promise.all(Array.from({ length: 10 }, () => send(server.url, ca, 'GET', '/healthz')))
  assert.equal(answers.map((answer) => answer.status), Array(10).fill(200))
  for (let i = 0; i < 50 && server.log().length < 10; i++) await sleep(20)
  assert.equal(new Set(server.log().map((line) => line.worker)), new Set([1, 2]), 'both workers served')
  const scraped = await scrape(url)
  assert.is(scraped.status, 200)
  assert.match(scraped.type, 'text/plain; version=0.0.4')
  assert.match(scraped.text, /^frontdesk_http_requests_total\{route="\/healthz",method="GET",status="200"\} 10$/m)
  assert.match(scraped.text, /^nodejs_eventloop_lag_seconds /m)
  assert.match(scraped.text, '# TYPE frontdesk_search_index_items gauge')
  assert.is((await send(server.url, ca, 'GET', '/metrics')).status, 404, 'not on the public port')
  assert.is((await scrape(url.replace('/metrics', '/elsewhere'))).status, 404)
  assert.is(await server.stop(), 0)
})

test.run()
