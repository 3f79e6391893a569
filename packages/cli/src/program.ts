import { Command } from 'commander'
import type { CliEnv } from './env.ts'
import * as content from './commands/content.ts'
import * as demo from './commands/demo.ts'
import * as exportCommand from './commands/export.ts'
import * as importCommand from './commands/import.ts'
import * as inquiry from './commands/inquiry.ts'
import * as key from './commands/key.ts'
import * as preview from './commands/preview.ts'
import * as searchSnapshot from './commands/search-snapshot.ts'
import * as serve from './commands/serve.ts'
import * as synonyms from './commands/synonyms.ts'
import * as tenant from './commands/tenant.ts'
import * as webhook from './commands/webhook.ts'
import { VERSION } from './version.ts'

/** What every `commands/<name>.ts` exports: a function adding its command(s) to the program. */
export interface CommandModule {
  register(program: Command, env: CliEnv): void
}

/**
 * Every command of the CLI, in the order `--help` lists them.
 * Adding a command: import its module above and add one line here.
 */
const COMMANDS: CommandModule[] = [
  tenant,
  key,
  importCommand,
  exportCommand,
  content,
  synonyms,
  searchSnapshot,
  preview,
  inquiry,
  webhook,
  serve,
  demo,
]

/**
 * Builds the `frontdesk` program. Usage errors are thrown (never `process.exit`) and
 * commander prints nothing itself: `main` reports every error as one line.
 */
export function createProgram(env: CliEnv): Command {
  const program = new Command('frontdesk')
    .description('Self-hostable, tenant-scoped content-delivery and inquiry API over HTTPS')
    .version(VERSION, '-V, --version', 'print the version')
    .option('--db <database>', 'SQLite database file or postgres:// URL (default: $FRONTDESK_DB, else ./frontdesk.db)')
    .option('--search-dir <dir>', 'directory of the search index snapshots that import writes and serve restores (default: <db file>.search, or .frontdesk/search-… for PostgreSQL)')
    .exitOverride()
    .configureOutput({
      writeOut: (text) => env.stdout.write(text),
      // Hint: commander writes here only help shown for a missing subcommand; main prints
      // what is due instead, and every error once, as `frontdesk: <message>`.
      writeErr: () => {},
      outputError: () => {},
    })
    .showHelpAfterError(false)
    .allowExcessArguments(false)
  for (const command of COMMANDS) command.register(program, env)
  return program
}
