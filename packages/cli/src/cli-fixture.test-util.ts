// Test helper (not a test): a temp directory with a database path, and `run(...)`, which runs
// the CLI in-process through `main` with captured output.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import type { CliEnv } from './env.ts'
import { bufferOutput } from './env.ts'
import { main } from './main.ts'
import type { Session } from './session.ts'
import { openSession } from './session.ts'

/** What one in-process run printed and returned. */
export interface RunResult {
  code: number
  stdout: string
  stderr: string
}

/** A temp dir with `db` inside; `run` passes `--db` unless `noDb`. */
export function cliFixture() {
  const dir = mkdtempSync(join(tmpdir(), 'frontdesk-cli-'))
  const db = join(dir, 'frontdesk.db')
  const env = (stdin = '', vars: Record<string, string> = {}, tty = false): CliEnv & { stdout: { text(): string }; stderr: { text(): string } } => ({
    stdout: bufferOutput(tty),
    stderr: bufferOutput(tty),
    stdin: Readable.from([Buffer.from(stdin)]),
    vars,
    cwd: dir,
  })
  return {
    dir,
    db,
    env,
    /** Runs `frontdesk --db <db> ...args` in-process. */
    async run(args: string[], options: { stdin?: string; vars?: Record<string, string>; noDb?: boolean; tty?: boolean } = {}): Promise<RunResult> {
      const e = env(options.stdin ?? '', options.vars ?? {}, options.tty ?? false)
      const code = await main(['node', 'frontdesk', ...(options.noDb ? [] : ['--db', db]), ...args], e)
      return { code, stdout: e.stdout.text(), stderr: e.stderr.text() }
    },
    /** Opens the fixture's database (close it after use). */
    session: (): Promise<Session> => openSession(db),
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  }
}
