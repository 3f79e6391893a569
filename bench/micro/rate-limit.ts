import { fork } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import pg from 'pg'
import { openPostgresStore } from '@frontdesk/adapter-postgres'
import { createTestDatabase } from '@frontdesk/adapter-postgres/testing'
import { SqliteRateLimits } from '@frontdesk/adapter-sqlite'
import type { RateLimitStore } from '@frontdesk/core'
import { ProcessRateLimits, RateLimiter } from '@frontdesk/core'

/*
 * `node --conditions=source --import tsx bench/micro/rate-limit.ts [cost|accuracy|all]`: what
 * the two designs of a rate limit shared by several processes cost and how exact they are.
 *
 * - cost: CPU per allowed request (µs; this process's, and for PostgreSQL also the server
 *   backends' own, read from /proc) for one step of the shared store per request ("per
 *   request") against `RateLimiter`'s leases ("leased"), on the SQLite bucket file and on
 *   PostgreSQL, beside the in-process store. Requests come one after another at 5,000/s of a
 *   key limited to 10,000/s (a clock moved by hand: no request is refused).
 * - accuracy: N processes hammer one key (200/s, burst 400) for a few seconds as fast as they
 *   can; the requests all of them were allowed, against the bucket's own bound (burst + rate ×
 *   seconds). Then a well-behaved client (half the rate, spread over the processes): refusals.
 */

const mode = process.argv[2] ?? 'all'

interface ChildJob { kind: 'sqlite' | 'postgres'; target: string; design: 'leased' | 'per-request'; rate: number; ms: number; interval: number; startAt: number }

if (mode === 'child') {
  const job = JSON.parse(process.argv[3] ?? '{}') as ChildJob
  const { store, close } = await openShared(job.kind, job.target)
  let storeErrors = 0
  const limiter = new RateLimiter({ now: () => Date.now() }, { store, onStoreError: () => void storeErrors++ })
  const policy = { rate: job.rate, capacity: job.rate * 2 }
  let allowed = 0
  let refused = 0
  let failed = 0
  const perRequest = async () => {
    try {
      return (await store.take('key:hot', policy, 1, Date.now())).taken === 1
    } catch {
      failed++
      return false
    }
  }
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, job.startAt - Date.now())))
  const began = Date.now()
  const end = began + job.ms
  while (Date.now() < end) {
    const ok = job.design === 'leased' ? (await limiter.take('key:hot', job.rate)).allowed : await perRequest()
    if (ok) allowed++
    else refused++
    if (job.interval > 0) await new Promise((resolve) => setTimeout(resolve, job.interval))
    else if ((allowed + refused) % 64 === 0) await new Promise((resolve) => setImmediate(resolve))
  }
  await limiter.close()
  await close()
  process.send?.({ allowed, refused, failed: failed + storeErrors, began, ended: Date.now() })
  process.exit(0)
}

async function openShared(kind: 'sqlite' | 'postgres', target: string): Promise<{ store: RateLimitStore; close: () => Promise<void> }> {
  if (kind === 'sqlite') {
    const store = new SqliteRateLimits({ path: target })
    return { store, close: () => store.close() }
  }
  const opened = await openPostgresStore({ url: target, poolSize: 2 })
  return { store: opened.rateLimits, close: () => opened.close() }
}

/** CPU µs (user + system) of processes by pid, from /proc. */
function procCpu(pids: number[]): number {
  let total = 0
  for (const pid of pids) {
    try {
      const text = readFileSync(`/proc/${pid}/stat`, 'utf8')
      const fields = text.slice(text.lastIndexOf(')') + 2).split(' ')
      total += (Number(fields[11]) + Number(fields[12])) * 10_000
    } catch {
      // gone
    }
  }
  return total
}

