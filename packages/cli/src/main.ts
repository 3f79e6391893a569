import { CommanderError } from 'commander'
import type { CliEnv } from './env.ts'
import { processEnv } from './env.ts'
import { errorLine } from './error-line.ts'
import { createProgram } from './program.ts'

/**
 * Runs the CLI with `argv` (as `process.argv`: node, script, arguments…) and returns the exit
 * code: 0 on success, 1 on any error, reported as exactly one line `frontdesk: <message>` on
 * stderr. This is the one place where errors become exit codes.
 */
export async function main(argv: readonly string[], env: CliEnv = processEnv()): Promise<number> {
  const program = createProgram(env)
  try {
    await program.parseAsync([...argv])
    return 0
  } catch (error) {
    if (error instanceof CommanderError && (error.code === 'commander.helpDisplayed' || error.code === 'commander.version')) {
      return 0
    }
    if (error instanceof CommanderError && error.code === 'commander.help') {
      // `frontdesk tenant` without a subcommand: commander already printed the help.
      return 1
    }
    env.stderr.write(`frontdesk: ${errorLine(error)}\n`)
    if (env.vars['FRONTDESK_DEBUG'] === '1') env.stderr.write(debugTrace(error))
    return 1
  }
}

/** The stack of `error` and of each of its causes (FRONTDESK_DEBUG=1 only). */
function debugTrace(error: unknown): string {
  const parts: string[] = []
  for (let e: unknown = error, depth = 0; e !== undefined && depth < 5; depth++) {
    parts.push(e instanceof Error ? (e.stack ?? String(e)) : String(e))
    e = e instanceof Error ? e.cause : undefined
  }
  return `${parts.join('\nCaused by: ')}\n`
}
