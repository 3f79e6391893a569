import type { Command } from 'commander'
import { open } from 'node:fs/promises'
import { resolve } from 'node:path'
import type { Context, SynonymGroup, SynonymsSetSummary } from '@frontdesk/core'
import { listSynonyms, setSynonyms, UsageError } from '@frontdesk/core'
import type { CliEnv, CliOutput } from '../env.ts'
import { countOf, printJson } from '../output.ts'
import { runWithSession } from '../session.ts'
import { checkImportFile } from './import.ts'

/**
 * A synonyms file larger than this is refused before it is read: the file format's own bounds
 * (`SYNONYM_LIMITS`: 10,000 lines) hold far less in any file a person writes.
 */
export const MAX_SYNONYMS_FILE_BYTES = 16 * 1024 * 1024

/** Options of `synonyms set`. */
export interface SynonymsSetOptions {
  tenant: string
  json?: boolean
}

/**
 * The text of a synonyms file (`-` = stdin): UTF-8 (a BOM is skipped), at most
 * `MAX_SYNONYMS_FILE_BYTES`; anything else is one `UsageError`.
 */
export async function readSynonymsFile(file: string, env: CliEnv): Promise<string> {
  checkImportFile(file, env)
  const chunks: Buffer[] = []
  let size = 0
  const take = (chunk: Buffer): void => {
    size += chunk.length
    if (size > MAX_SYNONYMS_FILE_BYTES) throw new UsageError(`synonyms: ${file} is larger than ${MAX_SYNONYMS_FILE_BYTES / 1024 / 1024} MiB; nothing was changed`)
    chunks.push(chunk)
  }
  if (file === '-') {
    for await (const chunk of env.stdin) take(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer))
  } else {
    const handle = await open(resolve(env.cwd, file), 'r')
    try {
      for await (const chunk of handle.createReadStream({ highWaterMark: 1 << 20 })) take(chunk as Buffer)
    } finally {
      await handle.close()
    }
  }
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(Buffer.concat(chunks))
  } catch (error) {
    throw new UsageError(`synonyms: ${file} is not UTF-8 text; nothing was changed`, { cause: error })
  }
}

/** `frontdesk synonyms set --tenant CODE FILE [--json]`: replaces the tenant's whole set, all or nothing. */
export async function synonymsSet(ctx: Context, file: string, options: SynonymsSetOptions, env: CliEnv): Promise<SynonymsSetSummary> {
  const text = await readSynonymsFile(file, env)
  const summary = await setSynonyms(ctx, { tenantCode: options.tenant, text })
  if (options.json) printJson(env.stdout, summary)
  else env.stdout.write(`Set ${countOf(summary.groups, 'synonym group')} for tenant ${summary.tenant}: searches use them within a second\n`)
  return summary
}

/**
 * `frontdesk synonyms list --tenant CODE [--json]`: the groups one a line, in the file format
 * (what `list` prints, `set` takes back); `--json` prints one array of groups.
 */
export async function synonymsList(ctx: Context, options: { tenant: string; json?: boolean }, out: CliOutput): Promise<(SynonymGroup & { line: string })[]> {
  const groups = await listSynonyms(ctx, options.tenant)
  if (options.json) printJson(out, groups)
  else if (groups.length === 0) out.write(`# no synonyms for tenant ${options.tenant}\n`)
  else out.write(groups.map((group) => `${group.line}\n`).join(''))
  return groups
}

/** Registers `synonyms set` and `synonyms list`. */
export function register(program: Command, env: CliEnv): void {
  const synonyms = program.command('synonyms').description("set and list a tenant's search synonyms")
  synonyms
    .command('set <file>')
    .description("replace the tenant's synonyms with those of FILE (- = stdin): one group a line, \"a, b\" two-way, \"a => b, c\" one-way, # comments")
    .requiredOption('--tenant <code>', 'tenant code')
    .option('--json', 'print the summary as JSON')
    .action((file: string, options: SynonymsSetOptions, command: Command) => runWithSession(command, env, (s) => synonymsSet(s.ctx, file, options, env)))
  synonyms
    .command('list')
    .description("print the tenant's synonyms, one group a line (a file synonyms set takes back)")
    .requiredOption('--tenant <code>', 'tenant code')
    .option('--json', 'print the groups as a JSON array')
    .action((options: { tenant: string; json?: boolean }, command: Command) => runWithSession(command, env, (s) => synonymsList(s.ctx, options, env.stdout)))
}
