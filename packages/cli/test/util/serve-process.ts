import type { ChildProcess } from 'node:child_process'
import { spawn, spawnSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import * as https from 'node:https'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createDevCert } from '@frontdesk/http'

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url))
const BIN = join(ROOT, 'packages/cli/bin/frontdesk.js')

/** Builds the packages and the CLI bundle the processes run (incremental: ~0.5 s when current). */
export function buildCli(): void {
  const built = spawnSync(process.execPath, [join(ROOT, 'scripts/build.mjs')], { encoding: 'utf8', timeout: 120_000 })
  if (built.status !== 0) throw new Error(`build failed: ${built.stderr}`)
}

/**
 * A new development certificate written as `cert.pem` and `key.pem` in `dir`: the `files` a
 * `startServe` in `cwd` (default `dir`) serves with, and the `ca` its clients trust.
 */
export async function devCertFiles(dir: string, cwd = dir): Promise<{ ca: string; files: { cwd: string; cert: string; key: string } }> {
  const pems = await createDevCert()
  const files = { cwd, cert: join(dir, 'cert.pem'), key: join(dir, 'key.pem') }
  writeFileSync(files.cert, pems.cert)
  writeFileSync(files.key, pems.key)
  return { ca: pems.ca, files }
}

/** One line of a server's access log. */
export interface AccessLine {
  request_id: string
  status: number
  path: string
  worker?: number
  key_id: string | null
}

/** A running `frontdesk serve` process (a single server, or the supervisor of its workers). */
export interface ServeProcess {
  child: ChildProcess
  pid: number
  /** `https://127.0.0.1:<port>` */
  url: string
  /** What the process (and its workers) wrote on stderr so far. */
  stderr(): string
  /** The access log so far, parsed. */
  log(): AccessLine[]
  /** Every JSON line on stdout so far (access log and webhook attempts). */
  lines(): Record<string, unknown>[]
  /** The pids of the workers serving now, by slot, from the supervisor's lines (empty for a single server). */
  workers(): Map<number, number>
  /** Resolves once `pattern` appears on stderr (rejects after `ms`). */
  waitFor(pattern: RegExp, ms: number): Promise<RegExpExecArray>
  /** Sends `signal` and resolves with the exit code (killing it after `ms`). */
  stop(signal?: NodeJS.Signals, ms?: number): Promise<number | null>
}

/**
 * Starts `frontdesk --db <db> serve --cert … --key … --port 0 …args` (the bundled binary, as an
 * operator runs it) and resolves once it prints its "serving" line.
 */
export async function startServe(db: string, args: readonly string[], options: { cwd: string; cert: string; key: string; timeoutMs?: number; env?: Record<string, string> }): Promise<ServeProcess> {
  const child = spawn(process.execPath, [BIN, '--db', db, 'serve', '--cert', options.cert, '--key', options.key, '--port', '0', ...args], {
    cwd: options.cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { PATH: process.env['PATH'] ?? '', ...options.env },
  })
  let stdout = ''
  let stderr = ''
  child.stdout?.on('data', (chunk: Buffer) => void (stdout += chunk.toString('utf8')))
  child.stderr?.on('data', (chunk: Buffer) => void (stderr += chunk.toString('utf8')))
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
  const waitFor = (pattern: RegExp, ms: number) =>
    new Promise<RegExpExecArray>((resolve, reject) => {
      const started = Date.now()
      const check = () => {
        const found = pattern.exec(stderr)
        if (found !== null) return resolve(found)
        if (child.exitCode !== null || child.signalCode !== null) return reject(new Error(`frontdesk serve exited waiting for ${pattern}: ${stderr}`))
        if (Date.now() - started > ms) return reject(new Error(`timed out waiting for ${pattern}: ${stderr}`))
        setTimeout(check, 20)
      }
      check()
    })
  let url: string
  try {
    url = (await waitFor(/serving (https:\/\/\S+?)\/v1\//, options.timeoutMs ?? 60_000))[1] ?? ''
  } catch (error) {
    child.kill('SIGKILL')
    throw error
  }
  return {
    child,
    pid: child.pid ?? 0,
    url,
    stderr: () => stderr,
    log: () =>
      stdout
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as AccessLine),
    lines: () =>
      stdout
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as Record<string, unknown>),
    workers() {
      const slots = new Map<number, number>()
      const serving = /serving \S+ with \d+ worker processes \(pids ([\d, ]+)\)/.exec(stderr)
      for (const [i, pid] of (serving?.[1] ?? '').split(', ').filter(Boolean).entries()) slots.set(i + 1, Number(pid))
      for (const match of stderr.matchAll(/worker (\d+) \(pid (\d+)\) serving/g)) slots.set(Number(match[1]), Number(match[2]))
      return slots
    },
    waitFor,
    async stop(signal = 'SIGTERM', ms = 20_000) {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode
      const timer = setTimeout(() => child.kill('SIGKILL'), ms)
      child.kill(signal)
      const code = await exited
      clearTimeout(timer)
      return code
    },
  }
}

/** A response as the tests read it. */
export interface Answer {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: any
  requestId: string
}

let sequence = 0

/**
 * One HTTPS request on a new connection (so that the supervisor hands it to the next worker),
 * or on `agent`'s. Carries a fresh `X-Request-Id` (`requestId`), which the access log names.
 * A connection that fails resolves with status 0.
 */
export function send(url: string, ca: string, method: string, path: string, options: { headers?: Record<string, string>; body?: unknown; agent?: https.Agent } = {}): Promise<Answer> {
  const requestId = `t${process.pid}-${++sequence}-${Date.now()}`
  const payload = options.body === undefined ? null : Buffer.from(JSON.stringify(options.body))
  const headers: Record<string, string> = { 'x-request-id': requestId, ...options.headers }
  if (payload !== null) {
    headers['content-type'] = 'application/json'
    headers['content-length'] = String(payload.length)
  }
  return new Promise((resolve) => {
    const request = https.request(new URL(path, url), { method, headers, ca, agent: options.agent ?? false, timeout: 15_000 }, (response) => {
      const chunks: Buffer[] = []
      response.on('data', (chunk: Buffer) => chunks.push(chunk))
      response.on('error', () => resolve({ status: 0, headers: {}, body: null, requestId }))
      response.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8')
        let body: unknown = null
        try {
          body = text === '' ? null : JSON.parse(text)
        } catch {
          body = text
        }
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body, requestId })
      })
    })
    request.on('timeout', () => request.destroy(new Error('timed out')))
    request.on('error', () => resolve({ status: 0, headers: {}, body: null, requestId }))
    request.end(payload ?? undefined)
  })
}

/** Waits `ms`. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}
