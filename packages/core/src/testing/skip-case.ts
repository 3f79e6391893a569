import type { Test } from 'uvu'

/**
 * Registers a case that cannot run against this store or pairing (a capability it does not
 * declare), saying why: uvu only counts a skipped test, so the reason is printed here.
 */
export function skipCase<T>(s: Test<T>, name: string, title: string, reason: string): void {
  s.skip(`${title} (skipped: ${reason})`, () => undefined)
  console.log(`  ${name}: skipped "${title}": ${reason}`)
}
