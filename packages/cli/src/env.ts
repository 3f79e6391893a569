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
}

/** The environment of the running process. */
export function processEnv(): CliEnv {
  return { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, vars: process.env, cwd: process.cwd() }
}

/** An output that keeps what is written, for tests. */
export function bufferOutput(isTTY = false): CliOutput & { text(): string } {
  const chunks: string[] = []
  return { write: (chunk: string) => chunks.push(chunk), isTTY, text: () => chunks.join('') }
}
