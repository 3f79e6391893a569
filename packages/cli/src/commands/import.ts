import type { Command } from 'commander'
import { Option } from 'commander'
import type { Stats } from 'node:fs'
import { createReadStream, statSync } from 'node:fs'
import { resolve } from 'node:path'
import type { Context, ImportItem, ImportSummary, KindCounts } from '@frontdesk/core'
import { groupDigits, importRecords, UsageError } from '@frontdesk/core'
import type { ImportIndexing, SnapshotAfterImportOptions } from '@frontdesk/search'
import type { CliEnv, CliOutput } from '../env.ts'
import { progressLine } from '../io/progress.ts'
import { readJsonDocument } from '../io/read-json-document.ts'
import { readNdjson } from '../io/read-ndjson.ts'
import { countOf, printJson, printTable } from '../output.ts'
import type { Session } from '../session.ts'
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

/**
 * Refuses, before anything is opened, an import file that does not exist or is a directory,
 * naming it by its full path.
 */
export function checkImportFile(file: string, env: CliEnv): void {
  if (file === '-') return
  const path = resolve(env.cwd, file)
  let stat: Stats
  try {
    stat = statSync(path)
  } catch (error) {
    const code = (error as { code?: unknown }).code
    const why = code === 'ENOENT' ? 'no such file' : code === 'ENOTDIR' ? 'a part of the path is not a directory' : code === 'EACCES' ? 'permission denied' : String(code)
    throw new UsageError(`Cannot read ${path}: ${why}`, { cause: error })
  }
  if (stat.isDirectory()) throw new UsageError(`Cannot read ${path}: it is a directory, not a file`)
}

/**
 * The records of `file` (`-` = stdin), read as a stream. The file is opened when reading
 * starts: a stream opened earlier reports a missing file before anyone listens (while the
 * store is still connecting), which would crash the process instead of failing the import.
 */
export function readImportFile(file: string, format: ImportFormat, env: CliEnv): AsyncIterable<ImportItem> {
  checkImportFile(file, env)
  return {
    [Symbol.asyncIterator]() {
      const input = file === '-' ? env.stdin : createReadStream(resolve(env.cwd, file))
      const records = format === 'json' ? readJsonDocument(input as AsyncIterable<Buffer | string>) : readNdjson(input)
      return records[Symbol.asyncIterator]()
    },
  }
}

/**
 * `frontdesk import <file|-> --tenant CODE [--dry-run] [--format json|ndjson] [--json]`:
 * all or nothing; prints what was created, updated and left unchanged per kind. After a
 * committed import that changed what search sees, brings the tenant's search snapshot in
 * `session.searchDir` up to date (see `saveSearchSnapshot`), so that the next `serve` start
 * restores it.
 */
export async function importFile(session: Pick<Session, 'ctx' | 'searchDir' | 'path'>, file: string, options: ImportOptions, env: CliEnv): Promise<ImportSummary> {
  const { ctx, searchDir } = session
  const format = importFormat(file, options.format)
  const dryRun = options.dryRun === true
  const indexing = dryRun ? null : await indexAlongside(ctx, options.tenant, searchDir)
  const progress = progressLine(env.stderr, options.dryRun ? 'checked' : 'imported')
  let summary: ImportSummary
  try {
    summary = await importRecords(ctx, {
      tenantCode: options.tenant,
      records: readImportFile(file, format, env),
      dryRun,
      onProgress: (done) => progress.update(done),
      // Hint: a hint only; a store that loads in bulk (SQLite, into an empty database) builds its indexes once at the end.
      ...(dryRun ? {} : { transaction: { bulk: true, ...(indexing === null ? {} : { observer: indexing.observer }) } }),
    })
  } catch (error) {
    await indexing?.abandon()
    throw error
  } finally {
    progress.done()
  }
  if (summary.dry_run || !changesSearch(summary)) await indexing?.abandon()
  else if (indexing === null) await refreshAfterChange(session, options.tenant, env)
  else await saveSearchSnapshot(ctx, options.tenant, searchDir, env, indexing, snapshotLimitsOf(env))
  printSummary(env.stdout, options, summary)
  return summary
}

/**
 * The search indexing of the import's transaction: its items analysed on a worker thread
 * while they are written, through the transaction's observer (see `indexWhileImporting` of
 * `@frontdesk/search`). `null` for a tenant that does not exist (the import fails anyway).
 */
