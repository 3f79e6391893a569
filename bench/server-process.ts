import type { ChildProcess } from 'node:child_process'
import { fork, spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { isRunning, track } from './children.ts'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const CLI = fileURLToPath(new URL('../packages/cli/bin/frontdesk.js', import.meta.url))

/** A started `frontdesk serve` process. */
export interface ServeProcess {
  child: ChildProcess
  origin: string
  /** `performance.now()` when it was spawned. */
  spawnedAt: number
  /** Milliseconds from spawn to the "serving" line (index built, listening). */
  listeningMs: number
  /** What the process wrote to stderr so far (for error reports). */
  stderr(): string
}

/**
 * Spawns the real server, `node packages/cli/bin/frontdesk.js serve --db FILE --dev-cert
 * --port 0` (the bundled CLI, as users run it), optionally with extra node flags (e.g.
 * `--cpu-prof`), in `cwd` (where `--dev-cert` keeps its certificate for a PostgreSQL database)
 * with `env`,
 * and resolves once it prints the address it serves (on stderr).
 */
export function startServe(dbPath: string, nodeFlags: string[], serveFlags: string[], timeoutMs: number, cwd = ROOT, env: NodeJS.ProcessEnv = process.env): Promise<ServeProcess> {
  const spawnedAt = performance.now()
  const child = track(spawn(process.execPath, [...nodeFlags, CLI, 'serve', '--db', dbPath, '--dev-cert', '--port', '0', '--host', '127.0.0.1', ...serveFlags], {
    cwd,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  }))
  let err = ''
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`frontdesk serve did not start within ${timeoutMs / 1000} s. stderr: ${err.slice(-2000)}`)), timeoutMs)
    const early = (code: number | null, signal: NodeJS.Signals | null) => {
      clearTimeout(timer)
      reject(new Error(`frontdesk serve exited (${code ?? signal}) before serving. stderr: ${err.slice(-2000)}`))
    }
    child.once('exit', early)
    // Hint: stdout carries only the access log (one line per request): drained, nothing kept.
    child.stdout?.resume()
    let served = false
    child.stderr?.on('data', (chunk: Buffer) => {
      err += chunk.toString('utf8')
      // Hint: the "serving" line is on stderr (with `--workers`, once every worker listens).
      const match = served ? null : /serving (https:\/\/127\.0\.0\.1:\d+)\/v1\//.exec(err)
      if (match?.[1] !== undefined) {
        served = true
        clearTimeout(timer)
        child.off('exit', early)
        resolve({ child, origin: match[1], spawnedAt, listeningMs: performance.now() - spawnedAt, stderr: () => err })
      }
    })
  })
}

/** Forks a TypeScript module of this folder as a child with an IPC channel (tsx as loader). */
export function forkTs(module: string, args: string[] = []): ChildProcess {
  return track(fork(fileURLToPath(new URL(module, import.meta.url)), args, {
    cwd: ROOT,
    execArgv: ['--conditions=source', '--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  }))
}

/** Whether the process is alive. */
export function alive(child: ChildProcess): boolean {
  return isRunning(child)
}
