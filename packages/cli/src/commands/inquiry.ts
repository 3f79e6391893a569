import type { Command } from 'commander'
import { InvalidArgumentError, Option } from 'commander'
import type { Context, InquiryRecord } from '@frontdesk/core'
import { DEFAULT_INQUIRY_PAGE, getInquiryForTenant, listInquiries, MAX_INQUIRY_PAGE } from '@frontdesk/core'
import type { CliEnv, CliOutput } from '../env.ts'
import { printJson, printTable } from '../output.ts'
import { runWithSession } from '../session.ts'
import { csvCell, csvRow } from './inquiry-csv.ts'

/** Options of `inquiry list`. */
export interface InquiryListOptions {
  tenant: string
  /** Only this status (`open`). */
  status?: string
  /** How many, newest first. Default 100. */
  limit?: number
  /** An inquiry id: list only older ones (the next page). */
  before?: string
  json?: boolean
  csv?: boolean
  /** With `csv`: start with a UTF-8 byte-order mark, so that Excel reads Japanese text right. */
  bom?: boolean
}

/** An inquiry as the CLI prints it: the record without the internal tenant id. */
export function publicInquiry(record: InquiryRecord) {
  const { tenant_id: _tenant, ...rest } = record
  return rest
}

const PRIORITY_NAMES: Record<number, string> = { 1: 'low', 2: 'medium', 3: 'high' }

/** The CSV columns, in order; the inquirer's free text is marked untrusted. */
const CSV_COLUMNS: readonly { name: keyof InquiryRecord; untrusted?: true }[] = [
  { name: 'id' },
  { name: 'created_at' },
  { name: 'status' },
  { name: 'priority' },
  { name: 'category_code' },
  { name: 'title', untrusted: true },
  { name: 'content', untrusted: true },
  { name: 'inquirer_name', untrusted: true },
  { name: 'inquirer_email', untrusted: true },
  { name: 'inquirer_phone', untrusted: true },
  { name: 'inquirer_company', untrusted: true },
  { name: 'inquirer_department', untrusted: true },
  { name: 'api_key_id' },
]

/**
 * `frontdesk inquiry list --tenant CODE [--status open] [--limit N] [--before ID] [--json|--csv]`:
 * a tenant's inquiries, newest first, as a table (titles shortened), one JSON array, or CSV
 * with a header row (every field). In table form, a note on stderr says when more are left.
 */
export async function inquiryList(ctx: Context, options: InquiryListOptions, out: CliOutput, err?: CliOutput): Promise<InquiryRecord[]> {
  const limit = options.limit ?? DEFAULT_INQUIRY_PAGE
  const { records, more } = await collect(ctx, options, limit)
  if (options.json) {
    printJson(out, records.map(publicInquiry))
  } else if (options.csv) {
    out.write((options.bom ? '\ufeff' : '') + csvRow(CSV_COLUMNS.map((column) => column.name)))
    for (const record of records) {
      out.write(csvRow(CSV_COLUMNS.map((column) => csvCell(record[column.name], { untrusted: column.untrusted === true }))))
    }
  } else {
    printTable(
      out,
      ['ID', 'CREATED', 'STATUS', 'PRIORITY', 'CATEGORY', 'FROM', 'TITLE'],
      records.map((r) => [r.id, r.created_at, r.status, PRIORITY_NAMES[r.priority] ?? String(r.priority), r.category_code, `${r.inquirer_name} <${r.inquirer_email}>`, shorten(r.title, 60)]),
      '(no inquiries)',
    )
    const last = records[records.length - 1]
    if (more && last !== undefined) err?.write(`(showing the newest ${records.length}; more with --limit or --before ${last.id})\n`)
  }
  return records
}

/**
 * `frontdesk inquiry show <id> --tenant CODE [--json]`: every field of one inquiry, its text
 * last. An unknown tenant or id (or another tenant's inquiry) is an error.
 */
export async function inquiryShow(ctx: Context, id: string, options: { tenant: string; json?: boolean }, out: CliOutput): Promise<InquiryRecord> {
  const record = await getInquiryForTenant(ctx, options.tenant, id)
  if (options.json) {
    printJson(out, publicInquiry(record))
    return record
  }
  const fields: [string, string][] = [
    ['ID', record.id],
    ['Status', record.status],
    ['Created', record.created_at],
    ['Category', record.category_code],
    ['Priority', `${record.priority} (${PRIORITY_NAMES[record.priority] ?? '?'})`],
    ['Title', record.title],
    ['Name', record.inquirer_name],
    ['E-mail', record.inquirer_email],
    ['Phone', record.inquirer_phone ?? '-'],
    ['Company', record.inquirer_company ?? '-'],
    ['Department', record.inquirer_department ?? '-'],
    ['API key', record.api_key_id ?? '-'],
  ]
  const width = Math.max(...fields.map(([label]) => label.length)) + 2
  out.write(fields.map(([label, value]) => `${`${label}:`.padEnd(width)}${value}`).join('\n'))
  out.write(`\n\n${record.content}\n`)
  return record
}

/** Fetches up to `limit` inquiries page by page, and whether more are left. */
async function collect(ctx: Context, options: InquiryListOptions, limit: number): Promise<{ records: InquiryRecord[]; more: boolean }> {
  const records: InquiryRecord[] = []
  let before = options.before
  for (;;) {
    // Hint: ask for one more than still wanted, to learn whether more are left.
    const want = Math.min(limit - records.length + 1, MAX_INQUIRY_PAGE)
    const page = await listInquiries(ctx, {
      tenantCode: options.tenant,
      limit: want,
      ...(options.status === undefined ? {} : { status: options.status }),
      ...(before === undefined ? {} : { before }),
    })
    records.push(...page)
    const last = page[page.length - 1]
    if (page.length < want || last === undefined || records.length > limit) break
    before = last.id
  }
  const more = records.length > limit
  return { records: records.slice(0, limit), more }
}

function shorten(text: string, max: number): string {
  const chars = [...text]
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join('')}…`
}

/** Parses `--limit`: an integer ≥ 1. */
export function parseLimit(text: string): number {
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(Number(text)) || Number(text) < 1) {
    throw new InvalidArgumentError('must be an integer ≥ 1')
  }
  return Number(text)
}

/** Registers `inquiry list|show`. */
export function register(program: Command, env: CliEnv): void {
  const inquiry = program.command('inquiry').description('read the inquiries sent through POST /v1/inquiries')
  inquiry
    .command('list')
    .description("list a tenant's inquiries, newest first")
    .requiredOption('--tenant <code>', 'tenant code')
    .option('--status <status>', 'only inquiries with this status (open)')
    .option('--limit <n>', `how many (default ${DEFAULT_INQUIRY_PAGE})`, parseLimit)
    .option('--before <id>', 'only inquiries older than this one (the next page)')
    .addOption(new Option('--json', 'print the inquiries as a JSON array').conflicts('csv'))
    .addOption(new Option('--csv', 'print CSV (RFC 4180, UTF-8, a header row, every field)').conflicts('json'))
    .option('--bom', 'with --csv: start with a UTF-8 byte-order mark (for Excel)')
    .action((options: InquiryListOptions, command: Command) =>
      runWithSession(command, env, (s) => inquiryList(s.ctx, options, env.stdout, env.stderr)))
  inquiry
    .command('show <id>')
    .description('show one inquiry with its text')
    .requiredOption('--tenant <code>', 'tenant code')
    .option('--json', 'print the inquiry as JSON')
    .action((id: string, options: { tenant: string; json?: boolean }, command: Command) =>
      runWithSession(command, env, (s) => inquiryShow(s.ctx, id, options, env.stdout)))
}
