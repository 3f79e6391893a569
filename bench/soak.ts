/*
 * `npm run soak [-- --minutes N] [-- --concurrency C]`: an opt-in long run (default 10 minutes).
 * Starts `frontdesk serve` (the real binary) over a seeded scratch database on 127.0.0.1, drives
 * mixed traffic at it (lists with random filters and cursors, details, slugs, categories,
 * searches, inquiries, wrong keys) while another process imports changes every few seconds,
 * and samples the server's RSS and the WAL file's size. Fails (exit 1) on any 5xx, or when RSS
 * or the WAL keep growing after warm-up instead of levelling off.
 */
import type { ChildProcess } from 'node:child_process'
import { spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import * as https from 'node:https'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const BIN = join(ROOT, 'packages/cli/bin/frontdesk.js')
const SAMPLE_MS = 5_000
/** The WAL may not exceed this, whatever happens (SQLite's auto-checkpoint keeps it near 4 MiB). */
const WAL_CEILING = 64 * 1024 * 1024

const { values } = parseArgs({ options: { minutes: { type: 'string', default: '10' }, concurrency: { type: 'string', default: '8' }, items: { type: 'string', default: '2000' } } })
const minutes = Number(values.minutes)
const concurrency = Number(values.concurrency)
const items = Number(values.items)
if (!(minutes > 0) || !(concurrency > 0) || !(items > 0)) {
  process.stderr.write('usage: npm run soak -- [--minutes 10] [--concurrency 8] [--items 2000]\n')
  process.exit(2)
}

interface Sample {
  at: number
  rssMiB: number
  walMiB: number
  requests: number
  errors5xx: number
}

const dir = mkdtempSync(join(tmpdir(), 'frontdesk-soak-'))
const db = join(dir, 'soak.db')
let server: ChildProcess | null = null

function cli(args: string[]): string {
  const result = spawnSync(process.execPath, [BIN, '--db', db, ...args], { encoding: 'utf8', timeout: 300_000 })
  if (result.status !== 0) throw new Error(`frontdesk ${args.join(' ')} failed: ${result.stderr}`)
  return result.stdout
}

function seedFile(path: string, round: number): void {
  const lines: unknown[] = []
  if (round === 0) {
    lines.push({ kind: 'category', code: 'news', name: 'News', fields: [{ name: 'score', type: 'number' }, { name: 'kind', type: 'select', options: ['a', 'b'] }] })
    lines.push({ kind: 'category', code: 'blog', name: 'Blog' })
    lines.push({ kind: 'inquiry_category', code: 'general', name: 'General' })
  }
  const count = round === 0 ? items : 50
  for (let i = 0; i < count; i++) {
    const n = round === 0 ? i : (round * 7919 + i) % items
    const news = n % 3 !== 0
    lines.push({
      kind: 'content', slug: `item-${n}`, title: `Office relocation notice ${n} round ${round}`, category_code: news ? 'news' : 'blog',
      status: 'published', published_at: '2025-01-01T00:00:00Z', tags: [`t${n % 20}`], summary: `Summary ${n}`,
      body: `<p>${'The office moves to a new building. '.repeat(5)} オフィス移転のお知らせ ${n}</p>`,
      ...(news ? { content: { score: n % 100, kind: n % 2 === 0 ? 'a' : 'b' } } : {}),
    })
  }
  writeFileSync(path, lines.map((line) => JSON.stringify(line)).join('\n'))
}

function rssMiB(pid: number): number {
  const status = `/proc/${pid}/status`
  if (existsSync(status)) {
    const kb = /VmRSS:\s+(\d+)/.exec(readFileSync(status, 'utf8'))?.[1]
    return Number(kb ?? 0) / 1024
  }
  const ps = spawnSync('ps', ['-o', 'rss=', '-p', String(pid)], { encoding: 'utf8' })
  return Number(ps.stdout.trim()) / 1024
}

const walMiB = () => (existsSync(`${db}-wal`) ? statSync(`${db}-wal`).size / 1024 / 1024 : 0)

async function main(): Promise<number> {
  console.log(`soak: ${minutes} min, ${concurrency} clients, ${items} items, in ${dir}`)
  cli(['tenant', 'create', 'acme'])
  const seed = join(dir, 'seed.ndjson')
  seedFile(seed, 0)
  cli(['import', seed, '--tenant', 'acme'])
  const key = (JSON.parse(cli(['key', 'create', '--tenant', 'acme', '--name', 'soak', '--permissions', 'cms:*,inquiry:create', '--rate-limit', '0', '--json'])) as { key: string }).key

  const child = spawn(process.execPath, [BIN, '--db', db, 'serve', '--dev-cert', '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] })
  server = child
  let output = ''
  child.stdout?.on('data', (chunk: Buffer) => void (output += chunk.toString('utf8')))
  child.stderr?.on('data', (chunk: Buffer) => void (output += chunk.toString('utf8')))
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start: ${output}`)), 60_000)
    child.stdout?.on('data', () => {
      const found = /serving (https:\/\/[^/\s]+)/.exec(output)?.[1]
      if (found !== undefined) {
        clearTimeout(timer)
        resolve(found)
      }
    })
  })
  const ca = readFileSync(join(dir, '.frontdesk', 'dev-ca.pem'), 'utf8')
  const agent = new https.Agent({ keepAlive: true, maxSockets: concurrency, ca })
  const pid = child.pid ?? 0

  let requests = 0
  let errors5xx = 0
  const statuses = new Map<number, number>()
  const cursors: string[] = []
  const deadline = Date.now() + minutes * 60_000
  let seq = 0

  const send = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    new Promise<{ status: number; json: unknown }>((resolve) => {
      const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body))
      const request = https.request(new URL(path, url), {
        method, agent, timeout: 30_000,
        headers: { 'x-api-key': key, ...(payload ? { 'content-type': 'application/json', 'content-length': String(payload.length) } : {}), ...headers },
      }, (response) => {
        const chunks: Buffer[] = []
        response.on('data', (chunk: Buffer) => chunks.push(chunk))
        response.on('end', () => {
          let json: unknown = null
          try {
            json = JSON.parse(Buffer.concat(chunks).toString('utf8'))
          } catch {
            json = null
          }
          resolve({ status: response.statusCode ?? 0, json })
        })
      })
      request.on('timeout', () => request.destroy(new Error('timeout')))
      request.on('error', () => resolve({ status: 0, json: null }))
      request.end(payload)
    })

  const pick = <T>(list: readonly T[]): T => list[Math.floor(Math.random() * list.length)] as T
  async function worker(): Promise<void> {
    while (Date.now() < deadline) {
      const n = Math.floor(Math.random() * items)
      const roll = Math.random()
      let result
      if (roll < 0.35) {
        const params = new URLSearchParams()
        if (Math.random() < 0.5) params.set('category_code', pick(['news', 'blog']))
        if (Math.random() < 0.3) params.set('tags', `t${n % 20}`)
        if (Math.random() < 0.3) params.set('sort', pick(['title:asc', 'published_at:desc', 'updated_at:desc']))
        params.set('limit', String(1 + (n % 50)))
        if (Math.random() < 0.3 && cursors.length > 0) params.set('cursor', pick(cursors))
        result = await send('GET', `/v1/cms/contents?${params}`)
        const next = (result.json as { pagination?: { next_cursor?: string | null } } | null)?.pagination?.next_cursor
        if (typeof next === 'string') cursors[seq++ % 500] = next
      } else if (roll < 0.55) {
        result = await send('GET', `/v1/cms/contents/slug/item-${n}`)
      } else if (roll < 0.6) {
        result = await send('GET', '/v1/cms/categories')
      } else if (roll < 0.8) {
        result = await send('POST', '/v1/cms/search', { query: pick(['office', 'relocation', '移転', `notice ${n}`, 'buildng']), size: 10, from: n % 50 })
      } else {
        result = await send('POST', '/v1/inquiries', { category_code: 'general', title: `Soak ${n}`, content: 'x'.repeat(n % 2000), inquirer_name: 'Soak', inquirer_email: 'soak@example.com' }, { 'idempotency-key': `soak-${Date.now()}-${n}` })
      }
      requests++
      statuses.set(result.status, (statuses.get(result.status) ?? 0) + 1)
      if (result.status >= 500 || result.status === 0) errors5xx++
    }
  }

  // Someone guessing keys, slower than the per-address limit (10/s) so the others are not refused.
  const guesser = setInterval(() => {
    void send('GET', '/v1/cms/contents', undefined, { 'x-api-key': `fdk_${'A'.repeat(38)}` }).then((result) => {
      statuses.set(result.status, (statuses.get(result.status) ?? 0) + 1)
      if (result.status !== 401) errors5xx++
    })
  }, 250)

  // Another process changes content every few seconds: cache invalidation, change log, index refresh.
  let round = 0
  const writer = (async () => {
    while (Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 5_000))
      if (Date.now() >= deadline) break
      const file = join(dir, 'round.ndjson')
      seedFile(file, ++round)
      await new Promise<void>((resolve) => spawn(process.execPath, [BIN, '--db', db, 'import', file, '--tenant', 'acme'], { stdio: 'ignore' }).once('exit', () => resolve()))
    }
  })()

  const samples: Sample[] = []
  const started = Date.now()
  const sampler = setInterval(() => {
    const sample = { at: Math.round((Date.now() - started) / 1000), rssMiB: rssMiB(pid), walMiB: walMiB(), requests, errors5xx }
    samples.push(sample)
    console.log(`t=${String(sample.at).padStart(4)}s  rss=${sample.rssMiB.toFixed(1)} MiB  wal=${sample.walMiB.toFixed(2)} MiB  requests=${requests}  5xx=${errors5xx}  imports=${round}`)
  }, SAMPLE_MS)

  await Promise.all([...Array.from({ length: concurrency }, worker), writer])
  clearInterval(sampler)
  clearInterval(guesser)
  agent.destroy()

  // Verdict: after a warm-up (the first fifth), the last third may not sit well above the middle.
  const warm = samples.filter((sample) => sample.at >= (minutes * 60) / 5)
  const third = Math.max(1, Math.floor(warm.length / 3))
  const middle = warm.slice(third, 2 * third)
  const last = warm.slice(-third)
  const max = (list: Sample[], field: 'rssMiB' | 'walMiB') => Math.max(0, ...list.map((sample) => sample[field]))
  const rssGrowth = max(last, 'rssMiB') - max(middle, 'rssMiB')
  const walMax = max(samples, 'walMiB')
  const problems: string[] = []
  if (errors5xx > 0) problems.push(`${errors5xx} requests failed with 5xx or no response`)
  if (middle.length > 0 && rssGrowth > Math.max(32, max(middle, 'rssMiB') * 0.25)) problems.push(`RSS kept growing: +${rssGrowth.toFixed(1)} MiB in the last third`)
  if (walMax * 1024 * 1024 > WAL_CEILING) problems.push(`the WAL reached ${walMax.toFixed(1)} MiB`)
  if (middle.length > 0 && max(last, 'walMiB') > max(middle, 'walMiB') * 1.5 + 4) problems.push('the WAL kept growing')
  console.log(`\nrequests: ${requests} (${(requests / (minutes * 60)).toFixed(0)}/s), statuses ${JSON.stringify([...statuses].sort())}, imports: ${round}`)
  console.log(`RSS: first ${samples[0]?.rssMiB.toFixed(1)} MiB, max ${max(samples, 'rssMiB').toFixed(1)} MiB, last ${samples.at(-1)?.rssMiB.toFixed(1)} MiB; WAL max ${walMax.toFixed(2)} MiB, last ${samples.at(-1)?.walMiB.toFixed(2)} MiB`)
  if (problems.length > 0) {
    console.log(`soak FAILED:\n- ${problems.join('\n- ')}`)
    return 1
  }
  console.log('soak passed: no 5xx; memory and WAL levelled off')
  return 0
}

main()
  .then((code) => (process.exitCode = code))
  .catch((error: unknown) => {
    console.error(error)
    process.exitCode = 1
  })
  .finally(async () => {
    const running = server
    if (running !== null && running.exitCode === null) {
      const exited = new Promise((resolve) => running.once('exit', resolve))
      running.kill('SIGTERM')
      await exited
    }
    rmSync(dir, { recursive: true, force: true })
  })
