import { readdirSync, readFileSync } from 'node:fs'

/**
 * The ids of the `frontdesk search-snapshot` processes that run for `searchDir`, read from
 * /proc: a process that has ended, reaped or not, has no command line there. A refresh an
 * import hands off is among them as soon as the import has returned (a spawn returns once its
 * child has started the program).
 */
export function refreshesRunning(searchDir: string): number[] {
  return readdirSync('/proc').flatMap((name) => (/^\d+$/.test(name) && refreshRuns(Number(name), searchDir) ? [Number(name)] : []))
}

/** Whether the process `pid` is a `frontdesk search-snapshot` for `searchDir` that has not ended. */
export function refreshRuns(pid: number, searchDir: string): boolean {
  try {
    const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')
    return argv.includes('search-snapshot') && argv.includes(searchDir)
  } catch {
    return false
  }
}

/** Resolves once no refresh runs for `searchDir`; at most 30 s. */
export async function settled(searchDir: string): Promise<void> {
  for (const until = Date.now() + 30_000; refreshesRunning(searchDir).length > 0 && Date.now() < until; ) await new Promise((resolve) => setTimeout(resolve, 20))
}

/** The environment that makes a `frontdesk search-snapshot` started by the command wait until the file `gate` exists. */
export function heldRefresh(gate: string): Record<string, string> {
  return { NODE_OPTIONS: `--import=${new URL('./hold-refresh.mjs', import.meta.url).href}`, FRONTDESK_TEST_REFRESH_GATE: gate }
}
