/*
 * CSV for `inquiry list --csv`: RFC 4180 (every cell quoted when it holds `"`, `,`, CR or LF;
 * quotes doubled; CRLF between records), UTF-8.
 *
 * Inquiries are written by the public through a web form, and CSV files end up in
 * spreadsheets, which run a cell starting with `=`, `+`, `-` or `@` as a formula (CSV
 * injection). Such cells, and those starting with a tab or CR, get a leading `'` (OWASP's
 * advice), which spreadsheets show as text. `--json` gives the exact values.
 */

const NEEDS_QUOTES = /[",\r\n]/
const FORMULA_START = /^[=+\-@\t\r]/

/** One CSV cell: `null` is empty; untrusted text is defused against formula execution. */
export function csvCell(value: string | number | null, options: { untrusted?: boolean } = {}): string {
  if (value === null) return ''
  let text = String(value)
  if (options.untrusted && FORMULA_START.test(text)) text = `'${text}`
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text
}

/** One CSV record, CRLF-terminated, from cells already made by `csvCell`. */
export function csvRow(cells: readonly string[]): string {
  return `${cells.join(',')}\r\n`
}
