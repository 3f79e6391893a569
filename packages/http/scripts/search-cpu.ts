/*
 * The server's CPU per search, over HTTPS and through `handle()`, for the benchmark's search
 * mix (the machine is shared: CPU per request says more than req/s).
 *
 * `node --conditions=source --import tsx packages/http/scripts/search-cpu.ts DB KEY ITEMS [REQUESTS] [MODE]`
 * over a database seeded by `packages/adapter-sqlite/scripts/seed-bench-db.ts DB ITEMS` (it
 * prints KEY). MODE: `attach` (a server already running: ORIGIN, SERVER_PID from the environment), `handle` (in-process `handle()` calls, no sockets), `https` (the bundled
 * `frontdesk serve`, as the benchmark starts it, loaded by autocannon in this process with 50
 * connections; the server's user + system CPU from /proc before and after the fixed number of
 * requests; extra `serve` flags from the environment variable SERVE_FLAGS, node flags from SERVE_NODE_FLAGS, e.g. `--cpu-prof`), `ceiling` (the benchmark's bare node:https server, same load), or `all` (default).
 */
import { readFileSync } from 'node:fs'
import type { ChildProcess } from 'node:child_process'
import { fork, spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import autocannon from 'autocannon'
import { openSqliteStore } from '@frontdesk/adapter-sqlite'
import { createSearchEngine } from '@frontdesk/search'
import { createFrontdesk } from '@frontdesk/core'
import { handle } from '@frontdesk/http'
import { Dataset } from '../../../bench/dataset.ts'
import type { QueryClass } from '../../../bench/queries.ts'
import { chooseQueries } from '../../../bench/queries.ts'
import { SEARCH_MIX } from '../../../bench/scenarios.ts'
import { createDevCert } from '../src/dev-cert.ts'

const [path, key, itemsArg, requestsArg, modeArg] = process.argv.slice(2)
if (path === undefined || key === undefined || itemsArg === undefined) throw new Error('usage: search-cpu.ts DB KEY ITEMS [REQUESTS] [handle|https|ceiling|all]')
const requests = Number(requestsArg ?? '20000')
const mode = modeArg ?? 'all'
const ROOT = fileURLToPath(new URL('../../..', import.meta.url))
// Hint: FRONTDESK_CLI names another build of the CLI (a copy of packages/cli's bin and dist), to compare two builds in turns.
const CLI = process.env.FRONTDESK_CLI ?? fileURLToPath(new URL('../../cli/bin/frontdesk.js', import.meta.url))

const dataset = new Dataset(Number(itemsArg))
for (const _ of dataset.records());
const store = openSqliteStore({ path })
const search = createSearchEngine({ store })
await search.warmUp()
const frontdesk = createFrontdesk({ store, search, cache: { maxEntries: 0 } })
const principal = await frontdesk.authenticate({ apiKey: key, authorization: false }, 'cms:search')
const queries = await chooseQueries(frontdesk, principal, dataset.facts.vocabulary, dataset.facts.visibleIds.length, 40)
// The mix as the benchmark's `search_mix` builds it.
const mix: string[] = []
for (const [name, share] of Object.entries(SEARCH_MIX) as [QueryClass, number][]) {
  const set = queries[name]
  for (let i = 0; i < share && set.length > 0; i++) {
    const body = set[i % set.length]?.body
    if (body !== undefined) mix.push(JSON.stringify(body))
  }
}

const ticks = (pid: number): number => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? []
  // utime and stime are fields 14 and 15 (1-based) of the whole line: 12 and 13 after "pid (comm) ".
  return Number(fields[11]) + Number(fields[12])
}
const TICK_US = 1e6 / 100

if (mode === 'handle' || mode === 'all') {
  const headers = { 'x-api-key': key, 'content-type': 'application/json', host: 'x' }
  const parsed = mix.map((body) => JSON.parse(body) as unknown)
  let bytes = 0
  const viaHandle = async (i: number) => {
    const response = await handle(frontdesk, { method: 'POST', url: '/v1/cms/search', headers, secure: true, remoteAddress: '127.0.0.1', body: Buffer.from(mix[i % mix.length] ?? '') })
    if (response.status !== 200) throw new Error(`status ${response.status}: ${response.body.toString()}`)
    bytes = response.body.length
  }
  const direct = async (i: number) => {
    await frontdesk.search(principal, parsed[i % parsed.length])
  }
  // CPU µs per call of `call` over `n` calls.
  const cpuPer = async (call: (i: number) => Promise<void>, n: number) => {
    const cpu = process.cpuUsage()
    for (let i = 0; i < n; i++) await call(i)
    const used = process.cpuUsage(cpu)
    return (used.user + used.system) / n
  }
  await cpuPer(viaHandle, mix.length * 20)
  await cpuPer(direct, mix.length * 20)
  let sum = 0
  for (let i = 0; i < mix.length; i++) {
    await viaHandle(i)
    sum += bytes
  }
  // Rounds of both in turns, so that both see the same machine.
  const rounds = { handle: [] as number[], direct: [] as number[] }
  for (let round = 0; round < 7; round++) {
    rounds.handle.push(await cpuPer(viaHandle, mix.length * 10))
    rounds.direct.push(await cpuPer(direct, mix.length * 10))
  }
  // The same calls, 50 at a time (as 50 connections would send them): what interleaving costs.
  const concurrent: number[] = []
  for (let round = 0; round < 5; round++) {
    const n = mix.length * 10
    const cpu = process.cpuUsage()
    for (let i = 0; i < n; i += 50) await Promise.all(Array.from({ length: 50 }, (_, j) => viaHandle(i + j)))
    const used = process.cpuUsage(cpu)
    concurrent.push((used.user + used.system) / n)
  }
  const median = (list: number[]) => [...list].sort((a, b) => a - b)[list.length >> 1] ?? 0
  console.log(`frontdesk.search(): ${median(rounds.direct).toFixed(1)} µs CPU per search (median of 7 rounds of ${mix.length * 10}; ${rounds.direct.map((r) => r.toFixed(0)).join(', ')})`)
  console.log(`handle(): ${median(rounds.handle).toFixed(1)} µs CPU per search (${rounds.handle.map((r) => r.toFixed(0)).join(', ')}); reply ${Math.round(sum / mix.length)} bytes on average`)
  console.log(`handle(), 50 at a time: ${median(concurrent).toFixed(1)} µs CPU per search (${concurrent.map((r) => r.toFixed(0)).join(', ')})`)
}
await search.close()
await store.close()

