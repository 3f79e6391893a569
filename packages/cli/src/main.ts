import type { Command } from 'commander'
import { CommanderError } from 'commander'
import type { CliEnv } from './env.ts'
import { processEnv } from './env.ts'
import { errorLine } from './error-line.ts'
import { createProgram } from './program.ts'

// Hint: for the bin, which gives it its own path (see `processEnv`).
export { processEnv } from './env.ts'

/**
 * Runs the CLI with `argv` (as `process.argv`: node, script, arguments…) and returns the exit
 * code: 0 on success, 1 on any error, reported as exactly one line `frontdesk: <message>` on
 * stderr. `frontdesk` alone prints the usage on stdout and returns 1 (as git and npm do).
 * This is the one place where errors become exit codes.
 */
export async function main(argv: readonly string[], env: CliEnv = processEnv()): Promise<number> {
  const program = createProgram(env)
  // Hint: commander shows a command's help "as an error" when a subcommand is missing; which
  // command it was decides what is printed instead (see below). It writes that help nowhere.
  const shown: { helpAsError: Command | null } = { helpAsError: null }
  program.on('beforeAllHelp', (context: { error: boolean; command: Command }) => {
    if (context.error) shown.helpAsError = context.command
  })
  try {
    await program.parseAsync([...argv])
    return 0
  } catch (error) {
    if (error instanceof CommanderError && (error.code === 'commander.helpDisplayed' || error.code === 'commander.version')) {
      return 0
    }
    const group = shown.helpAsError
    if (error instanceof CommanderError && error.code === 'commander.help' && group !== null) {
      // As git and npm do: bare `frontdesk` prints the usage on stdout and exits 1; a group
      // without its subcommand (`frontdesk tenant`) is a usage error, one line on stderr.
      if (group === program) {
        env.stdout.write(program.helpInformation())
        return 1
      }
      const names = group.commands.map((c) => c.name())
      env.stderr.write(`frontdesk: ${group.name()} needs a subcommand: ${names.join(', ')} (see frontdesk ${group.name()} --help)\n`)
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
