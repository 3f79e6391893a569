/**
 * A whole number with its thousands separated by commas (`12345` → `12,345`), as
 * `toLocaleString('en-US')` writes it, without loading ICU's number formats: their first use
 * costs a process several milliseconds of CPU (tens of milliseconds on a cold disk), and
 * messages built at start-up and a CLI's summary lines would pay it on every run.
 * Anything not a safe integer is written as `String` writes it.
 */
export function groupDigits(value: number): string {
  if (!Number.isSafeInteger(value)) return String(value)
  const digits = String(Math.abs(value))
  let out = digits.slice(0, ((digits.length - 1) % 3) + 1)
  for (let at = out.length; at < digits.length; at += 3) out += `,${digits.slice(at, at + 3)}`
  return value < 0 ? `-${out}` : out
}