function load(origin: string, pid: number, label: string, bodies: string[] | null): Promise<void> {
  return new Promise((resolve, reject) => {
    let sent = 0
    const before = ticks(pid)
    const started = performance.now()
    autocannon(
      {
        url: origin,
        connections: 50,
        amount: requests,
        timeout: 10,
        headers: { 'x-api-key': key, 'content-type': 'application/json' },
        requests: [
          bodies === null
            ? { method: 'GET', path: '/' }
            : { method: 'POST', setupRequest: (request) => ({ ...request, path: '/v1/cms/search', body: bodies[sent++ % bodies.length] ?? '' }) },
        ],
      },
      (error, result) => {
        if (error) {
          reject(error)
          return
        }
        const seconds = (performance.now() - started) / 1000
        const cpuUs = (ticks(pid) - before) * TICK_US
        const ok = result['2xx']
        console.log(
          `${label}: ${ok} × 2xx (${result.non2xx} other, ${result.errors} errors) in ${seconds.toFixed(1)} s = ${Math.round(ok / seconds)} req/s; server CPU ${(cpuUs / ok).toFixed(0)} µs per request (${((cpuUs / 1e6 / seconds) * 100).toFixed(0)} % of a core); ${Math.round(result.throughput.total / Math.max(1, ok))} bytes read per response; p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms`,
        )
        resolve()
      },
    )
  })
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) {
      resolve()
      return
    }
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000)
    child.once('exit', () => {
      clearTimeout(timer)
      resolve()
    })
    child.kill('SIGTERM')
  })
}

if (mode === 'attach') {
  // A server started elsewhere: ORIGIN and SERVER_PID from the environment.
  const origin = process.env.ORIGIN ?? ''
  const pid = Number(process.env.SERVER_PID ?? '0')
  await load(origin, pid, 'warm-up', mix)
  await load(origin, pid, 'https search_mix', mix)
}

if (mode === 'https' || mode === 'all') {
  const child = spawn(process.execPath, [...(process.env.SERVE_NODE_FLAGS ?? '').split(' ').filter((flag) => flag !== ''), CLI, 'serve', '--db', path, '--dev-cert', '--port', '0', '--host', '127.0.0.1', ...(process.env.SERVE_FLAGS ?? '').split(' ').filter((flag) => flag !== '')], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] })
  try {
    const origin = await new Promise<string>((resolve, reject) => {
      let out = ''
      const timer = setTimeout(() => reject(new Error('serve did not start in 30 s')), 30_000)
      const onData = (chunk: Buffer) => {
        out += chunk.toString('utf8')
        const match = /serving (https:\/\/127\.0\.0\.1:\d+)\/v1\//.exec(out)
        if (match?.[1] !== undefined) {
          clearTimeout(timer)
          // The access log (one line per request) is drained, as the benchmark does.
          child.stdout?.off('data', onData)
          child.stdout?.resume()
          resolve(match[1])
        }
      }
      child.stdout?.on('data', onData)
    })
    const pid = child.pid ?? 0
    // Warm up (JIT, found items, highlights), then measure.
    await load(origin, pid, 'warm-up', mix)
    await load(origin, pid, 'https search_mix', mix)
  } finally {
    await stop(child)
  }
}

if (mode === 'ceiling' || mode === 'all') {
  const cert = await createDevCert()
  const { mkdtempSync, writeFileSync, rmSync } = await import('node:fs')
  const { tmpdir } = await import('node:os')
  const { join } = await import('node:path')
  const tmp = mkdtempSync(join(tmpdir(), 'search-cpu-'))
  writeFileSync(join(tmp, 'cert.pem'), cert.cert)
  writeFileSync(join(tmp, 'key.pem'), cert.key)
  const child = fork(fileURLToPath(new URL('../../../bench/ceiling-server.ts', import.meta.url)), [join(tmp, 'cert.pem'), join(tmp, 'key.pem')], {
    cwd: ROOT,
    execArgv: ['--conditions=source', '--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  })
  try {
    const port = await new Promise<number>((resolve) => child.once('message', (message) => resolve((message as { port: number }).port)))
    const origin = `https://127.0.0.1:${port}`
    await load(origin, child.pid ?? 0, 'ceiling warm-up', null)
    await load(origin, child.pid ?? 0, 'ceiling', null)
  } finally {
    await stop(child)
    rmSync(tmp, { recursive: true, force: true })
  }
}
