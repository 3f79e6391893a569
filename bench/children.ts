import type { ChildProcess } from 'node:child_process'

/*
 * Every process the benchmark starts is registered here, so that a timeout, an error, Ctrl-C
 * or a plain exit ends them all: no server or load generator outlives the benchmark.
 */

const running = new Set<ChildProcess>()
const cleanups: (() => void)[] = []

/** Registers a child; it is dropped from the registry when it exits. */
export function track<T extends ChildProcess>(child: T): T {
  running.add(child)
  child.once('exit', () => running.delete(child))
  return child
}

/** Registers synchronous clean-up work (e.g. removing the temporary directory), run once at exit. */
export function atExit(work: () => void): void {
  cleanups.push(work)
}

/** Whether `child` has not exited yet. */
export function isRunning(child: ChildProcess): boolean {
  return child.exitCode === null && child.signalCode === null
}

/** Asks a child to stop (SIGTERM), and kills it (SIGKILL) if it has not exited after `graceMs`. */
export function stopChild(child: ChildProcess, graceMs = 5000): Promise<void> {
  if (!isRunning(child)) return Promise.resolve()
  return new Promise((done) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
    }, graceMs)
    child.once('exit', () => {
      clearTimeout(timer)
      done()
    })
    child.kill('SIGTERM')
  })
}

/** Stops every running child (SIGTERM, then SIGKILL after `graceMs`). */
export async function stopAll(graceMs = 5000): Promise<void> {
  await Promise.all([...running].map((child) => stopChild(child, graceMs)))
}

let finished = false

/** Kills what is left at once and runs the clean-up work; safe to call more than once. */
export function finalCleanup(): void {
  if (finished) return
  finished = true
  for (const child of running) {
    if (isRunning(child)) child.kill('SIGKILL')
  }
  for (const work of cleanups.splice(0)) {
    try {
      work()
    } catch {
      // Best effort: clean-up must never hide the error that brought us here.
    }
  }
}

/**
 * Installs the guards: on SIGINT/SIGTERM, or when `timeoutMs` passes, children are stopped,
 * clean-up runs and the process exits with code 130/143/124; on any exit what is left is killed.
 */
export function installGuards(timeoutMs: number, onAbort: (reason: string) => void): void {
  const abort = (reason: string, code: number) => {
    onAbort(reason)
    void stopAll(2000).finally(() => {
      finalCleanup()
      process.exit(code)
    })
  }
  process.once('SIGINT', () => abort('interrupted (SIGINT)', 130))
  process.once('SIGTERM', () => abort('terminated (SIGTERM)', 143))
  const timer = setTimeout(() => abort(`global timeout of ${Math.round(timeoutMs / 1000)} s reached`, 124), timeoutMs)
  timer.unref()
  process.once('exit', finalCleanup)
}
