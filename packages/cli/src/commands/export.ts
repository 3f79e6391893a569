import type { Command } from 'commander'
import type { CliEnv } from '../env.ts'

/** Registers `export` (being written). */
export function register(program: Command, env: CliEnv): void {
  void env
  program
    .command('export')
    .description("export a tenant's content model")
    .requiredOption('--tenant <code>', 'tenant code')
    .option('--out <file>', 'write to FILE (.json: one JSON document; else NDJSON) instead of stdout')
    .action(() => {
      throw new Error('not implemented yet')
    })
}
