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
    if (env.vars['FRONTDESK_DEBUG'] === '1' && error instanceof Error && error.stack) env.stderr.write(`${error.stack}\n`)
    return 1
  }
}
