import type { ChildProcess } from 'node:child_process'
import { spawn } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { openSqliteStore } from '@frontdesk/adapter-sqlite'
import { createApiKey, createFrontdesk, createTenant, importRecords } from '@frontdesk/core'
import type { ServerOptions } from '@frontdesk/http'
import { createDevCert } from '@frontdesk/http'

const CHILD = fileURLToPath(new URL('./server.child.ts', import.meta.url))
const ROOT = fileURLToPath(new URL('../../../../', import.meta.url))

/** A frontdesk server in its own process, and ways to look at its sockets from outside. */
export interface ServerProcess {
  pid: number
  port: number
  /** `https://127.0.0.1:<port>` */
  url: string
  /** The server's self-signed certificate (PEM), to trust it. */
  ca: string
  /** A key of tenant `acme` with `cms:read`, limited to `rateLimit` requests/s (default 100). */
  limitedKey: string
  /** A key of tenant `acme` with `cms:read` and no rate limit. */
  unlimitedKey: string
  /** The process's resident memory (VmRSS), in bytes. */
  rss(): number
  /** How many of the process's file descriptors are sockets (the listener included). */
  socketFds(): number
  /**
   * How many TCP sockets on the server's port are in each state, by `/proc/net/tcp{,6}`
   * name (`ESTABLISHED`, `CLOSE_WAIT`…), the listener left out.
   */
  tcpStates(): Record<string, number>
  /** Whatever the process wrote on stderr so far. */
  stderr(): string
  /** Kills the process and removes its directory. */
  stop(): Promise<void>
}

const TCP_STATES: Record<string, string> = {
  '01': 'ESTABLISHED', '02': 'SYN_SENT', '03': 'SYN_RECV', '04': 'FIN_WAIT1', '05': 'FIN_WAIT2', '06': 'TIME_WAIT',
  '07': 'CLOSE', '08': 'CLOSE_WAIT', '09': 'LAST_ACK', '0A': 'LISTEN', '0B': 'CLOSING',
}

/**
 * Seeds a database (tenant `acme`, two keys, and `records` imported into it) and starts
 * `server.child.ts` on it with these `createServer` options, over a fresh self-signed certificate.
 */
export async function startServerProcess(options: { server?: ServerOptions; rateLimit?: number; records?: Record<string, unknown>[] } = {}): Promise<ServerProcess> {
  const dir = mkdtempSync(join(tmpdir(), 'frontdesk-proc-'))
  const db = join(dir, 'frontdesk.db')
  const pems = await createDevCert()
  writeFileSync(join(dir, 'cert.pem'), pems.cert)
  writeFileSync(join(dir, 'key.pem'), pems.key)
  const store = openSqliteStore({ path: db })
  let limitedKey = ''
  let unlimitedKey = ''
  try {
    const ctx = createFrontdesk({ store }).context
    await createTenant(ctx, { code: 'acme' })
    const limited = await createApiKey(ctx, { tenantCode: 'acme', name: 'limited', permissions: ['cms:read'], ...(options.rateLimit === undefined ? {} : { rateLimit: options.rateLimit }) })
    const unlimited = await createApiKey(ctx, { tenantCode: 'acme', name: 'unlimited', permissions: ['cms:read'], rateLimit: 0 })
    limitedKey = limited.key
    unlimitedKey = unlimited.key
    if (options.records !== undefined) await importRecords(ctx, { tenantCode: 'acme', records: options.records.map((record, i) => ({ record, location: String(i) })) })
  } finally {
    await store.close()
  }
  const config = JSON.stringify({ db, cert: join(dir, 'cert.pem'), key: join(dir, 'key.pem'), server: options.server ?? {} })
  const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', CHILD, config], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] })
  let stderr = ''
  child.stderr?.on('data', (chunk: Buffer) => void (stderr += chunk.toString('utf8')))
  let port: number
  try {
    port = await new Promise<number>((resolve, reject) => {
      let output = ''
      const timer = setTimeout(() => reject(new Error(`server process did not start within 30 s: ${output}${stderr}`)), 30_000)
      child.stdout?.on('data', (chunk: Buffer) => {
        output += chunk.toString('utf8')
        const found = /READY (\d+)/.exec(output)?.[1]
        if (found !== undefined) {
          clearTimeout(timer)
          resolve(Number(found))
        }
      })
      child.once('error', (error) => {
        clearTimeout(timer)
        reject(error)
      })
      child.once('exit', (code, signal) => {
        clearTimeout(timer)
        reject(new Error(`server process exited (${code ?? signal}): ${output}${stderr}`))
      })
    })
  } catch (error) {
    // Hint: a child that never said READY still waits on its stdin pipe, which would keep the test run alive.
    await killed(child)
    rmSync(dir, { recursive: true, force: true })
    throw error
  }
  const pid = child.pid ?? 0
  return {
    pid,
    port,
    url: `https://127.0.0.1:${port}`,
    ca: pems.ca,
    limitedKey,
    unlimitedKey,
    rss: () => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) * 1024,
    socketFds: () => countSocketFds(pid),
    tcpStates: () => tcpStates(port),
    stderr: () => stderr,
    async stop() {
      await killed(child)
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

function countSocketFds(pid: number): number {
  let sockets = 0
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      if (readlinkSync(`/proc/${pid}/fd/${fd}`).startsWith('socket:')) sockets++
    } catch {
      // Closed between the listing and the look: not open any more.
    }
  }
  return sockets
}

function tcpStates(port: number): Record<string, number> {
  const counts: Record<string, number> = {}
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    for (const line of readFileSync(file, 'utf8').split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/)
      const local = fields[1]
      const state = fields[3]
      if (local === undefined || state === undefined || parseInt(local.split(':')[1] ?? '', 16) !== port) continue
      const name = TCP_STATES[state] ?? state
      if (name !== 'LISTEN') counts[name] = (counts[name] ?? 0) + 1
    }
  }
  return counts
}

function killed(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    // Hint: a child that could not be spawned has no pid and never emits 'exit'.
    if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return resolve()
    child.once('exit', () => resolve())
    child.kill('SIGKILL')
  })
}