async function indexAlongside(ctx: Context, tenantCode: string, searchDir: string): Promise<ImportIndexing | null> {
  const tenant = await ctx.store.getTenantByCode(tenantCode)
  if (tenant === null) return null
  // Hint: only a first import is indexed this way (the worker checks again inside the transaction); a later one starts no worker.
  const any = await ctx.store.listContents(tenant.id, { visibility: { kind: 'all' }, sort: { key: 'id', direction: 'asc' }, limit: 1 })
  if (any.length > 0) return null
  const { directorySnapshots, indexWhileImporting } = await import('@frontdesk/search')
  return indexWhileImporting({ tenantId: tenant.id, snapshots: directorySnapshots(searchDir) })
}

/**
 * After a change of a tenant's items that was not a first import (an import, `content
 * publish|unpublish|delete`): when the tenant's search snapshot has fallen too far behind (once
 * in ~2,000 changes), starts bringing it up to date in a process of its own (`search-snapshot`,
 * see `refreshInBackground`) instead of waiting for that work, which follows what changed since
 * the snapshot rather than this change; said on a terminal only. Without a way to start one
 * (`CliEnv.detach`: a program calling `main` itself), or with `FRONTDESK_SEARCH_REFRESH=wait`,
 * does it in the foreground (`saveSearchSnapshot`).
 */
export async function refreshAfterChange(session: Pick<Session, 'ctx' | 'searchDir' | 'path'>, tenantCode: string, env: CliEnv): Promise<void> {
  const { detach } = env
  if (detach === undefined || env.vars['FRONTDESK_SEARCH_REFRESH'] === 'wait') {
    await saveSearchSnapshot(session.ctx, tenantCode, session.searchDir, env, null, snapshotLimitsOf(env))
    return
  }
  try {
    const tenant = await session.ctx.store.getTenantByCode(tenantCode)
    if (tenant === null) return
    const { refreshInBackground } = await import('../search-refresh.ts')
    const pid = await refreshInBackground(session.ctx, tenant, session.searchDir, session.path, { ...env, detach }, snapshotLimitsOf(env))
    if (pid !== null && env.stderr.isTTY === true) env.stderr.write(`search snapshot: brought up to date in the background (pid ${pid})\n`)
  } catch (error) {
    env.stderr.write(`warning: the search index snapshot was not brought up to date (${error instanceof Error ? error.message : String(error)}); \`frontdesk serve\` will catch up on its next start\n`)
  }
}

/**
 * The limits of the tenant's snapshot the environment sets (see `snapshotAfterImport`):
 * `FRONTDESK_SEARCH_CATCH_UP`, the most changes an import leaves it behind the change feed (only
 * lower than the default takes effect, since a start replays at most that many), and
 * `FRONTDESK_SEARCH_DELTA_ITEMS`, the most items its delta holds. Absent: the defaults.
 */
export function snapshotLimitsOf(env: CliEnv): Pick<SnapshotAfterImportOptions, 'catchUpLimit' | 'deltaItems'> {
  const catchUpLimit = wholeNumberOf(env, 'FRONTDESK_SEARCH_CATCH_UP')
  const deltaItems = wholeNumberOf(env, 'FRONTDESK_SEARCH_DELTA_ITEMS')
  return { ...(catchUpLimit === undefined ? {} : { catchUpLimit }), ...(deltaItems === undefined ? {} : { deltaItems }) }
}

/** A whole number of the environment; `undefined` when absent or not one. */
function wholeNumberOf(env: CliEnv, name: string): number | undefined {
  const given = env.vars[name]
  if (given === undefined || !/^\d+$/.test(given)) return undefined
  return Number(given)
}

/** Whether the import changed anything the search index holds (inquiry categories are not searched). */
function changesSearch(summary: ImportSummary): boolean {
  return [summary.categories, summary.tags, summary.contents].some((counts) => counts.created + counts.updated > 0)
}

/**
 * Brings the tenant's search snapshot in `searchDir` (by default `<db>.search/`) to where the
 * next `serve` start restores it instead of indexing every item. With `indexing` (a first
 * import, its items analysed on a worker thread while it wrote them, see
 * `indexWhileImporting`) that snapshot is written. Else the snapshot is left as it is when it
 * is at most `catchUpLimit` changes behind the change feed (a start replays those); beyond,
 * the items changed since it are written as its delta (at most `deltaItems`), and only beyond
 * that is the snapshot written again (see `snapshotAfterImport` of `@frontdesk/search`): a
 * small import costs what it changes, not what the tenant holds. Writes only after the commit, so a failed
 * or dry-run import never leaves a snapshot behind. The import has succeeded by then: a
 * snapshot that cannot be written (read-only directory, full disk) or an index that cannot be
 * built is a warning on stderr, and `serve` builds the index on its next start instead.
 */
