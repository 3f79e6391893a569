import type { Command } from 'commander'
import { Option } from 'commander'
import { createReadStream } from 'node:fs'
import { resolve } from 'node:path'
import type { Context, ImportItem, ImportSummary, KindCounts } from '@frontdesk/core'
import { importRecords, UsageError } from '@frontdesk/core'
import type { CliEnv, CliOutput } from '../env.ts'
import { progressLine } from '../io/progress.ts'
import { readJsonDocument } from '../io/read-json-document.ts'
import { readNdjson } from '../io/read-ndjson.ts'
import { printJson, printTable } from '../output.ts'
import { runWithSession } from '../session.ts'

/** The two import file formats. */
export type ImportFormat = 'json' | 'ndjson'

/** Options of `import`. */
export interface ImportOptions {
  tenant: string
  dryRun?: boolean
  format?: ImportFormat
  json?: boolean
}

/**
 * The format of `file`: `--format` when given, else `.json` → json, `.ndjson`/`.jsonl` →
 * ndjson, `-` (stdin) → ndjson; anything else must say.
 */
export function importFormat(file: string, given: ImportFormat | undefined): ImportFormat {
  if (given !== undefined) return given
  if (file === '-') return 'ndjson'
  if (/\.json$/i.test(file)) return 'json'
  if (/\.(ndjson|jsonl)$/i.test(file)) return 'ndjson'
  throw new UsageError(`Cannot tell the format of ${file}: name it .json or .ndjson, or pass --format json|ndjson`)
}

/** The records of `file` (`-` = stdin), read as a stream. */
export function readImportFile(file: string, format: ImportFormat, env: CliEnv): AsyncIterable<ImportItem> {
  const input = file === '-' ? env.stdin : createReadStream(resolve(env.cwd, file))
  return format === 'json' ? readJsonDocument(input as AsyncIterable<Buffer | string>) : readNdjson(input)
}

/**
 * `frontdesk import <file|-> --tenant CODE [--dry-run] [--format json|ndjson] [--json]`:
 * all or nothing; prints what was created, updated and left unchanged per kind.
 */
export async function importFile(ctx: Context, file: string, options: ImportOptions, env: CliEnv): Promise<ImportSummary> {
  const format = importFormat(file, options.format)
  const progress = progressLine(env.stderr, options.dryRun ? 'checked' : 'imported')
  let summary: ImportSummary
  try {
    summary = await importRecords(ctx, {
      tenantCode: options.tenant,
      records: readImportFile(file, format, env),
      dryRun: options.dryRun === true,
      onProgress: (done) => progress.update(done),
    })
  } finally {
    progress.done()
  }
  printSummary(env.stdout, options, summary)
  return summary
}

function printSummary(out: CliOutput, options: ImportOptions, summary: ImportSummary): void {
  if (options.json) return printJson(out, summary)
  const head = summary.dry_run
    ? `Dry run: ${summary.records} records checked, nothing written. Would apply to tenant ${options.tenant}:`
    : `Imported ${summary.records} records into tenant ${options.tenant}:`
  out.write(`${head}\n`)
  const row = (kind: string, c: KindCounts) => [kind, String(c.created), String(c.updated), String(c.unchanged)]
  printTable(out, ['KIND', 'CREATED', 'UPDATED', 'UNCHANGED'], [
    row('categories', summary.categories),
    row('tags', summary.tags),
    row('contents', summary.contents),
    row('inquiry_categories', summary.inquiry_categories),
  ])
}

/** Registers `import`. */
export function register(program: Command, env: CliEnv): void {
  program
    .command('import <file>')
    .description('import categories, tags, contents and inquiry categories from a file (- = stdin), all or nothing')
    .requiredOption('--tenant <code>', 'tenant code')
    .option('--dry-run', 'check and apply everything, then roll back and report what would change')
    .addOption(new Option('--format <format>', 'file format (default: from the name, ndjson for -)').choices(['json', 'ndjson']))
    .option('--json', 'print the summary as JSON')
    .action((file: string, options: ImportOptions, command: Command) => runWithSession(command, env, (s) => importFile(s.ctx, file, options, env)))
}
