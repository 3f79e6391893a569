import type { Command } from 'commander'
import type { CliEnv } from '../env.ts'

/** Registers `import` (being written). */
export function register(program: Command, env: CliEnv): void {
  void env
  program
    .command('import <file>')
    .description('import categories, tags, contents and inquiry categories (all or nothing)')
    .requiredOption('--tenant <code>', 'tenant code')
    .option('--dry-run', 'check everything and report what would change, writing nothing')
    .option('--format <format>', 'json or ndjson (default: from the file name; ndjson for -)')
    .option('--json', 'print the summary as JSON')
    .action(() => {
      throw new Error('not implemented yet')
    })
}