export async function saveSearchSnapshot(ctx: Context, tenantCode: string, searchDir: string, env: CliEnv, indexing: ImportIndexing | null = null, limits: Pick<SnapshotAfterImportOptions, 'catchUpLimit' | 'deltaItems'> = {}): Promise<boolean> {
  const { directorySnapshots, snapshotAfterImport } = await import('@frontdesk/search')
  const warn = (why: string) => env.stderr.write(`warning: the search index snapshot was not saved (${why}); \`frontdesk serve\` will build the index on its next start\n`)
  // Hint: indexed while the import wrote; 'unused' (not applicable, or failed) falls back to the build below.
  const outcome = indexing === null ? 'unused' : await indexing.finish()
  if (outcome === 'saved') return true
  if (outcome === 'unwritable') {
    warn(`cannot write to ${searchDir}`)
    return false
  }
  // Hint: the only sign of life while a large tenant is indexed, on a terminal only (as the progress line).
  const tty = env.stderr.isTTY === true
  if (tty) env.stderr.write('indexing for search…')
  try {
    const tenant = await ctx.store.getTenantByCode(tenantCode)
    if (tenant === null) return false
    const saved = await snapshotAfterImport(ctx.store, directorySnapshots(searchDir), tenant.id, limits)
    if (saved === 'unwritable') warn(`cannot write to ${searchDir}`)
    return saved !== 'unwritable'
  } catch (error) {
    warn(error instanceof Error ? error.message : String(error))
    return false
  } finally {
    if (tty) env.stderr.write('\r\u001b[K')
  }
}

/** Whether the import created or changed anything. */
function changedAnything(summary: ImportSummary): boolean {
  return [summary.categories, summary.tags, summary.contents, summary.inquiry_categories, summary.synonyms].some((c) => c.created + c.updated > 0)
}

/** The first line of the summary: what was read, and whether anything changed. */
export function summaryHead(summary: ImportSummary, tenant: string): string {
  const records = countOf(summary.records, 'record')
  if (summary.dry_run) {
    return changedAnything(summary)
      ? `Dry run: ${records} checked, nothing written. Would apply to tenant ${tenant}:`
      : `Dry run: ${records} checked, nothing written. Nothing would change in tenant ${tenant}:`
  }
  if (summary.records === 0) return `Nothing imported into tenant ${tenant}: the file holds no records.`
  if (!changedAnything(summary)) return `Nothing changed in tenant ${tenant}: all ${records} are already as in the file:`
  return `Imported ${records} into tenant ${tenant}:`
}

function printSummary(out: CliOutput, options: ImportOptions, summary: ImportSummary): void {
  if (options.json) return printJson(out, summary)
  out.write(`${summaryHead(summary, options.tenant)}\n`)
  if (summary.records === 0) return
  const row = (kind: string, c: KindCounts) => [kind, groupDigits(c.created), groupDigits(c.updated), groupDigits(c.unchanged)]
  printTable(out, ['KIND', 'CREATED', 'UPDATED', 'UNCHANGED'], [
    row('categories', summary.categories),
    row('tags', summary.tags),
    row('contents', summary.contents),
    row('inquiry_categories', summary.inquiry_categories),
    // A file without synonyms leaves them as they are: no row for them.
    ...(summary.synonyms.created + summary.synonyms.updated + summary.synonyms.unchanged > 0 ? [row('synonyms', summary.synonyms)] : []),
  ])
}

/** Registers `import`. */
export function register(program: Command, env: CliEnv): void {
  program
    .command('import <file>')
    .description('import categories, tags, contents, inquiry categories and synonyms from a file (- = stdin), all or nothing')
    .requiredOption('--tenant <code>', 'tenant code')
    .option('--dry-run', 'check and apply everything, then roll back and report what would change')
    .addOption(new Option('--format <format>', 'file format (default: from the name, ndjson for -)').choices(['json', 'ndjson']))
    .option('--json', 'print the summary as JSON')
    .action((file: string, options: ImportOptions, command: Command) => {
      // Hint: checked first, so that a mistyped file name does not create a database.
      checkImportFile(file, env)
      return runWithSession(command, env, (s) => importFile(s, file, options, env))
    })
}
