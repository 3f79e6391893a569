import { groupDigits } from '@frontdesk/core'
import type { CliOutput } from './env.ts'

/** `1 record`, `12,000 records`: a count with the thousands separator the progress line uses, and its noun in the right number. */
export function countOf(count: number, noun: string): string {
  return `${groupDigits(count)} ${noun}${count === 1 ? '' : 's'}`
}

/** Writes `value` as one line of JSON. */
export function printJson(out: CliOutput, value: unknown): void {
  out.write(`${JSON.stringify(value)}\n`)
}

/**
 * Writes rows as a table with aligned columns (two spaces apart), headers first. Widths count
 * East Asian wide characters as two columns, so Japanese titles stay aligned on a terminal.
 * An empty table prints `emptyText` instead.
 */
export function printTable(out: CliOutput, headers: readonly string[], rows: readonly (readonly string[])[], emptyText = '(none)'): void {
  if (rows.length === 0) {
    out.write(`${emptyText}\n`)
    return
  }
  const widths = headers.map((h, i) => Math.max(displayWidth(h), ...rows.map((r) => displayWidth(r[i] ?? ''))))
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, i) => (i === cells.length - 1 ? cell : cell + ' '.repeat((widths[i] ?? 0) - displayWidth(cell))))
      .join('  ')
      .trimEnd()
  out.write(`${[line(headers), ...rows.map(line)].join('\n')}\n`)
}

/** Terminal columns `text` takes: wide (CJK, full-width) characters count two. */
export function displayWidth(text: string): number {
  let width = 0
  for (const ch of text) {
    const code = ch.codePointAt(0) ?? 0
    width += isWide(code) ? 2 : 1
  }
  return width
}

function isWide(code: number): boolean {
  return (
    (code >= 0x1100 && code <= 0x115f) ||
    (code >= 0x2e80 && code <= 0xa4cf) ||
    (code >= 0xac00 && code <= 0xd7a3) ||
    (code >= 0xf900 && code <= 0xfaff) ||
    (code >= 0xfe30 && code <= 0xfe4f) ||
    (code >= 0xff00 && code <= 0xff60) ||
    (code >= 0xffe0 && code <= 0xffe6) ||
    (code >= 0x1f300 && code <= 0x1faff) ||
    (code >= 0x20000 && code <= 0x3fffd)
  )
}
