import { spawn } from 'node:child_process'
import { closeSync, openSync } from 'node:fs'

/** Where a command writes: `process.stdout`/`stderr`, or a buffer in tests. */
export interface CliOutput {
  write(chunk: string): unknown
  /** Set on a terminal; progress lines are shown only then. */
  isTTY?: boolean
}

/**
 * What a command may touch of the outside world. `main` passes the real process; tests pass
 * buffers and their own variables, so that every command can be called directly.
 */
export interface CliEnv {
  stdout: CliOutput
  stderr: CliOutput
  /** Read by `import -`. */
  stdin: NodeJS.ReadableStream
  /** Environment variables (`FRONTDESK_DB`, `FRONTDESK_DEBUG`). */
  vars: Readonly<Record<string, string | undefined>>
  /** Relative paths (`--db`, files) are resolved against this directory. */
  cwd: string
  /**
   * Starts `frontdesk <args>` as a process of its own that outlives this one, with `vars` added
   * to this one's environment and its stderr appended to the file `log`; returns its id (`null`
   * when it could not be started). Absent where commands are called directly (tests): work that
   * would be handed to it is then done in the foreground.
   */
  detach?: (args: readonly string[], vars: Readonly<Record<string, string>>, log: string) => number | null
}

/**
 * The environment of the running process. With `script`, the CLI's own entry (its `bin`), work a
 * command hands off (`CliEnv.detach`) runs in a new process of that script; without, a program
 * calling `main` itself has it done in the foreground.
 */
export function processEnv(script?: string): CliEnv {
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: process.stdin,
    vars: process.env,
    cwd: process.cwd(),
    ...(script === undefined ? {} : { detach: (args, vars, log) => detach(script, args, vars, log) }),
  }
}

/** `CliEnv.detach` of the running process: the same script, runtime and runtime flags. */
function detach(script: string, args: readonly string[], vars: Readonly<Record<string, string>>, log: string): number | null {
  let out: number
  try {
    out = openSync(log, 'a', 0o600)
  } catch {
    return null
  }
  try {
    const child = spawn(process.execPath, [...process.execArgv, script, ...args], { detached: true, stdio: ['ignore', 'ignore', out], env: { ...process.env, ...vars } })
    // Hint: a failed start is reported here, after this process may have gone; nothing waits for it.
    child.on('error', () => undefined)
    child.unref()
    return child.pid ?? null
  } finally {
    closeSync(out)
  }
}

/** An output that keeps what is written, for tests. */
export function bufferOutput(isTTY = false): CliOutput & { text(): string } {
  const chunks: string[] = []
  return { write: (chunk: string) => chunks.push(chunk), isTTY, text: () => chunks.join('') }
}
