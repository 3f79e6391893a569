import { readFileSync } from 'node:fs'
import { stopChild } from '../children.ts'
import { runLoad } from '../load.ts'
import type { RequestPlan } from '../load-job.ts'
import { startServe } from '../server-process.ts'

/*
 * `node --conditions=source --import tsx bench/micro/workers-ab.ts FILE KEY [SECONDS] [ROUNDS]`:
 * the server's CPU per request (µs, all its processes) with `serve --workers 1` (no supervisor)
 * and `--workers 2`, interleaved, on a database seeded by seed-db.ts (KEY: a key of its tenant
 * with `cms:*`). Endpoints: a cached detail, a cached list page, a detail miss (ids never
 * asked before), and what the supervisor itself costs per connection of a run.
 */

const [db, key, secondsArg, roundsArg] = process.argv.slice(2)
if (db === undefined || key === undefined) throw new Error('usage: bench/micro/workers-ab.ts FILE KEY [SECONDS] [ROUNDS]')
const seconds = Number(secondsArg ?? 4)
const rounds = Number(roundsArg ?? 2)

const results = new Map<string, number[]>()
for (let round = 0; round < rounds; round++) {
  for (const workers of [1, 2]) {
    // Hint: AB_PROF=DIR profiles the server processes (node --cpu-prof; workers inherit the flag).
    const prof = process.env['AB_PROF']
    const serve = await startServe(db, prof === undefined ? [] : ['--cpu-prof', '--cpu-prof-dir', `${prof}/w${workers}-r${round}`], ['--workers', String(workers)], 120_000)
    try {
      const headers = { 'x-api-key': key }
      const list = await fetchJson(serve.origin, '/v1/cms/contents?limit=100', headers)
      const ids = (list.items as { id: string }[]).map((item) => item.id)
      const pages: string[] = []
      let cursor: string | null = null
      for (let i = 0; i < 60; i++) {
        const page: { items: { id: string }[]; pagination: { next_cursor: string | null } } = await fetchJson(serve.origin, `/v1/cms/contents?limit=100${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`, headers)
        for (const item of page.items) pages.push(`/v1/cms/contents/${item.id}`)
        cursor = page.pagination.next_cursor
        if (cursor === null) break
      }
      const plans: [string, RequestPlan][] = [
        ['detail hit', { kind: 'fixed', method: 'GET', path: `/v1/cms/contents/${ids[0]}` }],
        ['list page 1 (cached)', { kind: 'fixed', method: 'GET', path: '/v1/cms/contents' }],
        ['detail miss (6,000 ids, each once)', { kind: 'rotate', method: 'GET', requests: pages.map((path) => ({ path })) }],
      ]
      for (const [label, plan] of plans.filter(([label]) => process.env['AB_ONLY'] === undefined || label.startsWith(process.env['AB_ONLY'] ?? ''))) {
        const result = await runLoad({ origin: serve.origin, headers, plan, connections: 50, warmupSeconds: label.startsWith('detail miss') ? 0 : 1, durationSeconds: label.startsWith('detail miss') ? 1 : seconds, serverPids: [serve.child.pid ?? 0] })
        const name = `${label}, ${workers} worker${workers > 1 ? 's' : ''}`
        results.set(name, [...(results.get(name) ?? []), result.cpuUs ?? Number.NaN])
        console.log(`${name.padEnd(50)} ${String(Math.round(result.cpuUs ?? 0)).padStart(5)} µs/req  ${Math.round(result.rps)} req/s  (${result.serverProcesses} processes)`)
      }
      if (workers > 1) console.log(`supervisor: ${supervisorCpu(serve.child.pid ?? 0)} µs of CPU since it started`)
    } finally {
      await stopChild(serve.child, 30_000)
    }
  }
}

function supervisorCpu(pid: number): number {
  const text = readFileSync(`/proc/${pid}/stat`, 'utf8')
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ')
  return (Number(fields[11]) + Number(fields[12])) * 10_000
}

async function fetchJson(origin: string, path: string, headers: Record<string, string>): Promise<any> {
  const https = await import('node:https')
  return new Promise((resolve, reject) => {
    https.get(new URL(path, origin), { headers, rejectUnauthorized: false }, (response) => {
      let text = ''
      response.on('data', (chunk: Buffer) => (text += chunk.toString()))
      response.on('end', () => resolve(JSON.parse(text)))
    }).on('error', reject)
  })
}