async function cost(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'frontdesk-rl-'))
  const database = await createTestDatabase()
  const postgres = await openPostgresStore({ url: database.url, poolSize: 1 })
  const adminClient = new pg.Client(database.url)
  await adminClient.connect()
  const backends = async () => (await adminClient.query<{ pid: number }>(`SELECT pid FROM pg_stat_activity WHERE application_name = 'frontdesk' AND datname = current_database()`)).rows.map((row) => row.pid)
  const sqlite = new SqliteRateLimits({ path: join(dir, 'db.rate-limits') })
  const stores: [string, RateLimitStore][] = [['process memory', new ProcessRateLimits()], ['SQLite file', sqlite], ['PostgreSQL', postgres.rateLimits]]
  const calls = 20_000
  const rate = 10_000
  try {
    for (const [label, store] of stores) {
      for (const design of ['per request', 'leased']) {
        const clock = { t: 1_700_000_000_000, now: () => clock.t }
        const limiter = new RateLimiter(clock, { store })
        const policy = { rate, capacity: rate * 2 }
        const step = design === 'leased' ? () => limiter.take(`key:${label}-${design}`, rate) : () => store.take(`key:${label}-${design}`, policy, 1, clock.t)
        for (let i = 0; i < 2_000; i++) {
          clock.t += 0.2
          await step()
        }
        const pids = label === 'PostgreSQL' ? await backends() : []
        const backend0 = procCpu(pids)
        const cpu0 = process.cpuUsage()
        const wall0 = performance.now()
        let refused = 0
        for (let i = 0; i < calls; i++) {
          clock.t += 0.2
          const outcome = await step()
          if ('allowed' in outcome ? !outcome.allowed : outcome.taken !== 1) refused++
        }
        const wall = (performance.now() - wall0) * 1000
        const cpu = process.cpuUsage(cpu0)
        const backend = procCpu(pids) - backend0
        await limiter.close()
        const own = (cpu.user + cpu.system) / calls
        console.log(
          `${label.padEnd(15)} ${design.padEnd(12)} ${own.toFixed(2).padStart(7)} µs CPU here` +
            (label === 'PostgreSQL' ? `, ${(backend / calls).toFixed(2).padStart(6)} µs in PostgreSQL` : '') +
            `, ${(wall / calls).toFixed(2).padStart(7)} µs wall per request${refused > 0 ? ` (${refused} refused)` : ''}`,
        )
      }
    }
  } finally {
    await adminClient.end()
    await sqlite.close()
    await postgres.close()
    await database.drop()
    rmSync(dir, { recursive: true, force: true })
  }
}

function runChild(job: ChildJob): Promise<{ allowed: number; refused: number; failed: number; began: number; ended: number }> {
  return new Promise((resolve, reject) => {
    const child = fork(fileURLToPath(import.meta.url), ['child', JSON.stringify(job)], { execArgv: ['--conditions=source', '--import', 'tsx'], stdio: 'inherit' })
    child.once('message', (message) => resolve(message as { allowed: number; refused: number; failed: number; began: number; ended: number }))
    child.once('exit', (code) => (code === 0 ? undefined : reject(new Error(`child exited ${code}`))))
  })
}

async function accuracy(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'frontdesk-rl-'))
  const database = await createTestDatabase()
  // Hint: the table is made by opening a store once.
  await (await openPostgresStore({ url: database.url })).close()
  const rate = 200
  const ms = 3_000
  try {
    for (const kind of ['sqlite', 'postgres'] as const) {
      for (const design of ['per-request', 'leased'] as const) {
        for (const processes of [2, 4]) {
          const target = kind === 'sqlite' ? join(dir, `${design}-${processes}.rate-limits`) : database.url
          if (kind === 'postgres') {
            const client = new pg.Client(database.url)
            await client.connect()
            await client.query('DELETE FROM rate_limit_buckets')
            await client.end()
          }
          const startAt = Date.now() + 1_500
          const results = await Promise.all(Array.from({ length: processes }, () => runChild({ kind, target, design, rate, ms, interval: 0, startAt })))
          const allowed = results.reduce((sum, r) => sum + r.allowed, 0)
          const requests = allowed + results.reduce((sum, r) => sum + r.refused, 0)
          const window = Math.max(...results.map((r) => r.ended)) - Math.min(...results.map((r) => r.began))
          const bound = Math.round(rate * 2 + (rate * window) / 1000)
          const failed = results.reduce((sum, r) => sum + r.failed, 0)
          console.log(`${kind.padEnd(8)} ${design.padEnd(11)} ${processes} processes flooding: ${allowed} allowed of ${requests} (the bucket's bound over ${(window / 1000).toFixed(2)} s: ${bound}; ${((allowed / bound) * 100).toFixed(1)} %)${failed > 0 ? `, ${failed} steps failed or timed out` : ''}`)
        }
      }
      // A client keeping to the policy: half the rate in all, spread over 4 processes.
      for (const design of ['per-request', 'leased'] as const) {
        const target = kind === 'sqlite' ? join(dir, `polite-${design}.rate-limits`) : database.url
        const startAt = Date.now() + 1_500
        const results = await Promise.all(Array.from({ length: 4 }, () => runChild({ kind, target, design, rate, ms, interval: Math.round((4 * 1000) / (rate / 2)), startAt })))
        const refused = results.reduce((sum, r) => sum + r.refused, 0)
        const allowed = results.reduce((sum, r) => sum + r.allowed, 0)
        console.log(`${kind.padEnd(8)} ${design.padEnd(11)} 4 processes at half the rate in all: ${allowed} allowed, ${refused} refused`)
      }
    }
  } finally {
    await database.drop()
    rmSync(dir, { recursive: true, force: true })
  }
}

if (mode === 'cost' || mode === 'all') await cost()
if (mode === 'accuracy' || mode === 'all') await accuracy()
process.exit(0)
