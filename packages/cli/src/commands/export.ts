import type { Command } from 'commander'
import { createWriteStream } from 'node:fs'
import { rename, rm } from 'node:fs/promises'
import { basename, dirname, join, resolve } from 'node:path'
import { finished } from 'node:stream/promises'
import type { Context, ImportRecordOut } from '@frontdesk/core'
import { exportRecords, requireTenant } from '@frontdesk/core'
import type { CliEnv, CliOutput } from '../env.ts'
import { SECTIONS } from '../io/read-json-document.ts'
import { writeChunk } from '../io/write-lines.ts'
import { runWithSession } from '../session.ts'

/** Options of `export`. */
export interface ExportOptions {
  tenant: string
  /** A file to write; `.json` → one JSON document, anything else → NDJSON. Default: stdout (NDJSON). */
  out?: string
}

const SECTION_OF: Record<string, string> = Object.fromEntries(Object.entries(SECTIONS).map(([section, kind]) => [kind, section]))

/**
 * Writes the tenant's records to `out`: NDJSON (one record a line, with `kind`), or with
 * `json` one document `{"categories":[…],"tags":[…],"contents":[…],"inquiry_categories":[…],"synonyms":[…]}`
 * (records without `kind`, one a line). Both are accepted by `import`. Returns the count.
 */
export async function writeExport(records: AsyncIterable<ImportRecordOut>, out: CliOutput, json: boolean): Promise<number> {
  let count = 0
  let section: string | null = null
  const written = new Set<string>()
  for await (const record of records) {
    count++
    if (!json) {
      await writeChunk(out, `${JSON.stringify(record)}\n`)
      continue
    }
    const { kind, ...rest } = record
    const next = SECTION_OF[kind] ?? kind
    const lead = next === section ? ',\n' : `${section === null ? '{' : '\n],'}${JSON.stringify(next)}:[\n`
    if (next !== section) written.add(next)
    section = next
    await writeChunk(out, lead + JSON.stringify(rest))
  }
  if (json) {
    // Hint: every section is written, even empty, so that the document shows its whole shape.
    const missing = Object.keys(SECTIONS).filter((s) => !written.has(s)).map((s) => `${JSON.stringify(s)}:[]`)
    const close = section === null ? `{${missing.join(',')}}` : `\n]${missing.map((m) => `,${m}`).join('')}}`
    await writeChunk(out, `${close}\n`)
  }
  return count
}

/**
 * `frontdesk export --tenant CODE [--out FILE]`. With `--out`, the file is written next to
 * its final name and renamed into place when complete, so a failed export leaves no half file.
 */
export async function exportTenant(ctx: Context, options: ExportOptions, env: CliEnv): Promise<number> {
  await requireTenant(ctx, options.tenant)
  const records = exportRecords(ctx, options.tenant)
  if (options.out === undefined) return writeExport(records, env.stdout, false)
  const target = resolve(env.cwd, options.out)
  const partial = join(dirname(target), `.${basename(target)}.${process.pid}.partial`)
  const file = createWriteStream(partial, { flags: 'wx' })
  try {
    await new Promise<void>((ok, fail) => file.once('open', () => ok()).once('error', fail))
    const count = await writeExport(records, file, /\.json$/i.test(target))
    file.end()
    await finished(file)
    await rename(partial, target)
    env.stdout.write(`Exported ${count} records of tenant ${options.tenant} to ${options.out}\n`)
    return count
  } catch (error) {
    file.destroy()
    await rm(partial, { force: true })
    throw error
  }
}

/** Registers `export`. */
export function register(program: Command, env: CliEnv): void {
  program
    .command('export')
    .description("export a tenant's categories, tags, contents, inquiry categories and synonyms (re-importable)")
    .requiredOption('--tenant <code>', 'tenant code')
    .option('--out <file>', 'write to FILE instead of stdout (.json: one JSON document; else NDJSON)')
    .action((options: ExportOptions, command: Command) => runWithSession(command, env, (s) => exportTenant(s.ctx, options, env)))
}
