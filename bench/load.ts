import type { ChildProcess } from 'node:child_process'
import { stopChild } from './children.ts'
import type { LoadJob, LoadResult } from './load-job.ts'
import { forkTs } from './server-process.ts'

/** Runs one load job in a fresh worker process and returns what it measured. */
export async function runLoad(job: LoadJob): Promise<LoadResult> {
  const worker = forkTs('./load-worker.ts')
  const limitMs = (job.warmupSeconds + job.durationSeconds + 30) * 1000
  try {
    return await new Promise<LoadResult>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`load worker gave no result within ${limitMs / 1000} s`)), limitMs)
      worker.once('message', (message: { ok: true; result: LoadResult } | { ok: false; error: string }) => {
        clearTimeout(timer)
        if (message.ok) resolve(message.result)
        else reject(new Error(`load worker failed: ${message.error}`))
      })
      worker.once('exit', (code) => {
        clearTimeout(timer)
        reject(new Error(`load worker exited (${code}) without a result`))
      })
      worker.send(job)
    })
  } finally {
    await stopChild(worker, 2000)
  }
}

/**
 * Starts the bare `node:https` ceiling server (same certificate) and resolves with its origin;
 * `mode` are its further arguments (`--reply FILE`, `--floor …`: see `ceiling-server.ts`).
 */
export function startCeiling(certPath: string, keyPath: string, mode: string[] = []): Promise<{ child: ChildProcess; origin: string }> {
  const child = forkTs('./ceiling-server.ts', [certPath, keyPath, ...mode])
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('ceiling server did not start within 20 s')), 20_000)
    child.once('message', (message: { port: number }) => {
      clearTimeout(timer)
      resolve({ child, origin: `https://127.0.0.1:${message.port}` })
    })
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`ceiling server exited (${code})`))
    })
  })
}
